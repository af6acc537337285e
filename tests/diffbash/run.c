/* diffbash run: generated scripts and the regression files, each judged
 * by bash -n and by the model; per-construct counts, disagreement
 * classes, minimised examples, and (with --known) the check that the
 * disagreements are exactly the listed ones.
 *
 *   --seed S --count N --broken PCT   the generated scripts (1, 3000, 30)
 *   --regressions DIR                 replay the files of DIR/accept and DIR/reject
 *   --known FILE                      fail on a disagreement not listed there and
 *                                     on a listed one that agrees now
 *   --write-known FILE                write this run's disagreements as such a list
 *   --minimise K                      shrink K disagreements of each class (default 2;
 *                                     with --known, K new ones in all)
 *   --keep DIR                        write the shrunk cases there
 *   --coverage                        fail when a construct or mutation was never generated
 *   --selftest                        first judge texts whose verdicts are known */
#include "diffbash.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dbgen.h"
#include "minimise.h"
#include "xalloc.h"

struct run_opts {
	uint64_t seed;
	unsigned long count;
	unsigned broken, minimise, chunk;
	const char *known, *regressions, *keep, *write_known;
	bool coverage, selftest;
};

struct tally {
	unsigned long scripts, accepted, rejected, disagree;
};

struct rec {
	char key[320];
	enum db_dir dir;
	char cls[200];
	bool gen;
	uint64_t index;
	bool unexpected; /* with --known: not listed */
	bool minimised;
};

struct run {
	struct run_opts o;
	struct db_cfg *c;
	struct tally con[DBC__COUNT], mut[DBM__COUNT];
	unsigned long dirs[DIR__COUNT];
	unsigned long unmutated, unmutated_rejected, warned;
	uint64_t first_unmutated_rejected;
	struct rec *recs;
	size_t nrecs, cap;
	double t_gen, t_bash, t_model, t_all;
	unsigned long long bytes;
	unsigned fails;
};

static void record(struct run *r, const char *key, enum db_dir d, const struct dbb_verdict *b,
		   const struct dbj_verdict *m, bool gen, uint64_t index)
{
	r->recs = xgrow(r->recs, &r->cap, r->nrecs + 1, sizeof *r->recs);
	struct rec *x = &r->recs[r->nrecs++];
	memset(x, 0, sizeof *x);
	snprintf(x->key, sizeof x->key, "%s", key);
	x->dir = d;
	db_class(d, b, m, x->cls, sizeof x->cls);
	x->gen = gen;
	x->index = index;
}

static void tally_add(struct tally *t, const struct dbb_verdict *b, enum db_dir d)
{
	t->scripts++;
	t->accepted += b->kind == DBB_ACCEPT;
	t->rejected += b->kind == DBB_REJECT;
	t->disagree += d == DIR_MODEL_REJECTS || d == DIR_MODEL_ACCEPTS;
}

/* ---- generated scripts ---- */

static void count_script(struct run *r, const struct dbg_script *s, uint64_t index,
			 const struct dbb_verdict *b, const struct dbj_verdict *m)
{
	enum db_dir d = db_compare(b, m);
	r->dirs[d]++;
	r->warned += b->warned;
	for (int k = 0; k < DBC__COUNT; k++)
		if (dbg_uses(s, (enum dbg_construct)k))
			tally_add(&r->con[k], b, d);
	if (s->mutation >= 0) {
		tally_add(&r->mut[s->mutation], b, d);
	} else {
		if (b->kind == DBB_REJECT && !r->unmutated_rejected)
			r->first_unmutated_rejected = index;
		r->unmutated++;
		r->unmutated_rejected += b->kind == DBB_REJECT;
	}
	if (d == DIR_MODEL_REJECTS || d == DIR_MODEL_ACCEPTS) {
		char key[40];
		snprintf(key, sizeof key, "gen:%llu", (unsigned long long)index);
		record(r, key, d, b, m, true, index);
	}
}

