/* The ParallelCluster checks that look at a whole list: distinct subnets,
 * mount directories that clash, queue facts, findings on every item of a
 * long list. They sort or look things up once instead of comparing every
 * item with every other, and must report what they reported before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "buf.h"
#include "diag.h"
#include "pc.h"
#include "source.h"
#include "target.h"
#include "tmpl.h"
#include "yamldoc.h"

static const char head[] =
	"Region: us-east-1\nImage:\n  Os: alinux2023\n"
	"HeadNode:\n  InstanceType: c5.xlarge\n  Networking:\n    SubnetId: subnet-0123456789abcdef0\n"
	"Scheduling:\n  Scheduler: slurm\n  SlurmQueues:\n    - Name: q0\n      Networking:\n"
	"        SubnetIds:\n";

struct linted {
	struct source *src;
	struct tmpl tmpl; /* look-alikes read as ASCII, as lint reads a config */
	yamldoc *doc;
	struct diag_list diags;
	double secs;
};

static void lint(struct linted *l, struct buf *text)
{
	size_t len = text->len;
	l->src = source_new("list.yaml", buf_detach(text), len);
	clock_t t0 = clock();
	tmpl_prepare(l->src->text, l->src->len, NULL, TMPL_FOLD, &l->tmpl);
	l->doc = yamldoc_parse_tmpl(&l->tmpl, NULL);
	yamldoc_set_pyyaml(l->doc, true);
	assert_false(yamldoc_broken(l->doc));
	memset(&l->diags, 0, sizeof l->diags);
	struct target t = target_default();
	const struct pc_reading how = { &l->tmpl, NULL };
	const struct pc_settings set = { &t, -1, &how };
	pcluster_lint_with(l->src, l->doc, &set, &l->diags);
	/* every path, as JSON output writes them: thousands of findings in
	 * one list build the path index once, not a search each */
	for (size_t i = 0; i < l->diags.len; i++) {
		struct buf path = BUF_INIT;
		diag_write_path(&l->diags.v[i], &path);
		if (l->diags.v[i].path_doc) {
			free(l->diags.v[i].yaml_path);
			l->diags.v[i].yaml_path = buf_detach(&path);
		}
		buf_free(&path);
	}
	l->secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	diag_list_sort(&l->diags);
}

static void done(struct linted *l)
{
	diag_list_free(&l->diags);
	yamldoc_free(l->doc);
	tmpl_free(&l->tmpl);
	source_free(l->src);
}

/* The findings of rule as "line: message" lines. */
static char *findings(const struct linted *l, enum rule_id rule)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < l->diags.len; i++)
		if (l->diags.v[i].rule == rule)
			buf_printf(&b, "%u: %s\n", l->diags.v[i].line, l->diags.v[i].msg);
	return b.p ? buf_detach(&b) : calloc(1, 1);
}

static size_t count(const struct linted *l, enum rule_id rule)
{
	size_t n = 0;
	for (size_t i = 0; i < l->diags.len; i++)
		n += l->diags.v[i].rule == rule;
	return n;
}

/* Equal directories, nested ones either way round, and near misses that
 * are neither (/a and /ab, /a-b and /a/b sort between them). */
static void mount_directories_that_clash(void **state)
{
	(void)state;
	static const char *const dirs[] = {
		"/a/b", "/ab", "/a", "/a-b", "a", "/a/b/c/", "/x//y", "/x", "/a-b/c", "/q",
	};
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s          - subnet-0fedcba9876543210\n      ComputeResources:\n"
		   "        - {Name: cr, InstanceType: c5.xlarge}\nSharedStorage:\n", head);
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		buf_printf(&b, "  - {Name: s%zu, StorageType: Efs, MountDir: \"%s\"}\n", i, dirs[i]);
	struct linted l;
	lint(&l, &b);
	char *got = findings(&l, R_PC4002);
	assert_string_equal(got,
		"20: MountDir /a and /a/b (line 18) are nested\n"
		"22: MountDir /a and /a/b (line 18) are nested\n"
		"22: MountDir /a is also used at line 20\n"
		"23: MountDir /a/b/c/ and /a (line 20) are nested\n"
		"23: MountDir /a/b/c/ and /a (line 22) are nested\n"
		"23: MountDir /a/b/c/ and /a/b (line 18) are nested\n"
		"25: MountDir /x and /x//y (line 24) are nested\n"
		"26: MountDir /a-b/c and /a-b (line 21) are nested\n");
	free(got);
	done(&l);
}

/* Distinct subnets, counted pairwise in a short list and sorted in a
 * long one, with the same answer. */
static void distinct_subnets(void **state)
{
	(void)state;
	for (int n = 5; n <= 50; n += 45) {
		struct buf b = BUF_INIT;
		buf_puts(&b, head);
		for (int i = 0; i < n; i++)
			buf_printf(&b, "          - subnet-%017x\n", i % 4);
		buf_puts(&b, "      ComputeResources:\n"
			     "        - {Name: cr, InstanceType: p5.48xlarge, Efa: {Enabled: true}}\n");
		struct linted l;
		lint(&l, &b);
		char *got = findings(&l, R_PC2103);
		assert_non_null(strstr(got, "EFA is enabled on a queue with 4 subnets"));
		free(got);
		done(&l);
	}
}

/* A finding on every item of a long list: each has its own path and
 * position, and the run stays linear (a hang guard, not a measurement). */
static void a_finding_on_every_item(void **state)
{
	(void)state;
	enum { ITEMS = 20000 };
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s          - subnet-0fedcba9876543210\n      ComputeResources:\n", head);
	for (int i = 0; i < ITEMS; i++)
		buf_printf(&b, "        - {Name: cr\xe2\x80\x91%d, InstanceType: p5.48xlarge, MaxCount: 2}\n", i);
	struct linted l;
	lint(&l, &b);
	/* CPU seconds: about 0.1, 5 under valgrind, and 23 when every item
	 * was compared with every other */
	assert_true(l.secs < 15);
	assert_int_equal(count(&l, R_PC2002), ITEMS); /* EFA hardware, Efa off */
	assert_int_equal(count(&l, R_PC1004), ITEMS); /* the look-alike hyphen */
	const struct diag *last = &l.diags.v[l.diags.len - 1];
	assert_int_equal(last->line, 16 + ITEMS - 1);
	assert_non_null(strstr(last->yaml_path, "\"ComputeResources\",19999"));
	done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mount_directories_that_clash),
		cmocka_unit_test(distinct_subnets),
		cmocka_unit_test(a_finding_on_every_item),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
