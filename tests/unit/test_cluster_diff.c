/* Unit tests for the change finder (lint/cluster/cluster_diff.c): what
 * counts as a change, how list items are matched, where each change is
 * placed, and values compared as ParallelCluster compares them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cluster_diff.h"

struct pair {
	yamldoc *od, *nd;
	struct cluster old, new;
	struct cdiff d;
};

static void diff(struct pair *p, const char *old, const char *new)
{
	p->od = yamldoc_parse(old, strlen(old), NULL);
	p->nd = yamldoc_parse(new, strlen(new), NULL);
	assert_false(yamldoc_broken(p->od));
	assert_false(yamldoc_broken(p->nd));
	p->old = cluster_of(NULL, p->od);
	p->new = cluster_of(NULL, p->nd);
	p->d = (struct cdiff){ 0 };
	cluster_diff(&p->old, &p->new, 0, &p->d);
}

static void done(struct pair *p)
{
	cdiff_free(&p->d);
	yamldoc_free(p->od);
	yamldoc_free(p->nd);
}

/* "op path key" lines, one per change, for comparing in one go. */
static void summary(const struct pair *p, char *out, size_t cap)
{
	static const char *const ops[] = { "+", "-", "~" };
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < p->d.len && n < cap; i++) {
		const struct cdiff_change *c = &p->d.v[i];
		n += (size_t)snprintf(out + n, cap - n, "%s%s %s%s%s%s", i ? "\n" : "", ops[c->op],
				      c->path, *c->path ? "." : "", c->key, c->item ? "[]" : "");
	}
}

static void expect(const char *old, const char *new, const char *want)
{
	struct pair p;
	char got[2048];
	diff(&p, old, new);
	summary(&p, got, sizeof got);
	if (strcmp(got, want))
		fail_msg("changes:\n%s\nexpected:\n%s", got, want);
	done(&p);
}

#define QUEUES(body) "Scheduling:\n  Scheduler: slurm\n  SlurmQueues:\n" body

static void test_no_change(void **state)
{
	(void)state;
	expect("HeadNode: {InstanceType: c5.xlarge}\n", "HeadNode:\n  InstanceType: c5.xlarge\n", "");
	/* null and absent are alike; an empty section is an absent one */
	expect("HeadNode: {InstanceType: c5.xlarge, Ssh: null}\n", "HeadNode: {InstanceType: c5.xlarge}\n", "");
	expect("HeadNode: {InstanceType: c5.xlarge, Ssh: {}}\n", "HeadNode: {InstanceType: c5.xlarge}\n", "");
	/* numbers by value */
	expect(QUEUES("    - {Name: q, ComputeResources: [{Name: a, MaxCount: 10}]}\n"),
	       QUEUES("    - {Name: q, ComputeResources: [{Name: a, MaxCount: 10.0}]}\n"), "");
}

static void test_reordered_items_are_unchanged(void **state)
{
	(void)state;
	expect(QUEUES("    - {Name: a, ComputeResources: [{Name: x, InstanceType: c5.large}]}\n"
		      "    - {Name: b, ComputeResources: [{Name: y, InstanceType: c5.large}, {Name: z}]}\n"),
	       QUEUES("    - {Name: b, ComputeResources: [{Name: z}, {Name: y, InstanceType: c5.large}]}\n"
		      "    - {Name: a, ComputeResources: [{Name: x, InstanceType: c5.large}]}\n"),
	       "");
}

static void test_renamed_item_is_removed_and_added(void **state)
{
	(void)state;
	expect(QUEUES("    - {Name: a, ComputeResources: [{Name: x}]}\n"),
	       QUEUES("    - {Name: b, ComputeResources: [{Name: x}]}\n"),
	       "+ Scheduling.SlurmQueues[]\n- Scheduling.SlurmQueues[]");
}

static void test_modified_keys_and_paths(void **state)
{
	(void)state;
	expect("HeadNode: {InstanceType: c5.xlarge}\n" QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MinCount: 1}]}\n"),
	       "HeadNode: {InstanceType: c5.2xlarge}\n" QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MinCount: 2}]}\n"),
	       "~ HeadNode.InstanceType\n~ Scheduling.SlurmQueues[q].ComputeResources[p5].MinCount");
	/* a key added, a key removed */
	expect(QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MinCount: 1}]}\n"),
	       QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MaxCount: 4}]}\n"),
	       "+ Scheduling.SlurmQueues[q].ComputeResources[p5].MaxCount\n"
	       "- Scheduling.SlurmQueues[q].ComputeResources[p5].MinCount");
	/* a string is not a number, a list of values keeps its order */
	expect(QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MaxCount: 4}], Networking: {SubnetIds: [s-1, s-2]}}\n"),
	       QUEUES("    - {Name: q, ComputeResources: [{Name: p5, MaxCount: '4'}], Networking: {SubnetIds: [s-2, s-1]}}\n"),
	       "~ Scheduling.SlurmQueues[q].ComputeResources[p5].MaxCount\n"
	       "~ Scheduling.SlurmQueues[q].Networking.SubnetIds");
}

static void test_sections(void **state)
{
	(void)state;
	/* a section added is one change... */
	expect(QUEUES("    - {Name: q, ComputeResources: [{Name: p5}]}\n"),
	       QUEUES("    - {Name: q, ComputeResources: [{Name: p5, Efa: {Enabled: true, GdrSupport: true}}]}\n"),
	       "+ Scheduling.SlurmQueues[q].ComputeResources[p5].Efa");
	/* ...unless its policy is IGNORED: then each key inside is one */
	expect("Scheduling: {Scheduler: slurm}\n",
	       "Scheduling: {Scheduler: slurm, SlurmSettings: {QueueUpdateStrategy: DRAIN, ScaledownIdletime: 5}}\n",
	       "+ Scheduling.SlurmSettings.QueueUpdateStrategy\n+ Scheduling.SlurmSettings.ScaledownIdletime");
	/* keys the table does not know are changes without a policy */
	struct pair p;
	diff(&p, "HeadNode: {InstanceType: a}\n", "HeadNode: {InstanceType: a, Frobnicate: 1}\n");
	assert_int_equal(p.d.len, 1);
	assert_null(p.d.v[0].entry);
	done(&p);
}

