/* shellcheck in batches, each with its time bound, against a stand-in
 * shellcheck whose behaviour a script's text chooses: it reports one
 * finding per file it is given, saying how many it got ("N files"), and
 * a file holding HANG makes it wait on a child of its own, CLOSE makes
 * it close its output and go on, EXIT3 makes it fail. Nothing here
 * depends on how fast a real shellcheck is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "shellcheck.h"
#include "source.h"
#include "trouble.h"
#include "xalloc.h"

/* Generous: a stand-in that does not hang is done in milliseconds. */
#define BOUND 2.0

static char dir[] = "/tmp/tf-test-sc.XXXXXX";
static char fake[64], pidfile[64];

/* Shell builtins only, up to the hang: a batch that does not hang ends
 * at once, even on a busy machine, well within the bound. */
static const char fake_text[] =
	"#!/bin/sh\n"
	"n=0\n"
	"for f; do case $f in /*) n=$((n + 1)) ;; esac; done\n"
	"for f; do\n"
	"\tcase $f in /*) ;; *) continue ;; esac\n"
	"\twhile IFS= read -r line; do\n"
	"\t\tcase $line in\n"
	"\t\t*HANG*) sleep 60 & echo $! >\"%s\"; wait ;;\n"
	"\t\t*CLOSE*) exec >&-; sleep 60 ;;\n"
	"\t\t*EXIT3*) exit 3 ;;\n"
	"\t\tesac\n"
	"\tdone <\"$f\"\n"
	"done\n"
	"printf '{\"comments\":['\n"
	"sep=\n"
	"for f; do\n"
	"\tcase $f in /*) ;; *) continue ;; esac\n"
	"\tprintf '%%s{\"file\":\"%%s\",\"line\":1,\"endLine\":1,\"column\":1,\"endColumn\":2,'"
	" \"$sep\" \"$f\"\n"
	"\tprintf '\"level\":\"warning\",\"code\":2000,\"message\":\"%%s files\"}' \"$n\"\n"
	"\tsep=,\n"
	"done\n"
	"printf ']}\\n'\n";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(fake, sizeof fake, "%s/shellcheck", dir);
	snprintf(pidfile, sizeof pidfile, "%s/pid", dir);
	FILE *f = fopen(fake, "w");
	if (!f)
		return -1;
	fprintf(f, fake_text, pidfile);
	fclose(f);
	return chmod(fake, 0755);
}

static int teardown(void **state)
{
	(void)state;
	unlink(fake);
	unlink(pidfile);
	rmdir(dir);
	return 0;
}

struct run {
	struct source *src[8];
	size_t n;
	struct diag_list diags;
	struct trouble trouble;
	size_t unfinished;
	bool ran;
};

/* Runs the stand-in (or program) on texts, jobs at a time. */
static void run(struct run *r, const char *const *texts, size_t n, unsigned jobs,
		const char *program)
{
	memset(r, 0, sizeof *r);
	for (size_t i = 0; i < n; i++) {
		char path[32];
		snprintf(path, sizeof path, "job%zu.sbatch", i);
		r->src[i] = source_new(path, xstrdup(texts[i]), strlen(texts[i]));
	}
	r->n = n;
	struct shellcheck_setup how = { SHELLCHECK_AUTO, program ? program : fake, BOUND, jobs };
	r->ran = shellcheck_run(r->src, n, &how, &r->diags, &r->trouble, &r->unfinished);
}

static void run_free(struct run *r)
{
	diag_list_free(&r->diags);
	trouble_free(&r->trouble);
	for (size_t i = 0; i < r->n; i++)
		source_free(r->src[i]);
}

/* The one finding of script i: its rule, and its message in msg. */
static enum rule_id finding(const struct run *r, size_t i, const char **msg)
{
	size_t hits = 0;
	enum rule_id rule = RULE__COUNT;
	for (size_t k = 0; k < r->diags.len; k++)
		if (r->diags.v[k].src == r->src[i]) {
			hits++;
			rule = r->diags.v[k].rule;
			*msg = r->diags.v[k].msg;
		}
	assert_int_equal(hits, 1);
	return rule;
}

