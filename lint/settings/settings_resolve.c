/* Which config applies to an input, and what it comes to: discovery from
 * the file's directory up to the repository root, the user file, the
 * layers in precedence order (config.h), per-file globs, --show-config. */
#include "settings_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "xalloc.h"

enum { CHAIN_MAX = 32 };

/* Where a value came from: a file and line, a flag, or the default. */
struct origin {
	const char *where;  /* a file as shown, a flag, or NULL for the default */
	uint32_t line;      /* 0 for a flag */
	const char *what;   /* the key that set it */
};

struct origins {
	struct origin enabled[RULE__COUNT], level[RULE__COUNT];
	struct origin fail, shellcheck, shellcheck_timeout, cluster, excluded, base, idle_cost, target_pc, target_slurm;
	struct origin target_fw[FW__COUNT];
	struct origin docs_url;
	struct origin *define; /* by index of the resolved defines */
	size_t cap_define;
};

struct resolved {
	char *key;                  /* the input path as the run names it */
	struct lint_options opt;
	int fail_level;
	struct tmpl_defs defines;   /* the files' and the flags', when any file has some */
};

struct settings {
	struct lint_options base;
	struct settings_flags flags;
	struct settings_file *fixed;     /* --settings */
	struct settings_files files;
	struct { char *dir, *found; } *dirs;  /* discovery, per directory */
	size_t n_dirs, cap_dirs;
	struct resolved **res;
	size_t n_res, cap_res, last;
	char *user;                 /* the user file when it exists */
	bool failed;
};

/* ---- discovery ------------------------------------------------------- */

/* A settings file where the run may not read (file_confine) is not
 * found, rather than found and refused. */
static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && file_allowed(path);
}

static char *find_in(const char *dir)
{
	static const char *const names[] = { ".trainforge.yaml", ".trainforge.yml" };
	for (size_t i = 0; i < 2; i++) {
		char *p = settings_join(strcmp(dir, "/") ? dir : "", names[i]);
		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* The closest project file at or above dir, not past the repository. */
static const char *closest(settings *cfg, const char *dir)
{
	for (size_t i = 0; i < cfg->n_dirs; i++)
		if (strcmp(cfg->dirs[i].dir, dir) == 0)
			return cfg->dirs[i].found;
	char *d = xstrdup(dir), *found = NULL;
	for (;;) {
		if ((found = find_in(d)))
			break;
		char *git = settings_join(strcmp(d, "/") ? d : "", ".git");
		struct stat st;
		bool root = stat(git, &st) == 0;
		free(git);
		char *slash = strrchr(d, '/');
		if (root || !slash || strcmp(d, "/") == 0)
			break;
		slash[slash == d] = '\0';
	}
	free(d);
	cfg->dirs = xgrow(cfg->dirs, &cfg->cap_dirs, cfg->n_dirs + 1, sizeof *cfg->dirs);
	cfg->dirs[cfg->n_dirs].dir = xstrdup(dir);
	cfg->dirs[cfg->n_dirs++].found = found;
	return found;
}

static char *user_file(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct buf b = BUF_INIT;
	if (xdg && xdg[0] == '/')
		buf_printf(&b, "%s/trainforge/config.yaml", xdg);
	else if (home && *home)
		buf_printf(&b, "%s/.config/trainforge/config.yaml", home);
	else
		return NULL;
	char *p = buf_detach(&b);
	if (is_file(p)) {
		char *abs = settings_absolute(p);
		free(p);
		return abs;
	}
	free(p);
	return NULL;
}

/* The config an input starts from, with what chose it. */
static struct settings_file *head_for(settings *cfg, const char *abs, const char **why)
{
	if (cfg->flags.isolated) {
		*why = "--isolated";
		return NULL;
	}
	if (cfg->fixed) {
		*why = "--config";
		return cfg->fixed;
	}
	char *dir = xstrndup(abs, (size_t)(strrchr(abs, '/') - abs));
	const char *found = closest(cfg, *dir ? dir : "/");
	free(dir);
	*why = found ? "closest .trainforge.yaml" : cfg->user ? "user config" : "no config file found";
	found = found ? found : cfg->user;
	return found ? settings_file_load(&cfg->files, found, 0) : NULL;
}

/* ---- layers ---------------------------------------------------------- */

static void set_rules(struct lint_options *o, struct origins *org, const char *sel, size_t len,
		      bool value, struct origin from)
{
	bool hit[RULE__COUNT] = { false };
	settings_select(sel, len, hit, true);
	for (int r = 0; r < RULE__COUNT; r++)
		if (hit[r]) {
			o->enabled[r] = value;
			if (org)
				org->enabled[r] = from;
		}
}

static void clear_rules(struct lint_options *o, struct origins *org, struct origin from)
{
	for (int r = 0; r < RULE__COUNT; r++) {
		o->enabled[r] = false;
		if (org)
			org->enabled[r] = from;
	}
}

static void set_list(struct lint_options *o, struct origins *org, const char *list, bool value,
		     struct origin from)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ","), n = len;
		const char *s = p;
		while (n && (*s == ' ' || *s == '\t'))
			s++, n--;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n)
			set_rules(o, org, s, n, value, from);
		p += len + (p[len] == ',');
	}
}

