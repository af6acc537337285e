/* Release numbers, the ParallelCluster release table and the target:
 * parse, compare and print; the table in order with the anchors the
 * sources give; defaults, layering and the --target messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "releases.h"
#include "target.h"
#include "version.h"

static struct version v(const char *s)
{
	struct version out = { 0, 0, 0, false };
	assert_true(version_parse(s, strlen(s), &out));
	return out;
}

static void parse_and_print(void **state)
{
	(void)state;
	struct version x = v("3.16");
	assert_true(x.line);
	assert_string_equal(version_text(x, 1).s, "3.16");
	x = v("3.16.0");
	assert_false(x.line);
	assert_string_equal(version_text(x, 1).s, "3.16.0");
	assert_string_equal(version_release_text(x, 1).s, "3.16");
	assert_string_equal(version_text(v("24.05"), 2).s, "24.05");
	assert_string_equal(version_text(v("25.11.8"), 2).s, "25.11.8");
	assert_string_equal(version_release_text(v("23.11.2"), 2).s, "23.11.2");
	static const char *const bad[] = {
		"", "3", "3.", ".3", "3.16.", "3.16.3.1", "a.b", "3.16a", "1000.1", "3.255",
		"0.0", "-3.1", "3 .16", "3.16 ", "03.1234",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct version out = { 9, 9, 9, false };
		assert_false(version_parse(bad[i], strlen(bad[i]), &out));
		assert_int_equal(out.major, 9); /* untouched on failure */
	}
	assert_false(version_parse(NULL, 0, &x));
	/* only len bytes are read */
	assert_true(version_parse("3.13xyz", 4, &x));
	assert_string_equal(version_text(x, 1).s, "3.13");
}

static void compare(void **state)
{
	(void)state;
	assert_true(version_cmp(v("3.9"), v("3.10")) < 0);
	assert_true(version_cmp(v("24.05.8"), v("24.11.0")) < 0);
	/* a line is above each of its releases, equal to itself */
	assert_true(version_cmp(v("24.05"), v("24.05.8")) > 0);
	assert_true(version_cmp(v("24.05.0"), v("24.05")) < 0);
	assert_int_equal(version_cmp(v("24.05"), v("24.05")), 0);
	assert_true(version_cmp(v("24.05"), v("24.11.0")) < 0);
	assert_true(version_cmp(v("23.11.2"), v("23.11.4")) < 0);
	assert_true(version_same_line(v("3.13"), v("3.13.1")));
	assert_false(version_is_set((struct version){ 0, 0, 0, false }));
	assert_true(version_line_of(v("3.13.1")).line);
}

static void release_table(void **state)
{
	(void)state;
	/* in release order, every release with a Slurm, no duplicates */
	for (size_t i = 1; i < pc_release_count(); i++) {
		const struct pc_release *a = pc_release_at(i - 1), *b = pc_release_at(i);
		assert_true(version_cmp(a->pc, b->pc) < 0);
		assert_false(a->pc.line);
		/* a newer release never ships an older Slurm */
		assert_true(version_cmp(a->slurm, b->slurm) <= 0);
		assert_true(version_is_set(b->slurm));
	}
	assert_null(pc_release_at(pc_release_count()));
	/* the anchors the sources give (docs/versions.md, "pc-releases") */
	static const struct {
		const char *pc, *slurm;
	} anchors[] = {
		{ "3.13.1", "24.05.8" }, { "3.14.0", "24.11.6" }, { "3.15", "25.11.4" },
		{ "3.16.1", "25.11.8" }, { "3.16", "25.11.8" }, { "3.16.0", "25.11.6" },
		{ "3.9.0", "23.11.4" }, { "3.6.0", "23.02.2" }, { "3.3.0", "22.05.5" },
		{ "3.13", "24.05.8" },
	};
	for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
		const struct pc_release *r = pc_release_find(v(anchors[i].pc));
		assert_non_null(r);
		assert_string_equal(SLURM_TEXT(r->slurm), anchors[i].slurm);
	}
	/* left out: no source gives their Slurm */
	static const char *const unknown[] = { "3.2.0", "3.2", "3.10.0", "3.10", "3.13.2", "3.14.1", "3.14.2" };
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
		assert_null(pc_release_find(v(unknown[i])));
	assert_string_equal(PC_TEXT(pc_newest()), "3.16");
	assert_int_equal(pc_version_key(v("3.16.2")), 316);
	assert_int_equal(pc_version_key(v("3.9")), 309);
	assert_true(slurm_line_known(v("22.05")));
	assert_true(slurm_line_known(v("25.11.7")));
	assert_true(slurm_line_known(v("26.05")));
	assert_false(slurm_line_known(v("21.08")));
	assert_false(slurm_line_known(v("25.12")));
}

