/* Reading one .trainforge.yaml: the YAML document and our schema first,
 * so that every mistake has a position, then the rule selectors, then
 * libcyaml binds the fixed-shape keys (strict enums). The two maps keyed
 * by the user (severity, per-file-ignores) are read from the document. */
#include "settings_internal.h"

#include <ctype.h>
#include <cyaml/cyaml.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "schema.h"
#include "xalloc.h"
#include "yamldoc.h"

enum { CONFIG_MAX_BYTES = 1 << 20, EXTENDS_MAX_DEPTH = 16 };

bool settings_select(const char *s, size_t len, bool *mark, bool value)
{
	if (len == 3 && strncasecmp(s, "ALL", 3) == 0) {
		for (int i = 0; i < RULE__COUNT; i++)
			mark[i] = value;
		return true;
	}
	int exact = rule_find(s, len);
	if (exact >= 0) {
		mark[exact] = value;
		return true;
	}
	bool any = false;
	bool prefix = len >= 2 && len < 6 && isalpha((unsigned char)s[0]) &&
		      isalpha((unsigned char)s[1]);
	for (size_t i = 2; prefix && i < len; i++)
		prefix = isdigit((unsigned char)s[i]);
	for (int i = 0; prefix && i < RULE__COUNT; i++)
		if (strncasecmp(rule_table[i].id, s, len) == 0) {
			mark[i] = value;
			any = true;
		}
	return any;
}

/* ---- binding (libcyaml, after the schema passed) --------------------- */

enum settings_fail { CF_UNSET, CF_ERROR, CF_WARNING, CF_INFO, CF_NEVER };

struct settings_bound {
	char **select;
	unsigned select_count;
	char **ignore;
	unsigned ignore_count;
	char **exclude;
	unsigned exclude_count;
	enum settings_fail fail_level;
	char *cluster, *shellcheck, *extends, *env_file, *base, *docs_url;
	double idle_cost_warning;
	double shellcheck_timeout;
};

static const cyaml_strval_t fail_strings[] = {
	{ "error", CF_ERROR }, { "warning", CF_WARNING }, { "info", CF_INFO }, { "never", CF_NEVER },
};

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define OPT_PTR (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define LIST(key, member) \
	CYAML_FIELD_SEQUENCE(key, OPT_PTR, struct settings_bound, member, &string_entry, 0, CYAML_UNLIMITED)
#define STR(key, member) \
	CYAML_FIELD_STRING_PTR(key, OPT_PTR, struct settings_bound, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t settings_fields[] = {
	LIST("select", select),
	LIST("ignore", ignore),
	LIST("exclude", exclude),
	CYAML_FIELD_ENUM("fail-level", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, struct settings_bound,
			 fail_level, fail_strings, CYAML_ARRAY_LEN(fail_strings)),
	STR("cluster", cluster),
	STR("shellcheck", shellcheck),
	CYAML_FIELD_FLOAT("shellcheck-timeout", CYAML_FLAG_OPTIONAL, struct settings_bound,
			  shellcheck_timeout),
	STR("extends", extends),
	STR("env-file", env_file),
	CYAML_FIELD_IGNORE("define", CYAML_FLAG_OPTIONAL),           /* keyed by the user */
	STR("base", base),
	STR("docs-url", docs_url),
	CYAML_FIELD_FLOAT("idle-cost-warning", CYAML_FLAG_OPTIONAL, struct settings_bound, idle_cost_warning),
	CYAML_FIELD_IGNORE("severity", CYAML_FLAG_OPTIONAL),         /* keyed by rule */
	CYAML_FIELD_IGNORE("per-file-ignores", CYAML_FLAG_OPTIONAL), /* keyed by glob */
	CYAML_FIELD_IGNORE("target", CYAML_FLAG_OPTIONAL),           /* read as written */
	CYAML_FIELD_END
};

static const cyaml_schema_value_t settings_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct settings_bound, settings_fields),
};