#define AT(f, l, w) ((struct origin){ (f)->path, (l), (w) })
#define FLAG(name) ((struct origin){ "--" name, 0, name })

/* Adds defs over res's, noting where each came from. */
static void add_defines(struct resolved *res, struct origins *org, const struct tmpl_defs *defs,
			const struct settings_file *f, const uint32_t *lines)
{
	for (size_t i = 0; defs && i < defs->len; i++) {
		const char *name = defs->v[i].name;
		tmpl_defs_add(&res->defines, name, strlen(name), defs->v[i].value,
			      strlen(defs->v[i].value));
		if (!org)
			continue;
		org->define = xgrow(org->define, &org->cap_define, res->defines.len, sizeof *org->define);
		for (size_t k = 0; k < res->defines.len; k++)
			if (!strcmp(res->defines.v[k].name, name))
				org->define[k] = f ? AT(f, lines[i], "define") : FLAG("define");
	}
}

/* A layer's target over the target so far: naming ParallelCluster also
 * brings its Slurm (target.h), so the Slurm's origin moves with it. */
static void apply_target(struct lint_options *o, struct origins *org,
			 const struct target_request *req, struct origin pc_from,
			 struct origin slurm_from, const struct origin *fw_from)
{
	o->target = target_apply(o->target, req);
	if (!org)
		return;
	if (version_is_set(req->pc))
		org->target_pc = org->target_slurm = pc_from;
	if (version_is_set(req->slurm))
		org->target_slurm = slurm_from;
	for (int f = 0; f < FW__COUNT; f++)
		if (req->fw[f])
			org->target_fw[f] = fw_from[f];
}