static void run_generated(struct run *r)
{
	unsigned chunk = r->o.chunk;
	struct dbg_script *s = xcalloc(chunk, sizeof *s);
	char **paths = xcalloc(chunk, sizeof *paths);
	struct dbb_verdict *bv = xcalloc(chunk, sizeof *bv);
	struct dbg_opts go = { r->o.broken };
	for (unsigned i = 0; i < chunk; i++)
		paths[i] = xmalloc(600);
	for (unsigned long base = 0; base < r->o.count; base += chunk) {
		unsigned n = r->o.count - base < chunk ? (unsigned)(r->o.count - base) : chunk;
		double t0 = db_now();
		for (unsigned i = 0; i < n; i++) {
			dbg_generate(r->o.seed, base + i, &go, &s[i]);
			snprintf(paths[i], 600, "%s/g%lu.sh", r->c->tmp, base + i);
			if (!db_write(paths[i], s[i].text.p, s[i].text.len))
				fprintf(stderr, "diffbash: cannot write %s\n", paths[i]);
			r->bytes += s[i].text.len;
		}
		double t1 = db_now();
		dbb_judge(r->c->bash, paths, n, r->c->jobs, bv);
		double t2 = db_now();
		for (unsigned i = 0; i < n; i++) {
			struct dbj_verdict m;
			dbj_model(paths[i], s[i].text.p, s[i].text.len, false, &m);
			count_script(r, &s[i], base + i, &bv[i], &m);
			unlink(paths[i]);
		}
		r->t_gen += t1 - t0;
		r->t_bash += t2 - t1;
		r->t_model += db_now() - t2;
	}
	for (unsigned i = 0; i < chunk; i++) {
		buf_free(&s[i].text);
		free(paths[i]);
	}
	free(s);
	free(paths);
	free(bv);
}

/* ---- regression files ---- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of DIR/sub, sorted; *n of them. */
static char **list_dir(const char *dir, const char *sub, size_t *n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	*n = 0;
	DIR *d = opendir(path);
	if (!d)
		return NULL;
	char **v = NULL;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		v = xgrow(v, &cap, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, name_cmp);
	return v;
}

static void run_regressions(struct run *r)
{
	static const struct {
		const char *sub;
		enum dbb_kind want;
	} folders[] = { { "accept", DBB_ACCEPT }, { "reject", DBB_REJECT } };
	for (size_t f = 0; f < sizeof folders / sizeof folders[0]; f++) {
		size_t n;
		char **names = list_dir(r->o.regressions, folders[f].sub, &n);
		for (size_t i = 0; i < n; i++) {
			char path[1200], key[320];
			snprintf(path, sizeof path, "%s/%s/%s", r->o.regressions, folders[f].sub, names[i]);
			snprintf(key, sizeof key, "reg:%s/%s", folders[f].sub, names[i]);
			size_t len;
			char *text = db_slurp(path, &len);
			struct dbb_verdict b = { DBB_FAILED, false, "" };
			struct dbj_verdict m = { false, false, "" };
			char *paths[] = { path };
			if (text) {
				dbb_judge(r->c->bash, paths, 1, 1, &b);
				dbj_model(path, text, len, false, &m);
			}
			enum db_dir d = db_compare(&b, &m);
			if (b.kind != folders[f].want) {
				db_result("fail", "diffbash/%s: bash -n does not %s it (%s): the file is in the wrong folder",
					  key + 4, folders[f].sub, b.why);
				r->fails++;
			} else if (d == DIR_MODEL_REJECTS || d == DIR_MODEL_ACCEPTS) {
				record(r, key, d, &b, &m, false, 0);
			} else {
				db_result("pass", "diffbash/%s", key + 4);
			}
			free(text);
			free(names[i]);
		}
		free(names);
	}
}

/* ---- the known list ---- */

static void run_name(const struct run *r, char *out, size_t cap)
{
	snprintf(out, cap, "seed=%llu count=%lu broken=%u", (unsigned long long)r->o.seed, r->o.count,
		 r->o.broken);
}

static void check_known(struct run *r, struct known *k)
{
	char name[120];
	run_name(r, name, sizeof name);
	if (!k->run || strcmp(k->run, name) != 0) {
		db_result("fail", "diffbash/known: %s lists the run \"%s\"; this run is \"%s\"", r->o.known,
			  k->run ? k->run : "(none)", name);
		r->fails++;
	}
	unsigned long listed = 0;
	for (size_t i = 0; i < r->nrecs; i++) {
		struct rec *x = &r->recs[i];
		struct known_entry *e = known_find(k, x->key);
		if (e && strcmp(e->dir, db_dir_name(x->dir)) == 0) {
			e->seen = true;
			listed += x->gen;
			if (!x->gen)
				db_result("skip", "diffbash/%s: a known disagreement (%s), listed in %s", x->key + 4,
					  x->cls, r->o.known);
			continue;
		}
		x->unexpected = true;
		db_result("fail", "diffbash/%s: %s, not listed in %s%s", x->key, x->cls, r->o.known,
			  e ? " (listed in the other direction)" : "");
		r->fails++;
		if (e)
			e->seen = true;
	}
	for (size_t i = 0; i < k->n; i++) {
		if (k->v[i].seen || (strncmp(k->v[i].key, "gen:", 4) && strncmp(k->v[i].key, "reg:", 4)))
			continue;
		db_result("fail", "diffbash/%s: listed in %s as %s but agrees now (or is gone): remove the line",
			  k->v[i].key, r->o.known, k->v[i].dir);
		r->fails++;
	}
	if (r->o.count)
		db_result(r->fails ? "fail" : "pass",
			  "diffbash/generated: %lu scripts (seed %llu), %lu agree, %lu ambiguous left out, "
			  "%lu known disagreements listed in %s",
			  r->o.count, (unsigned long long)r->o.seed, r->dirs[DIR_AGREE], r->dirs[DIR_AMBIGUOUS],
			  listed, r->o.known);
}