#define SCRIPT(extra) "#!/bin/bash\n#SBATCH --nodes=1\n" extra "srun hostname\n"

static void one_batch_per_job(void **state)
{
	(void)state;
	const char *four[] = { SCRIPT(""), SCRIPT(""), SCRIPT(""), SCRIPT("") };
	static const struct {
		unsigned jobs;
		size_t n;
		const char *each;
	} cases[] = {
		{ 1, 4, "4 files" }, { 2, 4, "2 files" }, { 4, 4, "1 files" }, { 8, 3, "1 files" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct run r;
		run(&r, four, cases[c].n, cases[c].jobs, NULL);
		assert_true(r.ran);
		assert_int_equal(r.unfinished, 0);
		for (size_t i = 0; i < cases[c].n; i++) {
			const char *msg = NULL;
			assert_int_equal(finding(&r, i, &msg), R_SC0000);
			assert_string_equal(msg, cases[c].each);
		}
		run_free(&r);
	}
}

/* Batches are about equal in bytes: a large script gets a batch of its
 * own while the small ones share the other. */
static void batches_by_bytes(void **state)
{
	(void)state;
	char big[4096];
	memset(big, '#', sizeof big - 2);
	big[0] = '\n';
	big[sizeof big - 2] = '\n';
	big[sizeof big - 1] = '\0';
	char *large = xmalloc(sizeof big + 64);
	snprintf(large, sizeof big + 64, "#!/bin/bash%s", big);
	const char *texts[] = { SCRIPT(""), large, SCRIPT(""), SCRIPT(""), SCRIPT("") };
	struct run r;
	run(&r, texts, 5, 2, NULL);
	for (size_t i = 0; i < 5; i++) {
		const char *msg = NULL;
		finding(&r, i, &msg);
		assert_string_equal(msg, i == 1 ? "1 files" : "4 files");
	}
	run_free(&r);
	free(large);
}

static bool dead(int pid)
{
	char stat_path[64], line[256] = "";
	snprintf(stat_path, sizeof stat_path, "/proc/%d/stat", pid);
	FILE *f = fopen(stat_path, "r");
	if (!f)
		return true;
	bool zombie = fgets(line, sizeof line, f) && strstr(line, ") Z ");
	fclose(f);
	return zombie;
}

/* SIGKILL is delivered at once but a process dies when it next runs,
 * which on a busy machine can be a while: it has a second. */
static bool gone(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;
	if (!f || fscanf(f, "%d", &pid) != 1) {
		if (f)
			fclose(f);
		return false;
	}
	fclose(f);
	for (int i = 0; i < 100; i++) {
		if (dead(pid))
			return true;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return false;
}

/* A batch that hangs is run again a script at a time: the script that
 * hangs gets LN2001, its batch mate and the other batch's scripts their
 * findings, and what each hanging process started is stopped with it. */
static void hang_costs_its_batch(void **state)
{
	(void)state;
	const char *texts[] = { SCRIPT(""), SCRIPT("# HANG\n"), SCRIPT(""), SCRIPT("") };
	struct run a, b;
	unlink(pidfile);
	run(&a, texts, 4, 2, NULL);
	assert_true(a.ran);
	assert_int_equal(a.unfinished, 1);
	assert_int_equal(a.trouble.len, 0);
	size_t stopped = 0, alone = 0;
	for (size_t i = 0; i < 4; i++) {
		const char *msg = NULL;
		if (finding(&a, i, &msg) == R_LN2001) {
			stopped++;
			assert_non_null(strstr(msg, "did not finish on this script"));
		} else if (!strcmp(msg, "1 files")) {
			alone++; /* its batch mate, run again on its own */
		} else {
			assert_string_equal(msg, "2 files");
		}
	}
	assert_int_equal(stopped, 1);
	assert_int_equal(alone, 1);
	const char *msg = NULL;
	assert_int_equal(finding(&a, 1, &msg), R_LN2001);
	assert_true(gone(pidfile));
	/* the same run twice gives the same findings in the same order */
	run(&b, texts, 4, 2, NULL);
	assert_int_equal(a.diags.len, b.diags.len);
	for (size_t k = 0; k < a.diags.len; k++) {
		assert_int_equal(a.diags.v[k].rule, b.diags.v[k].rule);
		assert_string_equal(a.diags.v[k].src->path, b.diags.v[k].src->path);
		assert_string_equal(a.diags.v[k].msg, b.diags.v[k].msg);
	}
	run_free(&a);
	run_free(&b);
}

/* A process that closes its output and goes on is stopped at its bound
 * too: the end of its output is not the end of it. */
static void closed_output_is_not_the_end(void **state)
{
	(void)state;
	const char *texts[] = { SCRIPT("# CLOSE\n") };
	struct run r;
	run(&r, texts, 1, 1, NULL);
	assert_true(r.ran);
	assert_int_equal(r.unfinished, 1);
	const char *msg = NULL;
	assert_int_equal(finding(&r, 0, &msg), R_LN2001);
	assert_non_null(strstr(msg, "did not finish on this script within 2"));
	run_free(&r);
}

static void cannot_run(void **state)
{
	(void)state;
	const char *texts[] = { SCRIPT(""), SCRIPT("# EXIT3\n") };
	struct run r;
	run(&r, texts, 1, 1, "/nonexistent/shellcheck");
	assert_false(r.ran);
	assert_int_equal(r.diags.len, 0);
	assert_int_equal(r.trouble.len, 1);
	assert_non_null(strstr(r.trouble.msgs[0], "shellcheck is not installed"));
	run_free(&r);
	run(&r, texts, 2, 2, NULL);
	assert_false(r.ran);
	assert_int_equal(r.trouble.len, 1);
	assert_non_null(strstr(r.trouble.msgs[0], "shellcheck did not run"));
	run_free(&r);
}

/* More scripts than one command line should carry make more batches
 * than jobs, run a job's worth at a time. */
static void many_scripts_many_batches(void **state)
{
	(void)state;
	size_t n = SHELLCHECK_MAX_FILES + 4;
	struct source **src = xcalloc(n, sizeof *src);
	for (size_t i = 0; i < n; i++)
		src[i] = source_new("job.sbatch", xstrdup(SCRIPT("")), strlen(SCRIPT("")));
	struct diag_list diags = { 0 };
	struct trouble trouble = { 0 };
	size_t unfinished;
	struct shellcheck_setup how = { SHELLCHECK_AUTO, fake, BOUND * 5, 1 };
	assert_true(shellcheck_run(src, n, &how, &diags, &trouble, &unfinished));
	assert_int_equal(unfinished, 0);
	assert_int_equal(diags.len, n);
	char each[32];
	snprintf(each, sizeof each, "%zu files", n / 2);
	for (size_t k = 0; k < diags.len; k++)
		assert_string_equal(diags.v[k].msg, each);
	diag_list_free(&diags);
	trouble_free(&trouble);
	for (size_t i = 0; i < n; i++)
		source_free(src[i]);
	free(src);
}

static void bound_grows_with_bytes(void **state)
{
	(void)state;
	assert_true(shellcheck_bound(10, 0) == 10);
	assert_true(shellcheck_bound(10, 4 * SHELLCHECK_BYTES_PER_SECOND) == 14);
	assert_true(shellcheck_bound(0.5, SHELLCHECK_BYTES_PER_SECOND / 2) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_batch_per_job),
		cmocka_unit_test(batches_by_bytes),
		cmocka_unit_test(hang_costs_its_batch),
		cmocka_unit_test(closed_output_is_not_the_end),
		cmocka_unit_test(cannot_run),
		cmocka_unit_test(many_scripts_many_batches),
		cmocka_unit_test(bound_grows_with_bytes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