static void apply_file(const settings *cfg, const struct settings_file *f, struct lint_options *o,
		       int *fail, struct origins *org)
{
	if (f->has_select)
		clear_rules(o, org, AT(f, f->select_line, "select"));
	for (size_t i = 0; i < f->n_select; i++)
		set_rules(o, org, f->select[i].text, strlen(f->select[i].text), true,
			  AT(f, f->select[i].line, "select"));
	for (size_t i = 0; i < f->n_ignore; i++)
		set_rules(o, org, f->ignore[i].text, strlen(f->ignore[i].text), false,
			  AT(f, f->ignore[i].line, "ignore"));
	for (size_t i = 0; i < f->n_sev; i++) {
		o->level[f->sev[i].rule] = f->sev[i].level;
		if (org)
			org->level[f->sev[i].rule] = AT(f, f->sev[i].line, "severity");
	}
	if (f->fail_level >= 0) {
		*fail = f->fail_level;
		if (org)
			org->fail = AT(f, f->fail_line, "fail-level");
	}
	if (f->shellcheck >= 0 && !cfg->flags.shellcheck_set) {
		o->shellcheck = (enum shellcheck_mode)f->shellcheck;
		o->shellcheck_program = f->shellcheck_program;
		if (org)
			org->shellcheck = AT(f, f->shellcheck_line, "shellcheck");
	}
	if (f->shellcheck_timeout > 0 && !cfg->flags.shellcheck_timeout_set) {
		o->shellcheck_timeout = f->shellcheck_timeout;
		if (org)
			org->shellcheck_timeout = AT(f, f->shellcheck_timeout_line, "shellcheck-timeout");
	}
	if (f->base && !cfg->base.base_rev) {
		o->base_rev = f->base;
		if (org)
			org->base = AT(f, f->base_line, "base");
	}
	if (f->docs_url) {
		o->docs_url = f->docs_url;
		if (org)
			org->docs_url = AT(f, f->docs_url_line, "docs-url");
	}
	if (f->idle_cost_warning >= 0) {
		o->idle_cost_warning = f->idle_cost_warning;
		if (org)
			org->idle_cost = AT(f, f->idle_cost_line, "idle-cost-warning");
	}
	if (f->cluster) {
		o->cluster_fallback = f->cluster_shown;
		if (org)
			org->cluster = AT(f, f->cluster_line, "cluster");
	}
	static const char *const fw_keys[FW__COUNT] = {
		[FW_MEGATRON] = "target.megatron", [FW_NXD] = "target.nxd",
		[FW_TORCHTITAN] = "target.torchtitan", [FW_PLAIN] = "target",
	};
	struct origin fw_from[FW__COUNT];
	for (int k = 0; k < FW__COUNT; k++)
		fw_from[k] = AT(f, f->target_fw_line[k], fw_keys[k]);
	apply_target(o, org, &f->target, AT(f, f->target_pc_line, "target.parallelcluster"),
		     AT(f, f->target_slurm_line, "target.slurm"), fw_from);
}

