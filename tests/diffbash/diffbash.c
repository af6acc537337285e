/* diffbash: the script model against bash -n.
 *
 *   diffbash gen SEED INDEX [--broken PCT]   one generated script, to stdout
 *   diffbash run [OPTIONS]                   the differential run (run.c)
 *   diffbash wild DIR [OPTIONS]              real scripts and their MANIFEST.tsv (wild.c)
 *   diffbash judge [--auto] FILE...          both verdicts of each file
 *   diffbash minimise FILE                   a disagreement shrunk, to stdout
 *
 * Common options: --bash PATH (default bash), --jobs N (default 2). */
#include "diffbash.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dbgen.h"
#include "minimise.h"
#include "xalloc.h"

static const char *const dir_names[] = {
	[DIR_AGREE] = "agree",
	[DIR_MODEL_REJECTS] = "model-rejects",
	[DIR_MODEL_ACCEPTS] = "model-accepts",
	[DIR_AMBIGUOUS] = "ambiguous",
	[DIR_FAILED] = "bash-failed",
};

const char *db_dir_name(enum db_dir d)
{
	return dir_names[d];
}

enum db_dir db_compare(const struct dbb_verdict *b, const struct dbj_verdict *m)
{
	switch (b->kind) {
	case DBB_ACCEPT:
		return m->reject ? DIR_MODEL_REJECTS : DIR_AGREE;
	case DBB_REJECT:
		return m->reject ? DIR_AGREE : DIR_MODEL_ACCEPTS;
	case DBB_AMBIGUOUS:
		return DIR_AMBIGUOUS;
	default:
		return DIR_FAILED;
	}
}

void db_class(enum db_dir d, const struct dbb_verdict *b, const struct dbj_verdict *m,
	      char *out, size_t cap)
{
	snprintf(out, cap, "%s: %s", dir_names[d], d == DIR_MODEL_REJECTS ? m->why : b->why);
}

void db_result(const char *verdict, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("RESULT %s ", verdict);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

double db_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *db_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[16384];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return b.p ? buf_detach(&b) : xstrdup("");
}

bool db_write(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

void db_scratch(struct db_cfg *c, char *out, size_t cap)
{
	snprintf(out, cap, "%s/s%u.sh", c->tmp, c->serial++);
}

enum db_dir db_judge_text(struct db_cfg *c, const char *text, size_t len,
			  struct dbb_verdict *b, struct dbj_verdict *m)
{
	char path[600];
	db_scratch(c, path, sizeof path);
	if (!db_write(path, text, len)) {
		b->kind = DBB_FAILED;
		return DIR_FAILED;
	}
	char *paths[] = { path };
	dbb_judge(c->bash, paths, 1, 1, b);
	dbj_model(path, text, len, false, m);
	unlink(path);
	return db_compare(b, m);
}

bool db_bash_ok(const char *bash, char *why, size_t cap)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", bash);
	FILE *p = popen(cmd, "r");
	char line[256] = "";
	if (!p || !fgets(line, sizeof line, p))
		line[0] = '\0';
	if (p)
		pclose(p);
	line[strcspn(line, "\n")] = '\0';
	if (strstr(line, "GNU bash, version 5.2."))
		return true;
	snprintf(why, cap, "the judge is GNU bash 5.2; %s says \"%s\"", bash, line[0] ? line : "nothing");
	return false;
}

/* ---- minimising ---- */

struct min_ctx {
	struct db_cfg *c;
	char cls[200];
};

/* The model first: it runs in this process, so most candidates are
 * turned down before bash is started. */
static bool same_class(void *ctx, const char *text, size_t len)
{
	struct min_ctx *x = ctx;
	struct dbj_verdict m;
	dbj_model("candidate.sh", text, len, false, &m);
	bool model_rejects = strncmp(x->cls, "model-rejects: ", 15) == 0;
	if (m.reject != model_rejects || (model_rejects && strcmp(m.why, x->cls + 15) != 0))
		return false;
	struct dbb_verdict b;
	enum db_dir d = db_judge_text(x->c, text, len, &b, &m);
	if (d != DIR_MODEL_REJECTS && d != DIR_MODEL_ACCEPTS)
		return false;
	char cls[200];
	db_class(d, &b, &m, cls, sizeof cls);
	return strcmp(cls, x->cls) == 0;
}

unsigned db_minimise(struct db_cfg *c, struct buf *text, unsigned budget)
{
	struct min_ctx x = { c, "" };
	struct dbb_verdict b;
	struct dbj_verdict m;
	enum db_dir d = db_judge_text(c, text->p, text->len, &b, &m);
	if (d != DIR_MODEL_REJECTS && d != DIR_MODEL_ACCEPTS)
		return 0;
	db_class(d, &b, &m, x.cls, sizeof x.cls);
	size_t keep = 0;
	if (text->len > 2 && text->p[0] == '#' && text->p[1] == '!') {
		const char *nl = memchr(text->p, '\n', text->len);
		keep = nl ? (size_t)(nl - text->p) + 1 : 0;
	}
	return dbm_minimise(text, keep, same_class, &x, budget);
}

