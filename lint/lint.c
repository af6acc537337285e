#include "lint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcluster.h"
#include "suppress.h"
#include "text.h"
#include "xalloc.h"
#include "yamldoc.h"

enum { WALK_MAX_DEPTH = 64 };

void lint_options_init(struct lint_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->kind = KIND_AUTO;
	opt->max_bytes = 16u << 20;
	for (int i = 0; i < RULE__COUNT; i++) {
		opt->enabled[i] = true;
		opt->level[i] = -1;
	}
}

void lint_run_init(struct lint_run *run, const struct lint_options *opt)
{
	memset(run, 0, sizeof *run);
	run->opt = opt;
}

void lint_run_fini(struct lint_run *run)
{
	diag_list_free(&run->diags);
	for (size_t i = 0; i < run->n_sources; i++)
		source_free(run->sources[i]);
	free(run->sources);
}

static struct source *keep_source(struct lint_run *run, const char *path,
				  char *text, size_t len)
{
	struct source *src = source_new(path, text, len);
	run->sources = xgrow(run->sources, &run->cap_sources, run->n_sources + 1,
			     sizeof *run->sources);
	run->sources[run->n_sources++] = src;
	return src;
}

static void io_error(struct lint_run *run, const char *path, const char *why)
{
	fprintf(stderr, "trainforge: %s: %s\n", path, why);
	run->io_failed = true;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static bool looks_like_yaml(const char *path)
{
	return has_suffix(path, ".yaml") || has_suffix(path, ".yml");
}

/* ---- per-file pipeline ----------------------------------------------- */

static const enum rule_id issue_rule[] = {
	[YD_ISSUE_SYNTAX] = R_LN1001,
	[YD_ISSUE_DUPLICATE_KEY] = R_PC0001,
	[YD_ISSUE_DEPTH] = R_LN1006,
	[YD_ISSUE_ALIAS_BUDGET] = R_LN1007,
	[YD_ISSUE_MULTI_DOC] = R_LN1009,
};

static void report_issues(struct lint_run *run, struct source *src,
			  const yamldoc *doc, enum lint_kind kind)
{
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		enum rule_id rule = issue_rule[is->code];
		if (is->code == YD_ISSUE_DUPLICATE_KEY && kind == KIND_JOBSPEC)
			rule = R_JS0001;
		else if (is->code == YD_ISSUE_DUPLICATE_KEY && kind != KIND_PCLUSTER)
			continue;
		struct diag *d = diag_add(&run->diags, src, rule,
					  is->span.line, is->span.col,
					  is->span.end_line, is->span.end_col, "%s%s",
					  is->code == YD_ISSUE_SYNTAX ? "YAML syntax error: " : "",
					  is->msg);
		if (is->code == YD_ISSUE_DUPLICATE_KEY)
			diag_set_help(d, "%s", kind == KIND_PCLUSTER
				      ? "ParallelCluster rejects duplicate keys; keep one"
				      : "a YAML loader keeps only one of them; keep one");
	}
}

/* DESIGN.md's kinds: a cluster config has top-level HeadNode and
 * Scheduling; a job spec has `trainforge:` (its format version). */
static enum lint_kind classify_yaml(const yamldoc *doc)
{
	yd_node root = yd_root(doc);
	if (yd_kind(doc, root) != YD_MAPPING)
		return KIND_UNKNOWN;
	if (yd_get_key(doc, root, "HeadNode") && yd_get_key(doc, root, "Scheduling"))
		return KIND_PCLUSTER;
	if (yd_get_key(doc, root, "trainforge"))
		return KIND_JOBSPEC;
	return KIND_UNKNOWN;
}

static const char *const kind_names[] = {
	[KIND_AUTO] = NULL, [KIND_PCLUSTER] = "pcluster", [KIND_JOBSPEC] = "jobspec",
	[KIND_UNKNOWN] = NULL,
};

/* Checks that apply to bytes before any parse; false stops the file. */
static bool check_bytes(struct lint_run *run, struct source *src, bool named)
{
	size_t where;
	enum input_problem p = text_check_input(src->text, src->len, &where);
	uint32_t line, col;
	if (p == INPUT_OK) {
		size_t i = 0;
		while (i < src->len && strchr(" \t\r\n", src->text[i]))
			i++;
		if (i < src->len)
			return true;
		if (named)
			diag_add(&run->diags, src, R_LN1004, 1, 1, 1, 1, "the file is empty");
		return false;
	}
	if (!named)
		return false;
	source_locate(src, where, &line, &col);
	if (p == INPUT_BINARY)
		diag_add(&run->diags, src, R_LN1003, line, col, line, col + 1,
			 "NUL byte at offset %zu: this is a binary file, not text", where);
	else
		diag_add(&run->diags, src, R_LN1002, line, col, line, col + 1,
			 "invalid UTF-8 byte 0x%02x at offset %zu",
			 (unsigned char)src->text[where], where);
	return false;
}

static void apply_selection(struct lint_run *run, size_t first)
{
	const struct lint_options *opt = run->opt;
	for (size_t i = first; i < run->diags.len;) {
		struct diag *d = &run->diags.v[i];
		if (!opt->enabled[d->rule]) {
			diag_remove(&run->diags, i);
			continue;
		}
		if (opt->level[d->rule] >= 0)
			d->sev = (enum severity)opt->level[d->rule];
		i++;
	}
}