/* Builds the options for one input; false when its config is invalid. */
static bool resolve(settings *cfg, const char *path, struct resolved *res, struct origins *org,
		    struct settings_file **chain, size_t *n_chain, const char **why)
{
	char *abs = settings_absolute(path);
	struct settings_file *head = head_for(cfg, abs, why);
	struct lint_options *o = &res->opt;
	*o = cfg->base;
	o->options_for = NULL;
	o->options_ctx = NULL;
	o->cluster_fallback = NULL;
	o->excluded = false;
	o->target = target_default();
	for (int r = 0; r < RULE__COUNT; r++) {
		o->enabled[r] = true;
		o->level[r] = -1;
	}
	if (!cfg->flags.shellcheck_set) {
		o->shellcheck = SHELLCHECK_AUTO;
		o->shellcheck_program = NULL;
	}
	if (!cfg->flags.shellcheck_timeout_set)
		o->shellcheck_timeout = SHELLCHECK_TIMEOUT;
	res->fail_level = SEV_WARNING;
	size_t n = 0;
	for (struct settings_file *f = head; f && n < CHAIN_MAX; f = f->parent)
		chain[n++] = f;
	*n_chain = n;
	if (head && !head->ok && cfg->flags.lenient) {
		n = *n_chain = 0; /* as if it were not there */
	} else if (head && !head->ok) {
		o->excluded = true;
		free(abs);
		return false;
	}
	for (size_t i = n; i-- > 0;)
		apply_file(cfg, chain[i], o, &res->fail_level, org);
	bool file_defines = false;
	for (size_t i = n; i-- > 0;) {
		add_defines(res, org, &chain[i]->defines, chain[i], chain[i]->define_lines);
		file_defines |= chain[i]->defines.len > 0;
	}
	if (file_defines) { /* --define and --env-file win */
		add_defines(res, org, cfg->base.defines, NULL, NULL);
		o->defines = &res->defines;
	}
	if (cfg->flags.select) {
		clear_rules(o, org, FLAG("select"));
		set_list(o, org, cfg->flags.select, true, FLAG("select"));
	}
	for (size_t i = n; i-- > 0;)
		for (size_t k = 0; k < chain[i]->n_pfi; k++) {
			const struct settings_pfi *p = &chain[i]->pfi[k];
			if (!settings_glob_match(chain[i]->dir, p->glob, abs))
				continue;
			for (size_t j = 0; j < p->n_rules; j++)
				set_rules(o, org, p->rules[j].text, strlen(p->rules[j].text), false,
					  AT(chain[i], p->rules[j].line, "per-file-ignores"));
		}
	if (cfg->flags.ignore)
		set_list(o, org, cfg->flags.ignore, false, FLAG("ignore"));
	for (int r = 0; r < RULE__COUNT; r++)
		if (cfg->base.level[r] >= 0) {
			o->level[r] = cfg->base.level[r];
			if (org)
				org->level[r] = FLAG("severity");
		}
	if (cfg->flags.fail_level >= 0) {
		res->fail_level = cfg->flags.fail_level;
		if (org)
			org->fail = FLAG("fail-level");
	}
	if (org && cfg->flags.shellcheck_set)
		org->shellcheck = FLAG("shellcheck");
	if (org && cfg->flags.shellcheck_timeout_set)
		org->shellcheck_timeout = FLAG("shellcheck-timeout");
	struct origin fw_flag_from[FW__COUNT];
	for (int k = 0; k < FW__COUNT; k++)
		fw_flag_from[k] = FLAG("target");
	apply_target(o, org, &cfg->base.target_flags, FLAG("target"), FLAG("target"), fw_flag_from);
	if (org && o->cluster_path)
		org->cluster = FLAG("cluster");
	if (org && cfg->base.base_rev)
		org->base = FLAG("base");
	for (size_t i = n; i-- > 0 && !o->excluded;)
		for (size_t k = 0; k < chain[i]->n_exclude && !o->excluded; k++)
			if (settings_glob_match(chain[i]->dir, chain[i]->exclude[k].text, abs)) {
				o->excluded = true;
				if (org)
					org->excluded = AT(chain[i], chain[i]->exclude[k].line, "exclude");
			}
	free(abs);
	return true;
}

/* ---- the API --------------------------------------------------------- */

settings *settings_new(const struct lint_options *base, const struct settings_flags *flags,
		       struct trouble *trouble)
{
	settings *cfg = xcalloc(1, sizeof *cfg);
	cfg->files.trouble = trouble;
	cfg->base = *base;
	cfg->flags = *flags;
	if (flags->config_path && !flags->isolated) {
		char *abs = settings_absolute(flags->config_path);
		cfg->fixed = settings_file_load(&cfg->files, abs, 0);
		free(abs);
		if (!cfg->fixed->ok) {
			settings_free(cfg);
			return NULL;
		}
	}
	if (!flags->isolated && !flags->config_path)
		cfg->user = user_file();
	return cfg;
}

void settings_free(settings *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->n_res; i++) {
		free(cfg->res[i]->key);
		tmpl_defs_free(&cfg->res[i]->defines);
		free(cfg->res[i]);
	}
	for (size_t i = 0; i < cfg->n_dirs; i++) {
		free(cfg->dirs[i].dir);
		free(cfg->dirs[i].found);
	}
	free(cfg->dirs);
	free(cfg->res);
	free(cfg->user);
	settings_files_free(&cfg->files);
	free(cfg);
}

