/* diffbash wild DIR: real batch scripts and MANIFEST.tsv, bash -n's
 * verdict on each (accepts, rejects, not-shell). The model must find no
 * syntax problem in a file bash accepts, find one in each file bash
 * rejects, and not take a not-shell file (Python with #SBATCH text) for
 * a batch script. bash itself is checked against the manifest too, so
 * a judge that changed is seen.
 *
 *   --known FILE        the known disagreements (wild: keys), as for run
 *   --write-known FILE  write today's */
#include "diffbash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum want { W_ACCEPTS, W_REJECTS, W_NOT_SHELL };

struct entry {
	char *path; /* relative to DIR */
	enum want want;
};

static const char *const want_names[] = { "accepts", "rejects", "not-shell" };

static struct entry *read_manifest(const char *dir, size_t *n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/MANIFEST.tsv", dir);
	size_t len;
	char *text = db_slurp(path, &len);
	*n = 0;
	if (!text)
		return NULL;
	struct entry *v = NULL;
	size_t cap = 0;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab++ = '\0';
		int w = -1;
		for (int k = 0; k < 3; k++)
			if (!strcmp(tab, want_names[k]))
				w = k;
		if (w < 0)
			continue; /* the header */
		v = xgrow(v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = (struct entry){ xstrdup(line), (enum want)w };
	}
	free(text);
	return v;
}

/* What the model did wrong with a file, or NULL. */
static const char *model_wrong(enum want w, const struct dbj_verdict *m)
{
	if (w == W_NOT_SHELL)
		return m->script ? "taken-as-script" : NULL;
	if (!m->script)
		return "not-taken-as-script";
	if (w == W_ACCEPTS)
		return m->reject ? "model-rejects" : NULL;
	return m->reject ? NULL : "model-accepts";
}

static unsigned check_bash(struct db_cfg *c, const char *dir, struct entry *v, size_t n)
{
	char why[300];
	if (!db_bash_ok(c->bash, why, sizeof why)) {
		db_result("skip", "diffbash/wild/bash: %s; the manifest's verdicts are used as they are", why);
		return 0;
	}
	char **paths = xcalloc(n ? n : 1, sizeof *paths);
	struct dbb_verdict *b = xcalloc(n ? n : 1, sizeof *b);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].want == W_NOT_SHELL)
			continue;
		paths[m] = xmalloc(strlen(dir) + strlen(v[i].path) + 2);
		sprintf(paths[m++], "%s/%s", dir, v[i].path);
	}
	dbb_judge(c->bash, paths, m, c->jobs, b);
	unsigned fails = 0;
	for (size_t i = 0, j = 0; i < n; i++) {
		if (v[i].want == W_NOT_SHELL)
			continue;
		enum dbb_kind want = v[i].want == W_ACCEPTS ? DBB_ACCEPT : DBB_REJECT;
		if (b[j].kind != want) {
			db_result("fail", "diffbash/wild/bash/%s: MANIFEST.tsv says bash -n %s it; bash says %s",
				  v[i].path, want_names[v[i].want], b[j].kind == DBB_REJECT ? b[j].why : "nothing");
			fails++;
		}
		free(paths[j++]);
	}
	if (!fails)
		db_result("pass", "diffbash/wild/bash: bash -n agrees with MANIFEST.tsv on %zu files", m);
	free(paths);
	free(b);
	return fails;
}

/* One file against its manifest verdict and the known list; returns 1
 * when it fails. *wrong: the model is wrong about it. */
static unsigned check_file(const char *dir, const struct entry *x, struct known *k, struct known *now,
			   const char *known_path, bool *wrong_out)
{
	char path[2048], key[2100];
	snprintf(path, sizeof path, "%s/%s", dir, x->path);
	snprintf(key, sizeof key, "wild:%s", x->path);
	size_t len;
	char *text = db_slurp(path, &len);
	struct dbj_verdict m = { false, false, "" };
	bool readable = text != NULL;
	if (readable)
		dbj_model(path, text, len, true, &m);
	free(text);
	const char *wrong = readable ? model_wrong(x->want, &m) : "unreadable";
	const char *sep = m.reject ? ": " : "", *why = m.reject ? m.why : "";
	*wrong_out = wrong != NULL;
	struct known_entry *e = known_find(k, key);
	if (e)
		e->seen = true;
	if (wrong)
		known_add(now, key, wrong, why);
	if (!wrong && !e) {
		db_result("pass", "diffbash/wild/%s (bash -n %s)", x->path, want_names[x->want]);
		return 0;
	}
	if (wrong && e && !strcmp(e->dir, wrong)) {
		db_result("skip", "diffbash/wild/%s: a known disagreement (%s%s%s), listed in %s", x->path,
			  wrong, sep, why, known_path);
		return 0;
	}
	if (wrong)
		db_result("fail", "diffbash/wild/%s: bash -n %s it, but %s%s%s", x->path,
			  want_names[x->want], wrong, sep, why);
	else
		db_result("fail", "diffbash/wild/%s: listed in %s as %s but agrees now: remove the line",
			  x->path, known_path, e->dir);
	return 1;
}

int db_cmd_wild(struct db_cfg *c, int argc, char **argv)
{
	const char *dir = argc > 0 ? argv[0] : NULL, *known_path = NULL, *write_path = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--known"))
			known_path = argv[i + 1];
		else if (!strcmp(argv[i], "--write-known"))
			write_path = argv[i + 1];
	}
	if (!dir) {
		fprintf(stderr, "usage: diffbash wild DIR [--known FILE] [--write-known FILE]\n");
		return 2;
	}
	size_t n;
	struct entry *v = read_manifest(dir, &n);
	if (!v) {
		db_result("skip", "diffbash/wild: %s/MANIFEST.tsv not found (the corpus of real scripts is not here)", dir);
		return 0;
	}
	struct known k = { 0 }, now = { 0 };
	if (known_path && !known_load(&k, known_path)) {
		db_result("fail", "diffbash/wild: cannot read %s", known_path);
		return 1;
	}
	unsigned fails = check_bash(c, dir, v, n), counts[3][2] = { { 0 } };
	for (size_t i = 0; i < n; i++) {
		bool wrong = false;
		fails += check_file(dir, &v[i], &k, &now, known_path, &wrong);
		counts[v[i].want][wrong]++;
		free(v[i].path);
	}
	for (size_t i = 0; i < k.n; i++) {
		if (k.v[i].seen || strncmp(k.v[i].key, "wild:", 5))
			continue;
		db_result("fail", "diffbash/%s: listed in %s but not in MANIFEST.tsv: remove the line",
			  k.v[i].key, known_path);
		fails++;
	}
	printf("diffbash wild: %zu files; model right/wrong: bash accepts %u/%u, bash rejects %u/%u, not shell %u/%u\n",
	       n, counts[0][0], counts[0][1], counts[1][0], counts[1][1], counts[2][0], counts[2][1]);
	if (write_path && !known_write(&now, write_path,
				       "# The real scripts of corpus/wild where the model is wrong today:\n"
				       "# KEY<TAB>DIRECTION<TAB>WHY, as in known.tsv. Rewrite it with make diff-bash-known.\n",
				       "wild"))
		fprintf(stderr, "diffbash: cannot write %s\n", write_path);
	known_free(&k);
	known_free(&now);
	free(v);
	return fails ? 1 : 0;
}
