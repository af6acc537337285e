/* One root cause, one finding: diag_collapse drops what an enabled cause
 * of the same file implies, in each scope, and nothing else; the table
 * in rules.def is well formed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "diag.h"
#include "lint.h"
#include "xalloc.h"

static struct source *src_new(const char *path)
{
	const char *text = "line one\nline two\nline three\n";
	char *copy = xstrdup(text);
	return source_new(path, copy, strlen(text));
}

static void add(struct diag_list *l, struct source *s, enum rule_id r, uint32_t line,
		uint32_t col, uint32_t end_col)
{
	diag_add(l, s, r, line, col, line, end_col, "%s", rule_table[r].id);
}

static bool has(const struct diag_list *l, const struct source *s, enum rule_id r, uint32_t line)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->v[i].src == s && l->v[i].rule == r && l->v[i].line == line)
			return true;
	return false;
}

/* The look-alike rows of rules.def: a cause over the same value drops
 * its effect; next to it, on another file or disabled, it does not. */
static void span_scope_from_the_table(void **state)
{
	(void)state;
	struct source *a = src_new("a.yaml"), *b = src_new("b.yaml");
	struct diag_list l = { 0 };
	add(&l, a, R_PC1004, 1, 6, 9);  /* the value */
	add(&l, a, R_PC0005, 1, 6, 9);  /* the same value: dropped */
	add(&l, a, R_PC1002, 1, 8, 12); /* overlaps: dropped */
	add(&l, a, R_PC0005, 1, 9, 12); /* starts where the cause ends: kept */
	add(&l, a, R_PC0005, 2, 1, 4);  /* another line: kept */
	add(&l, b, R_PC0005, 1, 6, 9);  /* another file: kept */
	add(&l, a, R_PC2101, 1, 6, 9);  /* no implication: kept */
	diag_collapse(&l, 0, NULL, NULL);
	assert_int_equal(l.len, 5);
	assert_true(has(&l, a, R_PC1004, 1));
	assert_false(has(&l, a, R_PC1002, 1));
	assert_true(has(&l, a, R_PC0005, 2));
	assert_true(has(&l, b, R_PC0005, 1));
	assert_true(has(&l, a, R_PC2101, 1));
	diag_list_free(&l);

	bool enabled[RULE__COUNT];
	for (int i = 0; i < RULE__COUNT; i++)
		enabled[i] = i != R_PC1004;
	add(&l, a, R_PC1004, 1, 6, 9);
	add(&l, a, R_PC0005, 1, 6, 9);
	diag_collapse(&l, 0, NULL, enabled); /* a cause that is switched off drops nothing */
	assert_int_equal(l.len, 2);
	diag_list_free(&l);
	source_free(a);
	source_free(b);
}

/* Every scope, on a table of its own: a bare launcher in a
 * multi-node script is one defect seen from three places. */
static void line_and_file_scopes(void **state)
{
	(void)state;
	static const struct implication table[] = {
		{ R_SB2002, R_SB2001, IMPLIES_FILE, IMPLIES_SAID },
		{ R_SB2002, R_SB2005, IMPLIES_LINE, IMPLIES_SAID },
	};
	struct source *s = src_new("job.sbatch"), *other = src_new("other.sbatch");
	struct diag_list l = { 0 };
	add(&l, other, R_SB2001, 1, 1, 5); /* before the run's first: untouched */
	size_t first = l.len;
	add(&l, s, R_SB2001, 1, 1, 5);  /* the file has SB2002: dropped */
	add(&l, s, R_SB2002, 3, 1, 9);
	add(&l, s, R_SB2005, 3, 1, 9);  /* the same line: dropped */
	add(&l, s, R_SB2005, 2, 1, 9);  /* another line: kept */
	add(&l, other, R_SB2005, 3, 1, 9); /* another file, no cause there: kept */
	diag_collapse_by(&l, first, s, NULL, table, 2);
	assert_int_equal(l.len, 4);
	assert_true(has(&l, other, R_SB2001, 1));
	assert_false(has(&l, s, R_SB2001, 1));
	assert_true(has(&l, s, R_SB2002, 3));
	assert_false(has(&l, s, R_SB2005, 3));
	assert_true(has(&l, s, R_SB2005, 2));
	assert_true(has(&l, other, R_SB2005, 3));
	diag_list_free(&l);
	source_free(s);
	source_free(other);
}