static struct resolved *lookup(settings *cfg, const char *path)
{
	if (cfg->n_res && strcmp(cfg->res[cfg->last]->key, path) == 0)
		return cfg->res[cfg->last];
	for (size_t i = 0; i < cfg->n_res; i++)
		if (strcmp(cfg->res[i]->key, path) == 0)
			return cfg->res[cfg->last = i];
	struct resolved *res = xcalloc(1, sizeof *res);
	res->key = xstrdup(path);
	struct settings_file *chain[CHAIN_MAX];
	size_t n;
	const char *why;
	if (!resolve(cfg, path, res, NULL, chain, &n, &why))
		cfg->failed = true;
	cfg->res = xgrow(cfg->res, &cfg->cap_res, cfg->n_res + 1, sizeof *cfg->res);
	cfg->res[cfg->last = cfg->n_res++] = res;
	return res;
}

const struct lint_options *settings_options_for(void *ctx, const char *path)
{
	return &lookup(ctx, path)->opt;
}

int settings_fail_level(settings *cfg, const char *path)
{
	return lookup(cfg, path)->fail_level;
}

bool settings_failed(const settings *cfg)
{
	return cfg->failed;
}

/* ---- --show-config --------------------------------------------------- */

/* "default", "--target", ".trainforge.yaml:4": after "# " and a prefix. */
static void origin_tail(FILE *out, const char *prefix, const struct origin *o)
{
	if (!o->where)
		fprintf(out, "  # %sdefault\n", prefix);
	else if (!o->line)
		fprintf(out, "  # %s%s\n", prefix, o->where);
	else
		fprintf(out, "  # %s%s:%u\n", prefix, o->where, o->line);
}

static void origin_print(FILE *out, const struct origin *o)
{
	origin_tail(out, "", o);
}

static void show_target(FILE *out, const struct target *t, const struct origins *org)
{
	fprintf(out, "target:\n  parallelcluster: \"%s\"", PC_TEXT(t->pc));
	origin_print(out, &org->target_pc);
	fprintf(out, "  slurm: \"%s\"", SLURM_TEXT(t->slurm));
	const struct pc_release *r = t->slurm_of_pc ? pc_release_find(t->pc) : NULL;
	char prefix[64] = "";
	if (r)
		snprintf(prefix, sizeof prefix, "what ParallelCluster %s ships, by ", PC_TEXT(r->pc));
	origin_tail(out, prefix, &org->target_slurm);
	for (int f = 0; f < FW__COUNT; f++) {
		if (f == FW_PLAIN)
			continue;
		fprintf(out, "  %s: \"%s\"", fw_name(f), fw_version_at(f, target_fw_version(t, f))->name);
		origin_print(out, &org->target_fw[f]);
	}
}

static const char *level_name(int level)
{
	return level > SEV_ERROR ? "never" : severity_name((enum severity)level);
}

static bool same_origin(const struct origin *a, const struct origin *b)
{
	return a->line == b->line && (a->where == b->where ||
				      (a->where && b->where && !strcmp(a->where, b->where))) &&
	       (a->what == b->what || (a->what && b->what && !strcmp(a->what, b->what)));
}

/* The origin most rules of a group share is summed up in one line (the
 * default, `select: [ALL]`, the select that left the rest out); the
 * others are listed, so the list shows what a file or a flag changed. */
static void show_group(FILE *out, const struct lint_options *o, const struct origins *org,
		       bool on)
{
	int n = 0, best = 0;
	const struct origin *common = NULL;
	for (int r = 0; r < RULE__COUNT; r++) {
		if (o->enabled[r] != on)
			continue;
		n++;
		int same = 0;
		for (int k = 0; k < RULE__COUNT; k++)
			same += o->enabled[k] == on && same_origin(&org->enabled[r], &org->enabled[k]);
		if (same > best) {
			best = same;
			common = &org->enabled[r];
		}
	}
	if (best < 8)
		common = NULL;
	fprintf(out, "%s:%s\n", on ? "enabled" : "disabled", n ? "" : " []");
	for (int r = 0; r < RULE__COUNT; r++) {
		const struct origin *g = &org->enabled[r];
		if (o->enabled[r] != on || (common && same_origin(g, common)))
			continue;
		fprintf(out, "  %s: %s", rule_table[r].id, g->what ? g->what : "default");
		origin_print(out, g);
	}
	if (common) {
		bool sel = common->what && !strcmp(common->what, "select");
		fprintf(out, "  # %s %d: %s", best == n ? "all" : "and", best,
			sel ? on ? "selected" : "not selected" : common->what ? common->what : "default");
		if (common->where && common->line)
			fprintf(out, " at %s:%u", common->where, common->line);
		else if (common->where)
			fprintf(out, " (%s)", common->where);
		fputc('\n', out);
	}
}