static void write_known(struct run *r)
{
	struct known k = { 0 };
	for (size_t i = 0; i < r->nrecs; i++) {
		const char *colon = strchr(r->recs[i].cls, ':');
		known_add(&k, r->recs[i].key, db_dir_name(r->recs[i].dir), colon ? colon + 2 : r->recs[i].cls);
	}
	char name[120];
	run_name(r, name, sizeof name);
	static const char header[] =
		"# Disagreements of the script model with bash -n that are known today:\n"
		"# KEY<TAB>DIRECTION<TAB>WHY. gen:N is script N of the run named below\n"
		"# (diffbash gen SEED N prints it), reg:F a file of regressions/.\n"
		"# model-rejects: SB0005 on a script bash accepts; model-accepts: no\n"
		"# SB0005 on a script bash rejects. The suite fails on a disagreement\n"
		"# missing here and on a line here that agrees now, so this list only\n"
		"# shrinks as the parser is fixed. Rewrite it with make diff-bash-known.\n";
	if (!known_write(&k, r->o.write_known, header, name))
		fprintf(stderr, "diffbash: cannot write %s\n", r->o.write_known);
	known_free(&k);
}

/* ---- the report ---- */

static void print_tallies(const char *what, const struct tally *t, int n, const char *(*name)(int))
{
	printf("\n%-24s %8s %8s %8s %8s\n", what, "scripts", "bash-ok", "bash-err", "disagree");
	for (int k = 0; k < n; k++)
		printf("%-24s %8lu %8lu %8lu %8lu\n", name(k), t[k].scripts, t[k].accepted, t[k].rejected,
		       t[k].disagree);
}

static const char *construct_name(int k) { return dbg_construct_name((enum dbg_construct)k); }
static const char *mutation_name(int k) { return dbg_mutation_name((enum dbg_mutation)k); }

struct cls_count {
	const char *cls;
	unsigned long n;
	const char *first;
};

static int cls_cmp(const void *pa, const void *pb)
{
	const struct cls_count *a = pa, *b = pb;
	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->cls, b->cls);
}

static void print_classes(const struct run *r)
{
	struct cls_count *v = xcalloc(r->nrecs ? r->nrecs : 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < r->nrecs; i++) {
		size_t j = 0;
		while (j < n && strcmp(v[j].cls, r->recs[i].cls))
			j++;
		if (j == n)
			v[n++] = (struct cls_count){ r->recs[i].cls, 0, r->recs[i].key };
		v[j].n++;
	}
	qsort(v, n, sizeof *v, cls_cmp);
	printf("\n%zu disagreement classes (direction: message of the judge that rejects):\n", n);
	for (size_t j = 0; j < n; j++)
		printf("%7lu  %s  [first: %s]\n", v[j].n, v[j].cls, v[j].first);
	free(v);
}

static void print_summary(const struct run *r)
{
	unsigned long n = r->o.count;
	printf("diffbash: %lu generated scripts (seed %llu, %u%% broken), %.1f MB\n", n,
	       (unsigned long long)r->o.seed, r->o.broken, (double)r->bytes / 1e6);
	printf("  agree %lu, model rejects what bash accepts %lu, model accepts what bash rejects %lu,\n"
	       "  ambiguous (bash stopped early) %lu, bash failed %lu; bash warned on %lu\n",
	       r->dirs[DIR_AGREE], r->dirs[DIR_MODEL_REJECTS], r->dirs[DIR_MODEL_ACCEPTS],
	       r->dirs[DIR_AMBIGUOUS], r->dirs[DIR_FAILED], r->warned);
	printf("  unmutated scripts %lu, of which bash rejects %lu", r->unmutated, r->unmutated_rejected);
	if (r->unmutated_rejected)
		printf(" (first: gen:%llu)", (unsigned long long)r->first_unmutated_rejected);
	printf("\n  time: %.2f s in all, %.2f s generating, %.2f s in bash -n (%u at a time), "
	       "%.2f s in the model: %.0f scripts/s\n",
	       r->t_all, r->t_gen, r->t_bash, r->c->jobs, r->t_model, r->t_all > 0 ? (double)n / r->t_all : 0);
	if (r->t_model > 0)
		printf("  the model alone: %.0f scripts/s, %.1f MB/s\n", (double)n / r->t_model,
		       (double)r->bytes / 1e6 / r->t_model);
	print_tallies("construct", r->con, DBC__COUNT, construct_name);
	print_tallies("mutation", r->mut, DBM__COUNT, mutation_name);
	print_classes(r);
}

