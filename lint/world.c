/* The files that set what a batch script reads without setting it
 * (docs/design.md, "An open world"): the files it sources, by a path the
 * script names, and the files those source in turn (WORLD_MAX_DEPTH
 * deep), and the shell files beside it that users source before sbatch
 * (MLPerf's config_<system>.sh beside run.sub). Read on the first
 * question only, parsed with the script model, and asked by name. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"
#include "lint_internal.h"
#include "xalloc.h"

enum {
	WORLD_MAX_FILES = 64,            /* files beside a script that are read */
	WORLD_MAX_BYTES = 1024 * 1024,   /* larger files are not read */
	WORLD_MAX_DEPTH = 4,             /* source inside a sourced file, this deep */
};

struct world_name {
	char *name;
	char *value;  /* the literal value assigned, or NULL */
	size_t file;  /* index into files */
};

struct lint_world {
	char *script;        /* the script's path */
	char *dir;           /* its directory, with a trailing / ("" for .) */
	const sb_model *m;   /* the script */
	bool loaded;
	char **files;
	bool *sourced;       /* by file */
	size_t n_files, cap_files;
	struct world_name *names;
	size_t n_names, cap_names;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A file users source: a shell or env file, or MLPerf's config_NAME. */
static bool context_name(const char *name)
{
	return ends_with(name, ".sh") || ends_with(name, ".bash") || ends_with(name, ".env") ||
	       !strncmp(name, "config_", 7);
}

static bool has_sbatch_line(const char *text, size_t len)
{
	for (const char *p = text, *end = text + len; p < end;) {
		if (end - p >= 7 && !memcmp(p, "#SBATCH", 7))
			return true;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	return false;
}

static void read_sourced(struct lint_world *w, const sb_model *m, const char *from, bool sourced,
			 unsigned depth);

/* Reads one file and records the names it sets; another batch script
 * beside this one is a job of its own, not a file users source. The
 * file's own source commands are followed, up to WORLD_MAX_DEPTH levels
 * down (MLPerf's config_DGXA100_8x8.sh sources its _common.sh): what a
 * file the script sources sources runs in the job too, and what a file
 * beside it sources runs in the submitting shell. */
static void read_names(struct lint_world *w, const char *path, bool sourced, unsigned depth)
{
	for (size_t i = 0; i < w->n_files; i++)
		if (!strcmp(w->files[i], path)) {
			w->sourced[i] |= sourced;
			return;
		}
	if (!strcmp(path, w->script) || w->n_files >= WORLD_MAX_FILES)
		return;
	size_t len;
	bool too_big;
	char *text = file_read(path, WORLD_MAX_BYTES, &len, &too_big);
	if (!text || too_big || (!sourced && has_sbatch_line(text, len))) {
		free(text);
		return;
	}
	sb_model *m = sb_parse(text, len, NULL);
	free(text);
	w->files = xgrow(w->files, &w->cap_files, w->n_files + 1, sizeof *w->files);
	w->sourced = xrealloc(w->sourced, w->cap_files * sizeof *w->sourced);
	w->files[w->n_files] = xstrdup(path);
	w->sourced[w->n_files] = sourced;
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		if (a->kind == SB_ASSIGN_UNSET || a->kind == SB_ASSIGN_PREFIX)
			continue;
		const char *v = a->value ? sb_word_value(a->value) : NULL;
		w->names = xgrow(w->names, &w->cap_names, w->n_names + 1, sizeof *w->names);
		w->names[w->n_names++] =
			(struct world_name){ xstrdup(a->name), v ? xstrdup(v) : NULL, w->n_files };
	}
	w->n_files++;
	if (depth < WORLD_MAX_DEPTH)
		read_sourced(w, m, path, sourced, depth + 1);
	sb_free(m);
}

/* The path a `source X` or `. X` names: its literal value, relative to
 * the script's directory (where sbatch runs it from), or what follows a
 * leading directory expansion ($(dirname "$0")/x.sh,
 * ${SCRIPT_DIR}/x.sh), relative to the directory of the file that
 * sources it (from_dir). NULL when it names no file that can be read. */
static char *sourced_path(const struct lint_world *w, const char *from_dir, const sb_word *arg)
{
	const char *v = sb_word_value(arg);
	size_t len;
	const char *raw = sb_word_raw(arg, &len);
	struct buf b = BUF_INIT;
	if (v) {
		if (v[0] == '/')
			buf_puts(&b, v);
		else
			buf_printf(&b, "%s%s", w->dir, strncmp(v, "./", 2) ? v : v + 2);
	} else if (raw && (raw[0] == '$' || (raw[0] == '"' && len > 1 && raw[1] == '$'))) {
		/* "$(dirname "$0")/x.sh" as often as $(dirname "$0")/x.sh */
		/* the part after the last '/' that follows the expansion */
		const char *slash = memchr(raw, '/', len);
		size_t rest = slash ? len - (size_t)(slash + 1 - raw) : 0;
		if (!slash || !rest || memchr(slash + 1, '$', rest))
			return NULL;
		buf_printf(&b, "%s%.*s", from_dir, (int)rest, slash + 1);
		while (b.len && (b.p[b.len - 1] == '"' || b.p[b.len - 1] == '\''))
			b.p[--b.len] = '\0';
	} else {
		return NULL;
	}
	struct stat st;
	if (stat(b.p, &st) != 0 || !S_ISREG(st.st_mode)) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/* The files that the script (from NULL) or a file it reads sources, read
 * at depth; sourced: they run in the job (else in the submitting shell). */
static void read_sourced(struct lint_world *w, const sb_model *m, const char *from, bool sourced,
			 unsigned depth)
{
	const char *slash = from ? strrchr(from, '/') : NULL;
	char *from_dir = slash ? xstrndup(from, (size_t)(slash - from + 1))
			       : xstrdup(from ? "" : w->dir);
	for (size_t i = 0; i < sb_cmd_count(m); i++) {
		const sb_cmd *cmd = sb_cmd_at(m, i);
		const char *w0 = sb_cmd_word_count(cmd) > 1 ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
		if (!w0 || (strcmp(w0, "source") && strcmp(w0, ".")))
			continue;
		char *path = sourced_path(w, from_dir, sb_cmd_word(cmd, 1));
		if (path)
			read_names(w, path, sourced, depth);
		free(path);
	}
	free(from_dir);
}

static void load(struct lint_world *w)
{
	w->loaded = true;
	read_sourced(w, w->m, NULL, true, 1);
	DIR *d = opendir(*w->dir ? w->dir : ".");
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < WORLD_MAX_FILES)
		if (e->d_name[0] != '.' && context_name(e->d_name)) {
			names = xgrow(names, &cap, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char *path = xmalloc(strlen(w->dir) + strlen(names[i]) + 1);
		strcpy(path, w->dir);
		strcat(path, names[i]);
		read_names(w, path, false, 1);
		free(path);
		free(names[i]);
	}
	free(names);
}

static bool world_sets(void *ctx, const char *name, const char **file, bool *sourced)
{
	struct lint_world *w = ctx;
	if (!w->loaded)
		load(w);
	/* a sourced file first: it is the script's own */
	const struct world_name *found = NULL;
	for (size_t i = 0; i < w->n_names; i++)
		if (!strcmp(w->names[i].name, name) &&
		    (!found || (w->sourced[w->names[i].file] && !w->sourced[found->file])))
			found = &w->names[i];
	if (!found)
		return false;
	*file = w->files[found->file];
	*sourced = w->sourced[found->file];
	return true;
}

/* The literal value the last assignment of name in a file beside the
 * script gives (what the submitting shell holds when users source it
 * before sbatch), or NULL. */
static const char *world_value_beside(void *ctx, const char *name, const char **file)
{
	struct lint_world *w = ctx;
	if (!w->loaded)
		load(w);
	const struct world_name *found = NULL;
	for (size_t i = 0; i < w->n_names; i++)
		if (!strcmp(w->names[i].name, name) && !w->sourced[w->names[i].file])
			found = &w->names[i];
	if (!found || !found->value)
		return NULL;
	*file = w->files[found->file];
	return found->value;
}

struct lint_world *lint_world_new(const char *script, const sb_model *m)
{
	struct lint_world *w = xcalloc(1, sizeof *w);
	w->script = xstrdup(script);
	const char *slash = strrchr(script, '/');
	w->dir = slash ? xstrndup(script, (size_t)(slash - script + 1)) : xstrdup("");
	w->m = m;
	return w;
}

struct sb_world lint_world_of(struct lint_world *w)
{
	struct sb_world sw = { world_sets, world_value_beside, w };
	return sw;
}

void lint_world_free(struct lint_world *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_names; i++) {
		free(w->names[i].name);
		free(w->names[i].value);
	}
	for (size_t i = 0; i < w->n_files; i++)
		free(w->files[i]);
	free(w->names);
	free(w->files);
	free(w->sourced);
	free(w->script);
	free(w->dir);
	free(w);
}