static void defaults_and_layers(void **state)
{
	(void)state;
	struct target t = target_default();
	assert_string_equal(target_describe(&t).s, "ParallelCluster 3.16 (Slurm 25.11.8)");
	assert_true(t.slurm_of_pc);
	char err[512];
	struct target_request file = { 0 }, flags = { 0 };
	/* a Slurm-only target leaves ParallelCluster at the default */
	assert_true(target_parse_arg("slurm=22.05", &file, err, sizeof err));
	struct target a = target_apply(t, &file);
	assert_string_equal(target_describe(&a).s, "ParallelCluster 3.16 (Slurm 22.05)");
	assert_false(a.slurm_of_pc);
	/* naming ParallelCluster brings its Slurm, over a Slurm below */
	assert_true(target_parse_arg("parallelcluster=3.13", &flags, err, sizeof err));
	struct target b = target_apply(a, &flags);
	assert_string_equal(target_describe(&b).s, "ParallelCluster 3.13 (Slurm 24.05.8)");
	assert_true(b.slurm_of_pc);
	/* both in one layer: both hold */
	assert_true(target_parse_arg("slurm=24.11", &flags, err, sizeof err));
	struct target c = target_apply(t, &flags);
	assert_string_equal(target_describe(&c).s, "ParallelCluster 3.13 (Slurm 24.11)");
	assert_false(target_equal(&b, &c));
	assert_true(target_equal(&c, &c));
	struct target_request none = { 0 };
	struct target d = target_apply(c, &none);
	assert_true(target_equal(&c, &d));
}

static void parse_errors(void **state)
{
	(void)state;
	char err[1024];
	struct target_request req = { 0 };
	assert_false(target_parse_arg("parallelcluster=3.10", &req, err, sizeof err));
	assert_non_null(strstr(err, "3.11 to 3.16"));
	assert_non_null(strstr(err, "3.16.3"));
	assert_false(version_is_set(req.pc));
	assert_false(target_parse_arg("parallelcluster=3.17", &req, err, sizeof err));
	assert_non_null(strstr(err, "unknown ParallelCluster version '3.17'"));
	assert_false(target_parse_arg("parallelcluster=latest", &req, err, sizeof err));
	assert_non_null(strstr(err, "not a ParallelCluster version 'latest'"));
	assert_false(target_parse_arg("parallelcluster=3.14.2", &req, err, sizeof err));
	assert_non_null(strstr(err, "parallelcluster=3.14"));
	assert_false(target_parse_arg("slurm=21.08", &req, err, sizeof err));
	assert_non_null(strstr(err, "22.05, 23.02, 23.11, 24.05, 24.11, 25.05, 25.11, 26.05"));
	assert_false(target_parse_arg("slurm=", &req, err, sizeof err));
	assert_false(target_parse_arg("pcluster=3.13", &req, err, sizeof err));
	assert_non_null(strstr(err, "parallelcluster=VERSION, slurm=VERSION"));
	assert_false(target_parse_arg("3.13", &req, err, sizeof err));
	assert_false(version_is_set(req.pc) || version_is_set(req.slurm));
	assert_true(target_parse_arg("parallelcluster=3.11.1", &req, err, sizeof err));
	assert_true(target_parse_arg("slurm=25.11.7", &req, err, sizeof err));
	/* a short buffer is cut, not overrun */
	char tiny[8];
	assert_false(target_parse_arg("slurm=1.1", &req, tiny, sizeof tiny));
	assert_int_equal(strlen(tiny), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_print),
		cmocka_unit_test(compare),
		cmocka_unit_test(release_table),
		cmocka_unit_test(defaults_and_layers),
		cmocka_unit_test(parse_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
