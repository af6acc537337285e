/* Unit tests for the update-policy table (core/facts/update_policy.c):
 * its order (the lookup is a binary search), its shape (every row's
 * parent is a section or list row, a key's rows follow each other from
 * release to release), lookups by path and version, and the table's
 * version of a target. Agreement with ParallelCluster's own schema is
 * tests/update/policy_agree.py's job. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "update_policy.h"

static const struct up_entry *find(const char *path, int version)
{
	return update_policy_find(path, strlen(path), version);
}

static void test_rows_sorted_and_unique(void **state)
{
	(void)state;
	size_t n = update_policy_count();
	assert_true(n > 300);
	for (size_t i = 1; i < n; i++) {
		const struct up_entry *a = update_policy_at(i - 1), *b = update_policy_at(i);
		int c = strcmp(a->path, b->path);
		if (c > 0 || (c == 0 && a->from >= b->from))
			fail_msg("rows out of order: %s, then %s", a->path, b->path);
		if (c == 0 && a->until != b->from)
			fail_msg("%s: a row to %d, the next from %d", a->path, a->until, b->from);
	}
	assert_null(update_policy_at(n));
}

/* A row's parent path names a row that can have children, so that the
 * walk reaches every row. */
static void test_every_parent_is_a_section_or_list(void **state)
{
	(void)state;
	for (size_t i = 0; i < update_policy_count(); i++) {
		const struct up_entry *e = update_policy_at(i);
		const char *dot = strrchr(e->path, '.');
		if (!dot)
			continue;
		size_t len = (size_t)(dot - e->path);
		bool item = len > 2 && e->path[len - 2] == '[' && e->path[len - 1] == ']';
		/* at the row's first version: a key a release added sits in a
		 * section that release has */
		const struct up_entry *p = update_policy_find(e->path, item ? len - 2 : len, e->from);
		if (!p)
			fail_msg("%s has no parent row at %d", e->path, e->from);
		if (p->kind != (item ? UP_LIST : UP_SECTION))
			fail_msg("%s: its parent is not a %s", e->path, item ? "list" : "section");
		if (p->kind == UP_LIST && !p->update_key)
			fail_msg("%s: a list without an update key", p->path);
	}
}

static void test_lookups(void **state)
{
	(void)state;
	const struct up_entry *e = find("HeadNode.InstanceType", 0);
	assert_non_null(e);
	assert_int_equal(e->policy, UP_UNSUPPORTED);
	assert_int_equal(e->kind, UP_PARAM);
	e = find("Scheduling.SlurmQueues[].ComputeResources[].InstanceType", 311);
	assert_non_null(e);
	assert_int_equal(e->policy, UP_COMPUTE_FLEET_STOP);
	e = find("Scheduling.SlurmQueues", 316);
	assert_int_equal(e->kind, UP_LIST);
	assert_string_equal(e->update_key, "Name");
	assert_int_equal(e->policy, UP_RESIZE_UPDATE_STRATEGY_ON_REMOVE);
	e = find("SharedStorage[].FsxLustreSettings", 0);
	assert_int_equal(e->policy, UP_IGNORED);
	assert_int_equal(e->kind, UP_SECTION);
	assert_string_equal(find("Scheduling.SlurmQueues[].ComputeResources[].Instances", 0)->update_key,
			    "InstanceType");
	/* before the table's first version: its earliest row */
	assert_non_null(find("HeadNode.InstanceType", 305));
	assert_null(find("HeadNode.InstanceTyp", 0));
	assert_null(find("HeadNode.InstanceTypes", 0));
	assert_null(find("", 0));
	/* the path is len bytes: a prefix names the section */
	assert_ptr_equal(update_policy_find("HeadNode.InstanceType", 8, 0), find("HeadNode", 0));
}

/* Rows a later release changed (docs/updates.md, "Per release"). */
static void test_releases(void **state)
{
	(void)state;
	assert_int_equal(find("Tags", 311)->policy, UP_UNSUPPORTED);
	assert_int_equal(find("Tags", 314)->policy, UP_UNSUPPORTED);
	assert_int_equal(find("Tags", 315)->policy, UP_SUPPORTED);
	assert_int_equal(find("Tags[].Value", 0)->policy, UP_SUPPORTED);
	assert_string_equal(find("Tags", 316)->update_key, "Key");
	const char *lto = "Scheduling.SlurmQueues[].ComputeResources[].LaunchTemplateOverrides.Version";
	assert_null(find(lto, 314));
	assert_null(find(lto, 305)); /* not even as the oldest row: 3.15 added it */
	assert_int_equal(find(lto, 315)->policy, UP_QUEUE_UPDATE_STRATEGY);
	assert_int_equal(find("DevSettings.EfaInterfaceType", 316)->policy, UP_UNCONFIRMED);
	assert_non_null(find("LoginNodes.Pools[].Ssh.KeyName", 314));
	assert_null(find("LoginNodes.Pools[].Ssh.KeyName", 315));
	assert_null(find("LoginNodes.Pools[].Ssh.KeyName", 0));
}

static void test_policy_names(void **state)
{
	(void)state;
	for (int p = 0; p < UP__COUNT; p++) {
		const struct up_policy_info *i = update_policy_info((enum up_policy)p);
		assert_non_null(i);
		assert_non_null(i->name);
		assert_true(strlen(i->condition) > 5);
	}
	assert_string_equal(update_policy_info(UP_LOGIN_NODES_POOLS)->name, "LOGIN_NODES_POOLS_UPDATE_POLICY");
	assert_string_equal(update_policy_info(UP_SHARED_STORAGE)->name, "SHARED_STORAGE_UPDATE_POLICY");
	assert_null(update_policy_info(UP__COUNT));
}

static void test_versions(void **state)
{
	(void)state;
	struct version v;
	assert_true(version_parse("3.16", 4, &v));
	assert_int_equal(update_policy_version(v), 316);
	assert_true(version_parse("3.12.1", 6, &v));
	assert_int_equal(update_policy_version(v), 312);
	assert_true(version_parse("3.11", 4, &v));
	assert_int_equal(update_policy_version(v), 311);
	struct version unset = { 0 };
	assert_int_equal(update_policy_version(unset), 316);
	assert_int_equal(update_policy_newest(), 316);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_sorted_and_unique),
		cmocka_unit_test(test_releases),
		cmocka_unit_test(test_every_parent_is_a_section_or_list),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