/* ---- small commands ---- */

static int cmd_gen(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: diffbash gen SEED INDEX [--broken PCT]\n");
		return 2;
	}
	struct dbg_opts o = { 30 };
	for (int i = 2; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--broken"))
			o.broken_pct = (unsigned)atoi(argv[++i]);
	struct dbg_script s = { BUF_INIT, { 0 }, -1 };
	dbg_generate(strtoull(argv[0], NULL, 10), strtoull(argv[1], NULL, 10), &o, &s);
	fwrite(s.text.p, 1, s.text.len, stdout);
	fprintf(stderr, "mutation: %s\nconstructs:", s.mutation >= 0 ? dbg_mutation_name(s.mutation) : "none");
	for (int k = 0; k < DBC__COUNT; k++)
		if (dbg_uses(&s, (enum dbg_construct)k))
			fprintf(stderr, " %s", dbg_construct_name((enum dbg_construct)k));
	fputc('\n', stderr);
	buf_free(&s.text);
	return 0;
}

static int cmd_judge(struct db_cfg *c, int argc, char **argv)
{
	bool kind_auto = argc && !strcmp(argv[0], "--auto");
	int bad = 0;
	for (int i = kind_auto; i < argc; i++) {
		size_t len;
		char *text = db_slurp(argv[i], &len);
		if (!text) {
			fprintf(stderr, "diffbash: cannot read %s\n", argv[i]);
			bad = 2;
			continue;
		}
		char *paths[] = { argv[i] };
		struct dbb_verdict b;
		struct dbj_verdict m;
		dbb_judge(c->bash, paths, 1, 1, &b);
		dbj_model(argv[i], text, len, kind_auto, &m);
		static const char *const bash_names[] = { "accept", "reject", "ambiguous", "failed" };
		printf("%s\tbash %s%s\tmodel %s%s\t%s\t%s | %s\n", argv[i], bash_names[b.kind],
		       b.warned ? "+warning" : "", m.reject ? "reject" : "accept",
		       m.script ? "" : " (not a batch script)", db_dir_name(db_compare(&b, &m)), b.why, m.why);
		free(text);
	}
	return bad;
}

static int cmd_minimise(struct db_cfg *c, int argc, char **argv)
{
	if (argc < 1) {
		fprintf(stderr, "usage: diffbash minimise FILE\n");
		return 2;
	}
	size_t len;
	char *text = db_slurp(argv[0], &len);
	if (!text) {
		fprintf(stderr, "diffbash: cannot read %s\n", argv[0]);
		return 2;
	}
	struct buf b = BUF_INIT;
	buf_put(&b, text, len);
	unsigned calls = db_minimise(c, &b, 4000);
	fwrite(b.p, 1, b.len, stdout);
	fprintf(stderr, "%zu -> %zu bytes in %u runs\n", len, b.len, calls);
	free(text);
	buf_free(&b);
	return calls ? 0 : 1;
}

/* Takes --bash and --jobs out of argv, wherever they are. */
static int common_options(struct db_cfg *c, int argc, char **argv)
{
	int n = 0;
	for (int i = 0; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--bash"))
			c->bash = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--jobs"))
			c->jobs = (unsigned)atoi(argv[++i]);
		else
			argv[n++] = argv[i];
	}
	if (!c->jobs)
		c->jobs = 1;
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: diffbash gen|run|wild|judge|minimise ...\n");
		return 2;
	}
	struct db_cfg c = { "bash", 2, "", 0 };
	argc = common_options(&c, argc - 2, argv + 2);
	const char *cmd = argv[1];
	argv += 2;
	if (!strcmp(cmd, "gen"))
		return cmd_gen(argc, argv);
	const char *tmp = getenv("TMPDIR");
	snprintf(c.tmp, sizeof c.tmp, "%s/diffbash.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(c.tmp))
		dbb_scratch(c.tmp);
	else {
		fprintf(stderr, "diffbash: cannot make a scratch directory\n");
		return 2;
	}
	int rc = 2;
	if (!strcmp(cmd, "run"))
		rc = db_cmd_run(&c, argc, argv);
	else if (!strcmp(cmd, "wild"))
		rc = db_cmd_wild(&c, argc, argv);
	else if (!strcmp(cmd, "judge"))
		rc = cmd_judge(&c, argc, argv);
	else if (!strcmp(cmd, "minimise"))
		rc = cmd_minimise(&c, argc, argv);
	else
		fprintf(stderr, "diffbash: unknown command %s\n", cmd);
	rmdir(c.tmp);
	return rc;
}
