/* .gitignore for directory walks (gitignore.h): the patterns git's
 * gitignore(5) describes, read per directory as the walk enters it. */
#include "gitignore.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"
#include "xalloc.h"

enum {
	IGNORE_MAX_BYTES = 1 << 20, /* a larger .gitignore is left unread */
	MATCH_BUDGET = 10000,       /* steps of one ** match */
	SEGS_MAX = 128,
};

struct gi_rule {
	char *pat;
	bool negate, dir_only, anchored;
	char **segs;     /* an anchored pattern's segments, runs of ** as one */
	size_t n_segs;
	bool *literal;   /* a segment with no wildcard: a path without it cannot match */
};

struct gi_file {
	char *base; /* the directory it is in, relative to the root ("" at the root) */
	struct gi_rule *v;
	size_t n, cap;
};

/* ---- reading ----------------------------------------------------------- */

/* Splits a pattern into segments once, when it is read: matching is
 * asked for every entry of every directory a walk meets. */
static void split_pattern(struct gi_rule *r)
{
	size_t cap = 1;
	for (const char *p = r->pat; *p; p++)
		cap += *p == '/';
	r->segs = xmalloc(cap * sizeof *r->segs);
	r->literal = xmalloc(cap * sizeof *r->literal);
	for (const char *p = r->pat; *p;) {
		size_t n = strcspn(p, "/");
		bool star2 = n == 2 && p[0] == '*' && p[1] == '*';
		bool prev2 = r->n_segs && strcmp(r->segs[r->n_segs - 1], "**") == 0;
		if (n && !(star2 && prev2)) {
			r->segs[r->n_segs] = xstrndup(p, n);
			r->literal[r->n_segs] = !strpbrk(r->segs[r->n_segs], "*?[\\");
			r->n_segs++;
		}
		p += n + (p[n] == '/');
	}
}

static void rule_add(struct gi_file *f, const char *line, size_t len)
{
	while (len && (line[len - 1] == '\r' || (line[len - 1] == ' ' &&
						  !(len > 1 && line[len - 2] == '\\'))))
		len--;
	if (!len || line[0] == '#')
		return;
	struct gi_rule r = { 0 };
	if (line[0] == '!') {
		r.negate = true;
		line++, len--;
	} else if (line[0] == '\\' && len > 1 && (line[1] == '#' || line[1] == '!')) {
		line++, len--;
	}
	if (len && line[len - 1] == '/') {
		r.dir_only = true;
		len--;
	}
	if (len && line[0] == '/') {
		r.anchored = true;
		line++, len--;
	}
	if (!len)
		return;
	r.pat = xstrndup(line, len);
	r.anchored |= strchr(r.pat, '/') != NULL;
	if (r.anchored)
		split_pattern(&r);
	f->v = xgrow(f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = r;
}

void gitignore_add(struct gitignore *g, const char *text, size_t len, const char *base)
{
	struct gi_file *f = xcalloc(1, sizeof *f);
	f->base = xstrdup(base);
	for (size_t at = 0; text && at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		rule_add(f, text + at, end - at);
		at = end + 1;
	}
	g->files = xgrow(g->files, &g->cap, g->n + 1, sizeof *g->files);
	g->files[g->n++] = f;
}

static void file_push(struct gitignore *g, const char *path, const char *base)
{
	size_t len = 0;
	bool too_big = false;
	char *text = file_read(path, IGNORE_MAX_BYTES, &len, &too_big);
	gitignore_add(g, too_big ? NULL : text, too_big ? 0 : len, base);
	free(text);
}

static bool exists(const char *path, bool dir)
{
	struct stat st;
	return stat(path, &st) == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

/* The git directory of a worktree's .git file ("gitdir: PATH"), and the
 * common directory it shares, where info/exclude is. */
static char *common_git_dir(const char *dotgit)
{
	if (exists(dotgit, true))
		return xstrdup(dotgit);
	size_t len;
	bool too_big;
	char *text = file_read(dotgit, 4096, &len, &too_big);
	if (!text || too_big || strncmp(text, "gitdir: ", 8) != 0) {
		free(text);
		return NULL;
	}
	text[strcspn(text, "\r\n")] = '\0';
	char *dir = xstrdup(text + 8);
	free(text);
	struct buf common = BUF_INIT;
	buf_printf(&common, "%s/commondir", dir);
	text = file_read(common.p, 4096, &len, &too_big);
	buf_free(&common);
	if (text && !too_big) {
		text[strcspn(text, "\r\n")] = '\0';
		struct buf b = BUF_INIT;
		if (text[0] == '/')
			buf_puts(&b, text);
		else
			buf_printf(&b, "%s/%s", dir, text);
		free(dir);
		dir = buf_detach(&b);
	}
	free(text);
	return dir;
}

char *gitignore_open(struct gitignore *g, const char *dir)
{
	memset(g, 0, sizeof *g);
	char *real = realpath(dir, NULL);
	if (!real)
		return NULL;
	/* the nearest directory above (or at) dir holding .git */
	size_t end = strlen(real);
	for (;;) {
		struct buf dotgit = BUF_INIT;
		buf_printf(&dotgit, "%.*s/.git", (int)end, real);
		struct stat st;
		bool found = stat(dotgit.p, &st) == 0;
		if (found) {
			g->root = xstrndup(real, end);
			char *gitdir = common_git_dir(dotgit.p);
			if (gitdir) {
				struct buf ex = BUF_INIT;
				buf_printf(&ex, "%s/info/exclude", gitdir);
				file_push(g, ex.p, "");
				buf_free(&ex);
				free(gitdir);
			}
		}
		buf_free(&dotgit);
		if (found)
			break;
		while (end > 0 && real[end - 1] != '/')
			end--;
		if (end <= 1) {
			free(real);
			return NULL;
		}
		end--;
	}
	size_t rl = strlen(g->root);
	char *rel = xstrdup(real[rl] == '/' ? real + rl + 1 : real + rl);
	/* the .gitignore of each level above dir, the root's first; dir's
	 * own is read when the walk enters it */
	struct buf level = BUF_INIT, path = BUF_INIT;
	buf_puts(&level, "");
	for (const char *p = rel; level.len < strlen(rel);) {
		buf_reset(&path);
		buf_printf(&path, "%s%s%s/.gitignore", g->root, level.len ? "/" : "", level.p);
		file_push(g, path.p, level.p);
		size_t n = strcspn(p, "/");
		buf_printf(&level, "%s%.*s", level.len ? "/" : "", (int)n, p);
		p += n + (p[n] == '/');
	}
	buf_free(&level);
	buf_free(&path);
	free(real);
	return rel;
}

void gitignore_enter(struct gitignore *g, const char *dir, const char *rel)
{
	if (!g->root)
		return;
	struct buf path = BUF_INIT;
	buf_printf(&path, "%s/.gitignore", dir);
	file_push(g, path.p, rel);
	buf_free(&path);
}

static void file_free(struct gi_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].pat);
		for (size_t k = 0; k < f->v[i].n_segs; k++)
			free(f->v[i].segs[k]);
		free(f->v[i].segs);
		free(f->v[i].literal);
	}
	free(f->v);
	free(f->base);
	free(f);
}