static void coverage(struct run *r)
{
	for (int k = 0; k < DBC__COUNT; k++) {
		bool ok = r->con[k].scripts > 0;
		db_result(ok ? "pass" : "fail", "diffbash/construct/%s: %lu scripts", construct_name(k),
			  r->con[k].scripts);
		r->fails += !ok;
	}
	for (int k = 0; k < DBM__COUNT; k++) {
		bool ok = r->mut[k].scripts > 0;
		db_result(ok ? "pass" : "fail", "diffbash/mutation/%s: %lu scripts", mutation_name(k),
			  r->mut[k].scripts);
		r->fails += !ok;
	}
}

/* ---- minimising ---- */

static bool text_of(const struct run *r, const struct rec *x, struct buf *out)
{
	out->len = 0;
	if (x->gen) {
		struct dbg_script s = { BUF_INIT, { 0 }, -1 };
		struct dbg_opts go = { r->o.broken };
		dbg_generate(r->o.seed, x->index, &go, &s);
		buf_put(out, s.text.p, s.text.len);
		buf_free(&s.text);
		return true;
	}
	char path[1200];
	snprintf(path, sizeof path, "%s/%s", r->o.regressions, x->key + 4);
	size_t len;
	char *t = db_slurp(path, &len);
	if (t)
		buf_put(out, t, len);
	free(t);
	return t != NULL;
}

static void keep_case(const struct run *r, const struct rec *x, const struct buf *t)
{
	if (!r->o.keep)
		return;
	/* mkdir -p */
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/", r->o.keep);
	for (char *p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	char path[1200];
	snprintf(path, sizeof path, "%s/%s-%s.sh", r->o.keep,
		 x->dir == DIR_MODEL_REJECTS ? "accept" : "reject", x->key[0] == 'g' ? x->key + 4 : "reg");
	if (!db_write(path, t->p, t->len))
		fprintf(stderr, "diffbash: cannot write %s\n", path);
}

static void minimise_some(struct run *r)
{
	if (!r->o.minimise)
		return;
	bool only_new = r->o.known != NULL;
	unsigned done_total = 0;
	struct buf t = BUF_INIT;
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct rec *x = &r->recs[i];
		if (only_new && (!x->unexpected || done_total >= r->o.minimise))
			continue;
		unsigned same = 0;
		for (size_t j = 0; j < i; j++)
			same += r->recs[j].minimised && !strcmp(r->recs[j].cls, x->cls);
		if (!only_new && same >= r->o.minimise)
			continue;
		if (!text_of(r, x, &t))
			continue;
		size_t before = t.len;
		unsigned calls = db_minimise(r->c, &t, 3000);
		r->recs[i].minimised = true;
		done_total++;
		printf("\n==== %s (%s): %zu -> %zu bytes in %u runs\n", x->cls, x->key, before, t.len, calls);
		fwrite(t.p, 1, t.len, stdout);
		if (t.len && t.p[t.len - 1] != '\n')
			putchar('\n');
		printf("====\n");
		keep_case(r, x, &t);
	}
	buf_free(&t);
}

/* ---- the judges judged ---- */

static bool timed_and_accepted(void *ctx, const char *text, size_t len)
{
	struct dbb_verdict b;
	struct dbj_verdict m;
	db_judge_text(ctx, text, len, &b, &m);
	return b.kind == DBB_ACCEPT && !m.reject && memmem(text, len, "time", 4);
}

/* Each judge, and the minimiser, on texts whose answer is known: a
 * judge that stopped seeing the [[ ]] quirk or a warning would make
 * every count above wrong. */
