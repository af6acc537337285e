/* Paths for the config files: absolute for comparing and matching,
 * relative to the working directory for showing, and the globs of
 * exclude and per-file-ignores. */
#include "settings_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "xalloc.h"

enum { GLOB_MAX_SEGS = 128 };

/* ---- paths ----------------------------------------------------------- */

char *settings_join(const char *dir, const char *rel)
{
	if (rel[0] == '/')
		return xstrdup(rel);
	size_t dl = strlen(dir), rl = strlen(rel);
	char *p = xmalloc(dl + rl + 2);
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, rel, rl + 1);
	return p;
}

char *settings_absolute(const char *path)
{
	char *joined;
	if (path[0] == '/') {
		joined = xstrdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);
		joined = settings_join(cwd ? cwd : ".", path);
		free(cwd);
	}
	char *abs = path_lexical(joined);
	free(joined);
	/* the directory through realpath, so that symlinks and the working
	 * directory agree; the file itself is kept as named */
	char *slash = strrchr(abs, '/');
	char *dir = slash == abs ? xstrdup("/") : xstrndup(abs, (size_t)(slash - abs));
	char *real = realpath(dir, NULL);
	free(dir);
	if (real) {
		char *out = strcmp(real, "/") == 0 ? settings_join("", slash + 1) : settings_join(real, slash + 1);
		free(real);
		free(abs);
		return out;
	}
	return abs;
}

char *settings_shown(const char *abs)
{
	char *cwd = getcwd(NULL, 0);
	size_t n = cwd ? strlen(cwd) : 0;
	char *out;
	if (cwd && strncmp(abs, cwd, n) == 0 && abs[n] == '/' && n > 1)
		out = xstrdup(abs + n + 1);
	else
		out = xstrdup(abs);
	free(cwd);
	return out;
}

char *settings_relative(const char *abs)
{
	char *cwd = getcwd(NULL, 0);
	if (!cwd || abs[0] != '/') {
		free(cwd);
		return xstrdup(abs);
	}
	/* the directories both start with, a whole segment at a time */
	size_t common = 0;
	for (size_t i = 0; cwd[i] && cwd[i] == abs[i]; i++)
		if (cwd[i] == '/')
			common = i;
	if (!cwd[common + (cwd[common] == '/')] || (!strncmp(cwd, abs, strlen(cwd)) && abs[strlen(cwd)] == '/'))
		common = strlen(cwd);
	struct buf b = BUF_INIT;
	for (const char *p = cwd + common; *p; p++)
		if (*p == '/')
			buf_puts(&b, "../");
	buf_puts(&b, abs + common + (abs[common] == '/'));
	free(cwd);
	if (common == 0) { /* nothing shared but the root: the absolute path says more */
		buf_free(&b);
		return xstrdup(abs);
	}
	return buf_detach(&b);
}

/* ---- globs ----------------------------------------------------------- */

static size_t split(char *s, char **segs)
{
	size_t n = 0;
	for (char *p = strtok(s, "/"); p && n < GLOB_MAX_SEGS; p = strtok(NULL, "/"))
		segs[n++] = p;
	return n;
}

/* ** matches any number of segments; a pattern that runs out first
 * matches a leading directory, which covers everything under it. */
static bool match_segs(char **p, size_t np, char **s, size_t ns, unsigned *budget)
{
	if (!(*budget)--)
		return false;
	if (np == 0)
		return true;
	if (strcmp(p[0], "**") == 0) {
		for (size_t k = 0; k <= ns; k++)
			if (match_segs(p + 1, np - 1, s + k, ns - k, budget))
				return true;
		return false;
	}
	return ns > 0 && fnmatch(p[0], s[0], 0) == 0 && match_segs(p + 1, np - 1, s + 1, ns - 1, budget);
}

bool settings_glob_match(const char *dir, const char *glob, const char *abs)
{
	size_t dl = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	if (strncmp(abs, dir, dl) != 0 || abs[dl] != '/')
		return false;
	char *pat = xstrdup(glob[0] == '/' ? glob + 1 : glob);
	char *rel = xstrdup(abs + dl + 1);
	bool anchored = strchr(pat, '/') != NULL;
	char *p[GLOB_MAX_SEGS], *s[GLOB_MAX_SEGS];
	size_t np = split(pat, p), ns = split(rel, s);
	unsigned budget = 100000;
	bool hit = false;
	if (anchored || np != 1)
		hit = np > 0 && match_segs(p, np, s, ns, &budget);
	else /* a bare name: the file or any directory above it, at any depth */
		for (size_t i = 0; i < ns && !hit; i++)
			hit = fnmatch(p[0], s[i], 0) == 0;
	free(pat);
	free(rel);
	return hit;
}