/* The rows of rules.def on a real lint: a multi-node script whose
 * torchrun runs without srun is one SB2002, whose help carries the facts
 * of the SB2001 and SB2005 it stands for; SB2002 switched off (--ignore)
 * brings them back as findings of their own. */
static size_t lint_script(const char *text, bool cause_on, struct diag_list *out)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.shellcheck = SHELLCHECK_OFF;
	opt.enabled[R_SB2002] = cause_on;
	opt.enabled[R_LN3002] = false; /* that it was paired with no config is not the subject */
	struct lint_run run;
	lint_run_init(&run, &opt);
	lint_text(&run, "job.sbatch", text, strlen(text), true);
	lint_run_finish(&run);
	*out = run.diags;
	run.diags = (struct diag_list){ 0 };
	lint_run_fini(&run);
	return out->len;
}

static const struct diag *find(const struct diag_list *l, enum rule_id r)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->v[i].rule == r)
			return &l->v[i];
	return NULL;
}

static void bare_launcher_is_one_finding(void **state)
{
	(void)state;
	const char *bare = "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=1\n\n"
			   "torchrun --nnodes=4 --nproc_per_node=8 train.py\n";
	struct diag_list l;
	assert_int_equal(lint_script(bare, true, &l), 1);
	const struct diag *d = find(&l, R_SB2002);
	assert_non_null(d);
	assert_int_equal(d->line, 5);
	assert_non_null(d->help);
	assert_non_null(strstr(d->help, "start it with 'srun"));
	assert_non_null(strstr(d->help, "4 nodes are allocated, but nothing starts work on them"));
	assert_non_null(strstr(d->help, "[SB2001]"));
	assert_non_null(strstr(d->help, "[SB2005]"));
	diag_list_free(&l);

	/* the rendezvous given: only the allocation's fact is carried */
	const char *rdzv = "#!/bin/bash\n#SBATCH --nodes=4\n"
			   "torchrun --nnodes=4 --nproc_per_node=8 --rdzv_backend=c10d"
			   " --rdzv_endpoint=head:29500 train.py\n";
	assert_int_equal(lint_script(rdzv, true, &l), 1);
	d = find(&l, R_SB2002);
	assert_non_null(d);
	assert_non_null(strstr(d->help, "[SB2001]"));
	assert_null(strstr(d->help, "[SB2005]"));
	diag_list_free(&l);

	/* the cause switched off: its effects are findings again */
	lint_script(bare, false, &l);
	assert_null(find(&l, R_SB2002));
	assert_non_null(find(&l, R_SB2001));
	assert_non_null(find(&l, R_SB2005));
	diag_list_free(&l);

	/* with srun, SB2005 stands on its own */
	const char *srun = "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=1\n"
			   "srun torchrun --nnodes=4 --nproc_per_node=8 train.py\n";
	lint_script(srun, true, &l);
	assert_null(find(&l, R_SB2002));
	assert_null(find(&l, R_SB2001));
	assert_non_null(find(&l, R_SB2005));
	diag_list_free(&l);
}

/* Many causes and effects in one file: a hang guard for the pairwise
 * scan the sorted causes avoid. */
static void many_findings_stay_fast(void **state)
{
	(void)state;
	struct source *s = src_new("big.yaml");
	struct diag_list l = { 0 };
	for (uint32_t i = 1; i <= 40000; i++) {
		add(&l, s, R_PC1004, i, 5, 9);
		add(&l, s, R_PC0005, i, 5, 9);
		add(&l, s, R_PC0005, i, 20, 24);
	}
	clock_t t0 = clock();
	diag_collapse(&l, 0, NULL, NULL);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(l.len, 80000);
	assert_true(secs < 2.0);
	diag_list_free(&l);
	source_free(s);
}

/* Each row names two rules, no row twice, no rule implies itself, and
 * a cause is never the effect of its own effect. */
static void the_table_is_well_formed(void **state)
{
	(void)state;
	assert_true(n_implications > 0);
	for (size_t i = 0; i < n_implications; i++) {
		const struct implication *a = &implications[i];
		assert_true(a->cause < RULE__COUNT && a->effect < RULE__COUNT);
		assert_int_not_equal(a->cause, a->effect);
		assert_ptr_equal(rule_implies(a->cause, a->effect), a);
		assert_null(rule_implies(a->effect, a->cause));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(span_scope_from_the_table),
		cmocka_unit_test(line_and_file_scopes),
		cmocka_unit_test(bare_launcher_is_one_finding),
		cmocka_unit_test(many_findings_stay_fast),
		cmocka_unit_test(the_table_is_well_formed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