static void test_positions_and_scope(void **state)
{
	(void)state;
	struct pair p;
	diff(&p, QUEUES("    - Name: q\n      ComputeResources:\n        - Name: p5\n          MinCount: 1\n"),
	     QUEUES("    - Name: q\n      ComputeResources:\n        - Name: p5\n          MinCount: 3\n"
		    "        - Name: p4\n"));
	assert_int_equal(p.d.len, 2);
	const struct cdiff_change *min = &p.d.v[0], *added = &p.d.v[1];
	assert_int_equal(yd_span(p.nd, min->at).line, 7);
	assert_int_equal(yd_span(p.nd, min->at).col, 21);
	assert_int_equal(yd_span(p.od, min->old_at).line, 7);
	assert_true(yd_str_eq(p.nd, yd_get(p.nd, cdiff_scope_item(min, "SlurmQueues", 1), "Name"), "q"));
	assert_true(yd_str_eq(p.od, yd_get(p.od, cdiff_scope_item(min, "ComputeResources", 0), "Name"), "p5"));
	assert_true(added->item && added->op == CDIFF_ADDED);
	assert_int_equal(yd_span(p.nd, added->at).line, 8); /* its Name */
	assert_int_equal(cdiff_scope_item(added, "ComputeResources", 1), 0);
	done(&p);
	/* a removed key is placed at its parent in the new file */
	diff(&p, QUEUES("    - Name: q\n      ComputeResources:\n        - Name: p5\n          MinCount: 1\n"),
	     QUEUES("    - Name: q\n      ComputeResources:\n        - Name: p5\n"));
	assert_int_equal(p.d.len, 1);
	assert_int_equal(yd_span(p.nd, p.d.v[0].at).line, 6);
	assert_int_equal(yd_span(p.od, p.d.v[0].old_at).line, 7);
	done(&p);
}

static void test_items_matched_like_python(void **state)
{
	(void)state;
	/* the first old item with an equal key; items without the key are alike */
	expect(QUEUES("    - {Name: q, ComputeResources: [{Name: 1, MaxCount: 2}, {MaxCount: 3}]}\n"),
	       QUEUES("    - {Name: q, ComputeResources: [{Name: 1.0, MaxCount: 2}, {MaxCount: 4}]}\n"),
	       "~ Scheduling.SlurmQueues[q].ComputeResources[None].MaxCount");
	/* a long list is matched in n log n */
	enum { N = 20000 };
	static char old[N * 24 + 64], new[N * 24 + 64];
	size_t a = (size_t)snprintf(old, sizeof old, "SharedStorage:\n");
	size_t b = (size_t)snprintf(new, sizeof new, "SharedStorage:\n");
	for (int i = 0; i < N; i++) {
		a += (size_t)snprintf(old + a, sizeof old - a, "  - {Name: s%d}\n", i);
		b += (size_t)snprintf(new + b, sizeof new - b, "  - {Name: s%d}\n", N - 1 - i);
	}
	struct pair p;
	diff(&p, old, new);
	assert_int_equal(p.d.len, 0);
	done(&p);
}

static void test_values_equal_to_themselves(void **state)
{
	(void)state;
	/* a duplicate key (PC0001's) and a key that is not a scalar */
	const char *y = "a: {x: 1, x: 2, ? [k]: v}\nb: .nan\nc: [1, {d: e}]\n";
	yamldoc *d = yamldoc_parse(y, strlen(y), NULL);
	yd_node root = yd_root(d);
	assert_true(cluster_value_eq(d, yd_get(d, root, "a"), d, yd_get(d, root, "a")));
	assert_true(cluster_value_eq(d, yd_get(d, root, "c"), d, yd_get(d, root, "c")));
	/* .nan is compared by its text: the one value where Python would say
	 * a value differs from itself, and no config has it */
	assert_true(cluster_value_eq(d, yd_get(d, root, "b"), d, yd_get(d, root, "b")));
	assert_false(cluster_value_eq(d, yd_get(d, root, "a"), d, yd_get(d, root, "c")));
	yamldoc_free(d);
}

static void test_value_text(void **state)
{
	(void)state;
	const char *y = "a: [1, 2]\nb: {x: 1, y: 2}\nc: ~\nd: [[1], 2]\n";
	yamldoc *d = yamldoc_parse(y, strlen(y), NULL);
	const char *want[] = { "[1, 2]", "{2 keys}", "null", "[2 items]" };
	const char *keys[] = { "a", "b", "c", "d" };
	for (int i = 0; i < 4; i++) {
		struct buf b = BUF_INIT;
		cluster_value_text(d, yd_get(d, yd_root(d), keys[i]), &b);
		assert_string_equal(b.p, want[i]);
		buf_free(&b);
	}
	yamldoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_reordered_items_are_unchanged),
		cmocka_unit_test(test_renamed_item_is_removed_and_added),
		cmocka_unit_test(test_modified_keys_and_paths),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_positions_and_scope),
		cmocka_unit_test(test_items_matched_like_python),
		cmocka_unit_test(test_values_equal_to_themselves),
		cmocka_unit_test(test_value_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