static void bind_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct buf *first = ctx;
	if (level >= CYAML_LOG_ERROR && !first->len)
		buf_vprintf(first, fmt, args);
}

static const cyaml_config_t *bind_config(struct buf *log)
{
	static cyaml_config_t cfg;
	cfg = (cyaml_config_t){
		.log_fn = bind_log, .log_ctx = log, .mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_WARNING, .flags = CYAML_CFG_DEFAULT,
	};
	return &cfg;
}

/* ---- checking -------------------------------------------------------- */

struct reader {
	struct settings_file *f;
	const yamldoc *doc;
	int errors;
	struct trouble *trouble; /* where the errors go */
	settings_report_fn report; /* or here, as findings (settings_check) */
	void *report_ctx;
};

static void complain(struct reader *r, yd_node at, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void complain(struct reader *r, yd_node at, const char *help, const char *fmt, ...)
{
	struct yd_span s = at ? yd_span(r->doc, at) : (struct yd_span){ 1, 1, 1, 2 };
	struct buf msg = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	r->errors++;
	if (r->report) {
		r->report(r->report_ctx, s, msg.p, help);
		buf_free(&msg);
		return;
	}
	trouble_add(r->trouble, "%s:%u:%u: error: %s", r->f->path, s.line, s.col, msg.p);
	buf_free(&msg);
	if (help)
		trouble_add(r->trouble, "    = help: %s", help);
}

static void check_schema(struct reader *r)
{
	schema *s = schema_embedded("trainforge-config.schema.json");
	struct schema_errors errs = { 0 };
	schema_validate(s, r->doc, yd_root(r->doc), &errs);
	for (size_t i = 0; i < errs.len; i++)
		complain(r, errs.v[i].pos, errs.v[i].help, "%s", errs.v[i].msg);
	schema_errors_free(&errs);
}

/* Every selector must select something: a typo must not silently turn
 * checking off (or on). */
static void check_selectors(struct reader *r, yd_node list)
{
	bool scratch[RULE__COUNT];
	if (yd_kind(r->doc, list) != YD_SEQUENCE)
		return; /* the schema said so */
	for (size_t i = 0; i < yd_len(r->doc, list); i++) {
		size_t len;
		const char *s = yd_str(r->doc, yd_item(r->doc, list, i), &len);
		if (s && !settings_select(s, len, scratch, true))
			complain(r, yd_item(r->doc, list, i), NULL, "unknown rule selector '%s'", s);
	}
}

static void check_rules(struct reader *r)
{
	const yamldoc *d = r->doc;
	yd_node root = yd_root(d);
	check_selectors(r, yd_get(d, root, "select"));
	check_selectors(r, yd_get(d, root, "ignore"));
	yd_node pfi = yd_get(d, root, "per-file-ignores");
	for (size_t i = 0; yd_kind(d, pfi) == YD_MAPPING && i < yd_len(d, pfi); i++)
		check_selectors(r, yd_value(d, pfi, i));
	yd_node sev = yd_get(d, root, "severity");
	for (size_t i = 0; yd_kind(d, sev) == YD_MAPPING && i < yd_len(d, sev); i++) {
		size_t len;
		const char *id = yd_str(d, yd_key(d, sev, i), &len);
		if (id && rule_find(id, len) < 0)
			complain(r, yd_key(d, sev, i), "severity takes one rule: an ID or a name",
				 "unknown rule '%s'", id);
	}
}

/* target: the versions as written, so that an unquoted 3.10 (a float
 * to YAML) is still 3.10. */
static void check_target(struct reader *r)
{
	const yamldoc *d = r->doc;
	yd_node t = yd_get(d, yd_root(d), "target");
	static const char *const keys[] = { "parallelcluster", "slurm" };
	for (int i = 0; i < 2 && yd_kind(d, t) == YD_MAPPING; i++) {
		yd_node v = yd_get(d, t, keys[i]);
		size_t len;
		const char *text = v ? yd_str(d, v, &len) : NULL;
		if (!text)
			continue; /* absent, or the schema said what is wrong */
		char err[512];
		bool ok = i == 0 ? target_parse_pc(text, len, &r->f->target.pc, err, sizeof err)
				 : target_parse_slurm(text, len, &r->f->target.slurm, err, sizeof err);
		if (!ok)
			complain(r, v, NULL, "target.%s: %s", keys[i], err);
		*(i == 0 ? &r->f->target_pc_line : &r->f->target_slurm_line) = yd_span(d, v).line;
	}
	/* a framework's version: megatron, nxd, torchtitan */
	for (int f = 0; f < FW__COUNT && yd_kind(d, t) == YD_MAPPING; f++) {
		yd_node v = f == FW_PLAIN ? 0 : yd_get(d, t, fw_name(f));
		size_t len;
		const char *text = v ? yd_str(d, v, &len) : NULL;
		if (!text)
			continue;
		char err[512];
		if (!target_parse_fw(f, text, len, &r->f->target.fw[f], err, sizeof err))
			complain(r, v, NULL, "target.%s: %s", fw_name(f), err);
		r->f->target_fw_line[f] = yd_span(d, v).line;
	}
}

/* ---- copying into the file ------------------------------------------- */

static uint32_t line_of(const yamldoc *d, yd_node n)
{
	return n ? yd_span(d, n).line : 1;
}

static struct settings_item *items(const yamldoc *d, yd_node list, char **text, unsigned n_text,
			      size_t *n_out)
{
	*n_out = n_text;
	struct settings_item *v = xcalloc(n_text ? n_text : 1, sizeof *v);
	for (unsigned i = 0; i < n_text; i++) {
		v[i].text = xstrdup(text[i]);
		v[i].line = line_of(d, list && i < yd_len(d, list) ? yd_item(d, list, i) : list);
	}
	return v;
}

static void read_maps(struct settings_file *f, const yamldoc *d)
{
	yd_node root = yd_root(d);
	yd_node sev = yd_get(d, root, "severity");
	f->sev = xcalloc(sev && yd_len(d, sev) ? yd_len(d, sev) : 1, sizeof *f->sev);
	for (size_t i = 0; sev && i < yd_len(d, sev); i++) {
		size_t len;
		const char *id = yd_str(d, yd_key(d, sev, i), &len);
		f->sev[f->n_sev++] = (struct settings_sev){
			rule_find(id, len), severity_parse(yd_str(d, yd_value(d, sev, i), NULL)),
			line_of(d, yd_key(d, sev, i)),
		};
	}
	yd_node pfi = yd_get(d, root, "per-file-ignores");
	f->pfi = xcalloc(pfi && yd_len(d, pfi) ? yd_len(d, pfi) : 1, sizeof *f->pfi);
	for (size_t i = 0; pfi && i < yd_len(d, pfi); i++) {
		struct settings_pfi *p = &f->pfi[f->n_pfi++];
		yd_node list = yd_value(d, pfi, i);
		p->glob = xstrdup(yd_str(d, yd_key(d, pfi, i), NULL));
		p->line = line_of(d, yd_key(d, pfi, i));
		p->n_rules = yd_len(d, list);
		p->rules = xcalloc(p->n_rules ? p->n_rules : 1, sizeof *p->rules);
		for (size_t k = 0; k < p->n_rules; k++) {
			p->rules[k].text = xstrdup(yd_str(d, yd_item(d, list, k), NULL));
			p->rules[k].line = line_of(d, yd_item(d, list, k));
		}
	}
}

static void read_scalars(struct reader *r, struct settings_bound *b)
{
	struct settings_file *f = r->f;
	const yamldoc *d = r->doc;
	yd_node root = yd_root(d);
	static const int fail_level[] = {
		[CF_UNSET] = -1, [CF_ERROR] = SEV_ERROR, [CF_WARNING] = SEV_WARNING,
		[CF_INFO] = SEV_INFO, [CF_NEVER] = SEV_ERROR + 1,
	};
	f->fail_level = fail_level[b->fail_level];
	f->fail_line = line_of(d, yd_get_key(d, root, "fail-level"));
	if (b->cluster) {
		f->cluster = settings_join(f->dir, b->cluster);
		f->cluster_shown = settings_relative(f->cluster);
		f->cluster_line = line_of(d, yd_get_key(d, root, "cluster"));
	}
	if (b->base) {
		f->base = xstrdup(b->base);
		f->base_line = line_of(d, yd_get_key(d, root, "base"));
	}
	if (b->docs_url) {
		f->docs_url = xstrdup(b->docs_url);
		f->docs_url_line = line_of(d, yd_get_key(d, root, "docs-url"));
	}
	if (yd_get_key(d, root, "idle-cost-warning")) {
		f->idle_cost_warning = b->idle_cost_warning;
		f->idle_cost_line = line_of(d, yd_get_key(d, root, "idle-cost-warning"));
	}
	if (b->shellcheck) {
		static const char *const modes[] = {
			[SHELLCHECK_AUTO] = "auto", [SHELLCHECK_OFF] = "off",
			[SHELLCHECK_REQUIRED] = "required",
		};
		yd_node v = yd_get(d, root, "shellcheck");
		bool on;
		f->shellcheck = SHELLCHECK_REQUIRED;
		for (int m = 0; m < 3; m++)
			if (strcmp(b->shellcheck, modes[m]) == 0)
				f->shellcheck = m;
		if (yd_bool(d, v, &on)) /* YAML 1.1 reads a bare off (or no) as false */
			f->shellcheck = on ? SHELLCHECK_AUTO : SHELLCHECK_OFF;
		else if (strchr(b->shellcheck, '/'))
			f->shellcheck_program = settings_join(f->dir, b->shellcheck);
		f->shellcheck_line = line_of(d, yd_get_key(d, root, "shellcheck"));
	}
	f->shellcheck_timeout = b->shellcheck_timeout;
	f->shellcheck_timeout_line = line_of(d, yd_get_key(d, root, "shellcheck-timeout"));
}

static void define_add(struct settings_file *f, const char *name, size_t name_len,
		       const char *value, size_t value_len, uint32_t line)
{
	tmpl_defs_add(&f->defines, name, name_len, value, value_len);
	f->define_lines = xrealloc(f->define_lines, f->defines.len * sizeof *f->define_lines);
	for (size_t i = 0; i < f->defines.len; i++)
		if (strlen(f->defines.v[i].name) == name_len &&
		    memcmp(f->defines.v[i].name, name, name_len) == 0)
			f->define_lines[i] = line;
}

/* env-file first, then define over it: the values for templates. */
static void read_defines(struct reader *r, const char *env_file)
{
	struct settings_file *f = r->f;
	const yamldoc *d = r->doc;
	yd_node root = yd_root(d);
	if (env_file) {
		yd_node at = yd_get(d, root, "env-file");
		char *path = settings_join(f->dir, env_file);
		size_t len;
		bool too_big;
		char *text = file_read(path, CONFIG_MAX_BYTES, &len, &too_big);
		struct tmpl_defs env = { 0 };
		uint32_t bad = 0;
		if (!text || too_big)
			complain(r, at, NULL, "env-file: cannot read '%s': %s", env_file,
				 text ? "larger than 1 MiB" : strerror(errno));
		else if (!tmpl_defs_read_env(&env, text, len, &bad))
			complain(r, at, "each line is NAME=VALUE, export NAME=VALUE, a # comment or blank",
				 "env-file: line %u of '%s' is not a definition", bad, env_file);
		for (size_t i = 0; i < env.len; i++)
			define_add(f, env.v[i].name, strlen(env.v[i].name), env.v[i].value,
				   strlen(env.v[i].value), line_of(d, at));
		tmpl_defs_free(&env);
		free(text);
		free(path);
	}
	yd_node defs = yd_get(d, root, "define");
	for (size_t i = 0; yd_kind(d, defs) == YD_MAPPING && i < yd_len(d, defs); i++) {
		size_t nl, vl;
		const char *name = yd_str(d, yd_key(d, defs, i), &nl);
		const char *value = yd_str(d, yd_value(d, defs, i), &vl);
		if (!name || !value)
			continue; /* the schema said so */
		if (memchr(value, '\n', vl)) {
			complain(r, yd_value(d, defs, i), NULL, "define: the value of %s must be one line", name);
			continue;
		}
		define_add(f, name, nl, value, vl, line_of(d, yd_key(d, defs, i)));
	}
}

static void read_extends(struct reader *r, struct settings_files *files, const char *rel,
			 unsigned depth)
{
	yd_node at = yd_get(r->doc, yd_root(r->doc), "extends");
	char *joined = settings_join(r->f->dir, rel);
	char *abs = settings_absolute(joined);
	free(joined);
	if (depth >= EXTENDS_MAX_DEPTH) {
		complain(r, at, NULL, "extends: more than %d files deep", EXTENDS_MAX_DEPTH);
	} else if (access(abs, R_OK) != 0) {
		complain(r, at, NULL, "extends: cannot read '%s': %s", rel, strerror(errno));
	} else {
		struct settings_file *parent = settings_file_load(files, abs, depth + 1);
		if (parent && parent->loading)
			complain(r, at, NULL, "extends: '%s' extends this file again (a cycle)", rel);
		else if ((!parent || !parent->ok) && r->report)
			complain(r, at, "lint that file to see its problems", "extends: '%s' is not a valid settings file", rel);
		else if (!parent || !parent->ok)
			r->errors++; /* its own messages are out */
		else
			r->f->parent = parent;
	}
	free(abs);
}

/* ---- loading --------------------------------------------------------- */

static bool bind(struct reader *r, const char *text, size_t len, struct settings_files *files,
		 unsigned depth)
{
	struct buf log = BUF_INIT;
	struct settings_bound *b = NULL;
	cyaml_err_t err = cyaml_load_data((const uint8_t *)text, len, bind_config(&log),
					  &settings_schema, (cyaml_data_t **)&b, NULL);
	if (err != CYAML_OK || !b) {
		complain(r, 0, NULL, "the file passed its schema but could not be loaded (%s%s%s)",
			 cyaml_strerror(err), log.len ? ": " : "", log.len ? log.p : "");
		buf_free(&log);
		return false;
	}
	const yamldoc *d = r->doc;
	yd_node root = yd_root(d);
	struct settings_file *f = r->f;
	f->has_select = yd_get_key(d, root, "select") != 0;
	f->select_line = line_of(d, yd_get_key(d, root, "select"));
	f->select = items(d, yd_get(d, root, "select"), b->select, b->select_count, &f->n_select);
	f->ignore = items(d, yd_get(d, root, "ignore"), b->ignore, b->ignore_count, &f->n_ignore);
	f->exclude = items(d, yd_get(d, root, "exclude"), b->exclude, b->exclude_count,
			   &f->n_exclude);
	read_scalars(r, b);
	read_maps(f, d);
	read_defines(r, b->env_file);
	if (b->extends)
		read_extends(r, files, b->extends, depth);
	cyaml_free(bind_config(&log), &settings_schema, b, 0);
	buf_free(&log);
	return r->errors == 0;
}

static bool parse(struct reader *r, const char *text, size_t len, struct settings_files *files,
		  unsigned depth)
{
	for (size_t i = 0; i < yamldoc_issue_count(r->doc); i++) {
		const struct yd_issue *is = yamldoc_issue(r->doc, i);
		trouble_add(r->trouble, "%s:%u:%u: error: %s%s", r->f->path, is->span.line, is->span.col,
			is->code == YD_ISSUE_SYNTAX ? "YAML syntax error: " : "", is->msg);
		r->errors++;
	}
	if (r->errors)
		return false;
	if (!yd_root(r->doc))
		return true; /* empty, or only comments: every key unset */
	check_schema(r);
	if (yd_kind(r->doc, yd_root(r->doc)) == YD_MAPPING) {
		check_rules(r);
		check_target(r);
	}
	return r->errors == 0 && bind(r, text, len, files, depth);
}

/* A file of files at abs, shown as path (which it takes), every value unset. */
static struct settings_file *file_new(struct settings_files *files, const char *abs, char *path)
{
	struct settings_file *f = xcalloc(1, sizeof *f);
	files->v = xgrow(files->v, &files->cap, files->len + 1, sizeof *files->v);
	files->v[files->len++] = f;
	f->abs = xstrdup(abs);
	f->path = path;
	const char *slash = strrchr(abs, '/');
	f->dir = slash == abs ? xstrdup("/") : xstrndup(abs, (size_t)(slash - abs));
	f->fail_level = -1;
	f->shellcheck = -1;
	f->idle_cost_warning = -1;
	return f;
}

void settings_check(const char *path, const char *text, size_t len, const yamldoc *doc,
		    settings_report_fn report, void *ctx)
{
	if (yamldoc_issue_count(doc) || !yd_root(doc))
		return; /* YAML problems are the input checks' own findings */
	struct trouble quiet = { 0 };
	struct settings_files files = { .trouble = &quiet };
	char *abs = settings_absolute(path);
	struct settings_file *f = file_new(&files, abs, xstrdup(path));
	free(abs);
	struct reader r = { f, doc, 0, &quiet, report, ctx };
	f->loading = true;
	check_schema(&r);
	if (yd_kind(doc, yd_root(doc)) == YD_MAPPING) {
		check_rules(&r);
		check_target(&r);
	}
	if (!r.errors)
		bind(&r, text, len, &files, 0);
	f->loading = false;
	settings_files_free(&files);
	trouble_free(&quiet);
}

struct settings_file *settings_file_load(struct settings_files *files, const char *abs, unsigned depth)
{
	for (size_t i = 0; i < files->len; i++)
		if (strcmp(files->v[i]->abs, abs) == 0)
			return files->v[i];
	struct settings_file *f = file_new(files, abs, settings_shown(abs));
	size_t len;
	bool too_big;
	char *text = file_read(abs, CONFIG_MAX_BYTES, &len, &too_big);
	if (!text || too_big) {
		trouble_add(files->trouble, "trainforge: %s: %s", f->path,
			text ? "larger than 1 MiB; not a config file" : strerror(errno));
		free(text);
		return f;
	}
	yamldoc *doc = yamldoc_parse(text, len, NULL);
	struct reader r = { f, doc, 0, files->trouble, NULL, NULL };
	f->loading = true;
	f->ok = parse(&r, text, len, files, depth);
	f->loading = false;
	yamldoc_free(doc);
	free(text);
	return f;
}

static void items_free(struct settings_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

void settings_files_free(struct settings_files *files)
{
	for (size_t i = 0; i < files->len; i++) {
		struct settings_file *f = files->v[i];
		items_free(f->select, f->n_select);
		items_free(f->ignore, f->n_ignore);
		items_free(f->exclude, f->n_exclude);
		for (size_t k = 0; k < f->n_pfi; k++) {
			free(f->pfi[k].glob);
			items_free(f->pfi[k].rules, f->pfi[k].n_rules);
		}
		free(f->pfi);
		free(f->sev);
		free(f->cluster);
		free(f->cluster_shown);
		free(f->shellcheck_program);
		tmpl_defs_free(&f->defines);
		free(f->define_lines);
		free(f->base);
		free(f->docs_url);
		free(f->abs);
		free(f->path);
		free(f->dir);
		free(f);
	}
	free(files->v);
}