static void selftest(struct run *r)
{
	static const struct {
		const char *name, *text;
		enum dbb_kind bash;
		bool warned;
		int model_rejects; /* -1: either */
	} cases[] = {
		{ "accepts", "#!/bin/bash\necho hi\n", DBB_ACCEPT, false, 0 },
		{ "rejects", "#!/bin/bash\nif true; then\n", DBB_REJECT, false, 1 },
		{ "dbracket-quirk", "#!/bin/bash\n[[ a b ]]\nfi\n", DBB_AMBIGUOUS, false, -1 },
		{ "heredoc-warning", "#!/bin/bash\ncat <<EOF\nbody\n", DBB_ACCEPT, true, -1 },
		{ "heredoc-warning-twice", "#!/bin/bash\ncat <<A <<B\nx\nA\n", DBB_ACCEPT, true, -1 },
		{ "unterminated-quote", "#!/bin/bash\nx='\n", DBB_REJECT, false, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct dbb_verdict b;
		struct dbj_verdict m;
		db_judge_text(r->c, cases[i].text, strlen(cases[i].text), &b, &m);
		bool ok = b.kind == cases[i].bash && b.warned == cases[i].warned &&
			  (cases[i].model_rejects < 0 || m.reject == (cases[i].model_rejects == 1));
		db_result(ok ? "pass" : "fail", "diffbash/judge/%s", cases[i].name);
		r->fails += !ok;
	}
	/* The model and bash agree on everything the generator writes, so
	 * the minimiser is checked on a property both judges see: bash
	 * accepts the text and the model reads a time keyword in it. */
	static const char text[] = "#!/bin/bash\necho a\nexport B=1\ntime { :; }\necho c\n";
	struct buf t = BUF_INIT;
	buf_puts(&t, text);
	unsigned calls = dbm_minimise(&t, 12, timed_and_accepted, r->c, 500);
	bool ok = calls && t.len < sizeof text - 1 && !strstr(t.p, "echo") && strstr(t.p, "time");
	db_result(ok ? "pass" : "fail", "diffbash/minimiser: %zu -> %zu bytes in %u runs", sizeof text - 1,
		  t.len, calls);
	r->fails += !ok;
	buf_free(&t);
}

/* ---- the command ---- */

static bool parse(struct run_opts *o, int argc, char **argv)
{
	*o = (struct run_opts){ 1, 3000, 30, 2, 256, NULL, NULL, NULL, NULL, false, false };
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--coverage")) {
			o->coverage = true;
			continue;
		}
		if (!strcmp(a, "--selftest")) {
			o->selftest = true;
			continue;
		}
		if (!v)
			return false;
		i++;
		if (!strcmp(a, "--seed"))
			o->seed = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--count"))
			o->count = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--broken"))
			o->broken = (unsigned)atoi(v);
		else if (!strcmp(a, "--minimise"))
			o->minimise = (unsigned)atoi(v);
		else if (!strcmp(a, "--known"))
			o->known = v;
		else if (!strcmp(a, "--write-known"))
			o->write_known = v;
		else if (!strcmp(a, "--regressions"))
			o->regressions = v;
		else if (!strcmp(a, "--keep"))
			o->keep = v;
		else
			return false;
	}
	return o->broken <= 100;
}

int db_cmd_run(struct db_cfg *c, int argc, char **argv)
{
	struct run r;
	memset(&r, 0, sizeof r);
	r.c = c;
	if (!parse(&r.o, argc, argv)) {
		fprintf(stderr, "usage: diffbash run [--seed S] [--count N] [--broken PCT] [--regressions DIR]\n"
				"       [--known FILE] [--write-known FILE] [--minimise K] [--keep DIR] [--coverage] [--selftest]\n");
		return 2;
	}
	char why[300];
	if (!db_bash_ok(c->bash, why, sizeof why)) {
		db_result("skip", "diffbash: %s", why);
		return 0;
	}
	struct known k = { 0 };
	if (r.o.known && !known_load(&k, r.o.known)) {
		db_result("fail", "diffbash/known: cannot read %s", r.o.known);
		return 1;
	}
	if (r.o.selftest)
		selftest(&r);
	double t0 = db_now();
	run_generated(&r);
	r.t_all = db_now() - t0;
	if (r.o.regressions)
		run_regressions(&r);
	print_summary(&r);
	if (r.dirs[DIR_FAILED]) {
		db_result("fail", "diffbash: bash -n could not be run on %lu scripts", r.dirs[DIR_FAILED]);
		r.fails++;
	}
	if (r.o.known)
		check_known(&r, &k);
	else if (r.nrecs)
		r.fails++;
	if (r.o.coverage)
		coverage(&r);
	minimise_some(&r);
	if (r.o.write_known)
		write_known(&r);
	known_free(&k);
	free(r.recs);
	return r.fails ? 1 : 0;
}