static void lint_source(struct lint_run *run, struct source *src, bool named)
{
	size_t first = run->diags.len;
	if (!check_bytes(run, src, named)) {
		apply_selection(run, first);
		return;
	}
	enum lint_kind kind = run->opt->kind;
	if (kind == KIND_AUTO && !named && !looks_like_yaml(src->path))
		return;
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	if (kind == KIND_AUTO)
		kind = classify_yaml(doc);
	if (kind == KIND_UNKNOWN && !named) {
		yamldoc_free(doc);
		return;
	}
	run->files_checked++;
	src->kind = kind_names[kind];
	report_issues(run, src, doc, kind);
	bool whole = !yamldoc_broken(doc);
	if (kind == KIND_PCLUSTER && whole)
		pcluster_lint(src, doc, &run->diags);
	else if (kind == KIND_JOBSPEC && whole && run->opt->check_jobspec)
		run->opt->check_jobspec(src, doc, &run->diags);
	else if (kind == KIND_UNKNOWN && whole)
		diag_add(&run->diags, src, R_LN1008, 1, 1, 1, 1,
			 "not a ParallelCluster config or job spec (no top-level HeadNode and Scheduling, or trainforge); only input checks ran");
	suppress_apply(src, doc, &run->diags, first, run->opt->enabled);
	apply_selection(run, first);
	yamldoc_free(doc);
}

void lint_text(struct lint_run *run, const char *path, const char *text,
	       size_t len, bool named)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	lint_source(run, keep_source(run, path, copy, len), named);
}

/* ---- reading --------------------------------------------------------- */

/* Reads at most max+1 bytes so that an oversized input is noticed without
 * holding it. */
static char *read_fd(int fd, size_t max, size_t *len, bool *too_big)
{
	size_t cap = 1 << 14, n = 0;
	char *p = xmalloc(cap);
	*too_big = false;
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				*too_big = true;
				break;
			}
			cap *= 2;
			p = xrealloc(p, cap);
		}
		ssize_t got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(p);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			*too_big = true;
			break;
		}
	}
	p = xrealloc(p, n + 1);
	*len = n;
	return p;
}

static void too_large(struct lint_run *run, const char *path, unsigned long long size)
{
	struct source *src = keep_source(run, path, xmalloc(1), 0);
	size_t first = run->diags.len;
	diag_add(&run->diags, src, R_LN1005, 1, 1, 1, 1,
		 "the file is %llu bytes; the limit is %zu bytes", size, run->opt->max_bytes);
	run->files_checked++;
	apply_selection(run, first);
}

static void lint_file(struct lint_run *run, const char *path, bool named);

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lint_dir(struct lint_run *run, const char *path, unsigned depth)
{
	DIR *dir = opendir(path);
	if (!dir) {
		io_error(run, path, strerror(errno));
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue; /* ., .., and hidden trees such as .git */
		names = xgrow(names, &cap, n + 1, sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(dir);
	if (n > 1)
		qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]) + 2;
		char *child = xmalloc(len);
		bool slash = path[strlen(path) - 1] == '/';
		snprintf(child, len, "%s%s%s", path, slash ? "" : "/", names[i]);
		struct stat st;
		if (lstat(child, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < WALK_MAX_DEPTH)
				lint_dir(run, child, depth + 1);
			else if (S_ISREG(st.st_mode) && looks_like_yaml(child))
				lint_file(run, child, false);
		}
		free(child);
		free(names[i]);
	}
	free(names);
}

static void lint_file(struct lint_run *run, const char *path, bool named)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		io_error(run, path, strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		io_error(run, path, strerror(errno));
		close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		lint_dir(run, path, 0);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		io_error(run, path, "not a regular file");
		return;
	}
	if ((unsigned long long)st.st_size > run->opt->max_bytes) {
		close(fd);
		too_large(run, path, (unsigned long long)st.st_size);
		return;
	}
	size_t len;
	bool too_big;
	char *text = read_fd(fd, run->opt->max_bytes, &len, &too_big);
	close(fd);
	if (!text) {
		io_error(run, path, strerror(errno));
		return;
	}
	if (too_big) {
		free(text);
		too_large(run, path, (unsigned long long)len);
		return;
	}
	const char *shown = strncmp(path, "./", 2) == 0 ? path + 2 : path;
	lint_source(run, keep_source(run, shown, text, len), named);
}

void lint_path(struct lint_run *run, const char *path)
{
	if (strcmp(path, "-") != 0) {
		lint_file(run, path, true);
		return;
	}
	size_t len;
	bool too_big;
	const char *name = run->opt->stdin_filename ? run->opt->stdin_filename : "<stdin>";
	char *text = read_fd(0, run->opt->max_bytes, &len, &too_big);
	if (!text) {
		io_error(run, "-", strerror(errno));
		return;
	}
	if (too_big) {
		free(text);
		too_large(run, name, (unsigned long long)len);
		return;
	}
	lint_source(run, keep_source(run, name, text, len), true);
}