void gitignore_leave(struct gitignore *g)
{
	if (g->root && g->n)
		file_free(g->files[--g->n]);
}

void gitignore_close(struct gitignore *g)
{
	while (g->n)
		file_free(g->files[--g->n]);
	free(g->files);
	free(g->root);
	memset(g, 0, sizeof *g);
}

/* ---- matching ---------------------------------------------------------- */

/* A path split into its segments, once per question. */
struct path {
	char *buf;
	const char *segs[SEGS_MAX];
	size_t n;
};

static void path_split(struct path *p, const char *rel)
{
	p->buf = xstrdup(rel);
	p->n = 0;
	for (char *s = strtok(p->buf, "/"); s && p->n < SEGS_MAX; s = strtok(NULL, "/"))
		p->segs[p->n++] = s;
}

/* Segments of a pattern against segments of a path; ** spans any number
 * of them. Runs of ** are one, so the recursion is at most as deep as the
 * pattern has ** segments, and a step budget bounds the rest. */
static bool match_segs(char *const *p, size_t np, const char *const *s, size_t ns,
		       unsigned *budget)
{
	while (np && strcmp(p[0], "**") != 0) {
		if (!(*budget)-- || !ns || fnmatch(p[0], s[0], 0) != 0)
			return false;
		p++, np--, s++, ns--;
	}
	if (!np)
		return ns == 0;
	for (size_t k = 0; k <= ns; k++) {
		if (!(*budget)--)
			return false;
		if (match_segs(p + 1, np - 1, s + k, ns - k, budget))
			return true;
	}
	return false;
}

static bool has_segment(const struct path *p, size_t from, const char *seg)
{
	for (size_t i = from; i < p->n; i++)
		if (strcmp(p->segs[i], seg) == 0)
			return true;
	return false;
}

/* sub: the path's segments from index from, relative to the pattern's file. */
static bool rule_matches(const struct gi_rule *r, const struct path *p, size_t from, bool is_dir)
{
	if ((r->dir_only && !is_dir) || from >= p->n)
		return false;
	if (!r->anchored)
		return fnmatch(r->pat, p->segs[p->n - 1], 0) == 0;
	for (size_t i = 0; i < r->n_segs; i++)
		if (r->literal[i] && !has_segment(p, from, r->segs[i]))
			return false; /* the common case for a long list: cheap */
	unsigned budget = MATCH_BUDGET;
	return r->n_segs && match_segs(r->segs, r->n_segs, p->segs + from, p->n - from, &budget);
}

bool gitignore_ignored(const struct gitignore *g, const char *rel, bool is_dir)
{
	struct path p;
	path_split(&p, rel);
	bool ignored = false, decided = false;
	for (size_t i = g->n; i-- > 0 && !decided;) {
		const struct gi_file *f = g->files[i];
		/* the file's level: the path's first segments */
		size_t from = 0;
		bool under = true;
		for (const char *b = f->base; *b && under;) {
			size_t n = strcspn(b, "/");
			under = from < p.n && strlen(p.segs[from]) == n && strncmp(p.segs[from], b, n) == 0;
			from++;
			b += n + (b[n] == '/');
		}
		for (size_t k = f->n; under && k-- > 0;)
			if (rule_matches(&f->v[k], &p, from, is_dir)) {
				ignored = !f->v[k].negate;
				decided = true;
				break;
			}
	}
	free(p.buf);
	return ignored;
}