static void show_rules(FILE *out, const struct lint_options *o, const struct origins *org)
{
	int on = 0;
	for (int r = 0; r < RULE__COUNT; r++)
		on += o->enabled[r];
	fprintf(out, "rules: %d of %d enabled\n", on, RULE__COUNT);
	show_group(out, o, org, true);
	show_group(out, o, org, false);
	bool any = false;
	for (int r = 0; r < RULE__COUNT; r++)
		if (o->level[r] >= 0) {
			fprintf(out, "%s  %s: %s", any ? "" : "severity:\n", rule_table[r].id,
				level_name(o->level[r]));
			origin_print(out, &org->level[r]);
			any = true;
		}
	if (!any)
		fputs("severity: {}\n", out);
}

bool settings_show(settings *cfg, const char *path, FILE *out)
{
	struct resolved res = { 0 };
	struct origins *org = xcalloc(1, sizeof *org);
	struct settings_file *chain[CHAIN_MAX];
	size_t n;
	const char *why;
	bool ok = resolve(cfg, path, &res, org, chain, &n, &why);
	if (ok) {
		const struct lint_options *o = &res.opt;
		fprintf(out, "path: %s\nconfig:%s  # %s\n", path, n ? "" : " []", why);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "  - %s%s%s\n", chain[i]->path, i ? "  # extended by " : "",
				i ? chain[i - 1]->path : "");
		fprintf(out, "excluded: %s", o->excluded ? "true" : "false");
		origin_print(out, &org->excluded);
		fprintf(out, "fail-level: %s", level_name(res.fail_level));
		origin_print(out, &org->fail);
		static const char *const modes[] = { "auto", "off", "required" };
		fprintf(out, "shellcheck: %s", o->shellcheck_program ? o->shellcheck_program
			: modes[o->shellcheck]);
		origin_print(out, &org->shellcheck);
		fprintf(out, "shellcheck-timeout: %g", o->shellcheck_timeout);
		origin_print(out, &org->shellcheck_timeout);
		const char *cluster = o->cluster_path ? o->cluster_path : o->cluster_fallback;
		char *shown = cluster && cluster[0] == '/' ? settings_shown(cluster) : NULL;
		fprintf(out, "cluster: %s", shown ? shown : cluster ? cluster : "null");
		free(shown);
		origin_print(out, &org->cluster);
		fprintf(out, "base: %s", o->base_rev ? o->base_rev : "null");
		origin_print(out, &org->base);
		fprintf(out, "docs-url: %s", o->docs_url ? o->docs_url : rule_docs_url);
		origin_print(out, &org->docs_url);
		if (o->idle_cost_warning >= 0)
			fprintf(out, "idle-cost-warning: %g", o->idle_cost_warning);
		else
			fputs("idle-cost-warning: null", out);
		origin_print(out, &org->idle_cost);
		show_target(out, &o->target, org);
		const struct tmpl_defs *defs = o->defines;
		fprintf(out, "define:%s\n", defs && defs->len ? "" : " {}");
		for (size_t i = 0; defs && i < defs->len; i++) {
			fprintf(out, "  %s: \"", defs->v[i].name);
			for (const char *p = defs->v[i].value; *p; p++)
				fprintf(out, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
			fputc('"', out);
			origin_print(out, defs == &res.defines && org->define ? &org->define[i]
				     : &FLAG("define"));
		}
		show_rules(out, o, org);
	}
	tmpl_defs_free(&res.defines);
	free(org->define);
	free(org);
	return ok;
}
