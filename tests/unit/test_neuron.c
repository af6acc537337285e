/* Unit tests for the Neuron SDK facts (core/facts/neuron.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "neuron.h"

static struct neuron_version ver(const char *s)
{
	struct neuron_version v = { -9, -9, -9 };
	assert_true(neuron_version_parse(s, strlen(s), &v));
	return v;
}

static void test_parse(void **state)
{
	struct neuron_version v = { 7, 7, 7 };
	char buf[16];

	(void)state;
	v = ver("2.21.0");
	assert_int_equal(v.major, 2);
	assert_int_equal(v.minor, 21);
	assert_int_equal(v.patch, 0);
	assert_int_equal(ver("2.24").patch, -1);
	assert_string_equal(neuron_version_str(ver("2.24"), buf, sizeof buf), "2.24");
	assert_string_equal(neuron_version_str(ver("2.29.1"), buf, sizeof buf), "2.29.1");
	/* anything but two or three dotted numbers leaves out untouched */
	static const char *const bad[] = {
		"", "2", "2.", ".2", "2..1", "2.21.0.1", "v2.21", "2.21a", "2.21-rc1", "2. 21",
		"9999999.1", "2.-1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = (struct neuron_version){ 7, 7, 7 };
		assert_false(neuron_version_parse(bad[i], strlen(bad[i]), &v));
		assert_int_equal(v.major, 7);
	}
	assert_false(neuron_version_parse(NULL, 0, &v));
	/* len bounds the text */
	assert_true(neuron_version_parse("2.21.0-ubuntu", 6, &v));
	assert_int_equal(v.patch, 0);
}

static void test_compare(void **state)
{
	(void)state;
	assert_true(neuron_version_cmp(ver("2.20.2"), ver("2.21.0")) < 0);
	assert_true(neuron_version_cmp(ver("2.21.1"), ver("2.21.0")) > 0);
	assert_true(neuron_version_cmp(ver("2.3.0"), ver("2.21.0")) < 0); /* numbers, not text */
	assert_int_equal(neuron_version_cmp(ver("2.21"), ver("2.21.0")), 0);
	assert_int_equal(neuron_version_cmp(ver("2.24.1"), ver("2.24")), 0);
	assert_true(neuron_version_cmp(ver("3.0"), ver("2.99.9")) > 0);
}

static void test_min_sdk(void **state)
{
	struct neuron_first_release r;

	(void)state;
	assert_true(neuron_min_sdk(ACCEL_TRAINIUM2, &r));
	assert_int_equal(neuron_version_cmp(r.version, ver("2.21.0")), 0);
	assert_string_equal(r.date, "2024-12-20");
	assert_string_equal(r.accel, "Trainium2");
	assert_true(neuron_min_sdk(ACCEL_TRAINIUM3, &r));
	assert_int_equal(neuron_version_cmp(r.version, ver("2.27.0")), 0);
	assert_string_equal(r.date, "2025-12-19");
	/* no stated minimum: nothing is too old */
	assert_false(neuron_min_sdk(ACCEL_TRAINIUM, &r));
	assert_false(neuron_min_sdk(ACCEL_INFERENTIA2, &r));
	assert_false(neuron_min_sdk(ACCEL_NVIDIA_GPU, &r));
}

static void test_os_windows(void **state)
{
	const char *date = NULL;

	(void)state;
	assert_true(neuron_runs_on_al2(ver("2.19.1")));
	assert_true(neuron_runs_on_al2(ver("2.18")));
	assert_false(neuron_runs_on_al2(ver("2.20.0")));
	assert_false(neuron_runs_on_al2(ver("2.21.0")));
	assert_int_equal(neuron_version_cmp(neuron_u2204_images_end(&date), ver("2.30.0")), 0);
	assert_string_equal(date, "2026-05-21");
	assert_int_equal(neuron_version_cmp(neuron_u2204_images_end(NULL), ver("2.30.0")), 0);
	/* the BF16 variables: 2.24.x still reads them, 2.25 does not */
	assert_int_equal(neuron_version_cmp(ver("2.24.1"), neuron_bf16_vars_last()), 0);
	assert_true(neuron_version_cmp(ver("2.25.0"), neuron_bf16_vars_last()) > 0);
}

static void test_packages(void **state)
{
	struct neuron_version lo = { 7, 7, 7 }, hi = { 7, 7, 7 };
	const char *p;

	(void)state;
	p = "neuronx-cc";
	assert_true(neuron_package_sdk(p, strlen(p), "2.14.227.0", 10, &lo, &hi));
	assert_int_equal(neuron_version_cmp(lo, ver("2.19.1")), 0);
	assert_int_equal(neuron_version_cmp(hi, ver("2.19.1")), 0);
	/* pip's spellings are one name */
	p = "NeuronX_CC";
	assert_true(neuron_package_sdk(p, strlen(p), "2.16.345.0", 10, &lo, &hi));
	assert_int_equal(neuron_version_cmp(lo, ver("2.21.0")), 0);
	p = "neuronx_distributed";
	assert_true(neuron_package_sdk(p, strlen(p), "0.8.0", 5, &lo, &hi));
	assert_int_equal(neuron_version_cmp(lo, ver("2.19.1")), 0);
	p = "neuronx.distributed";
	assert_true(neuron_package_known(p, strlen(p)));
	/* one version in two releases: both ends */
	p = "torch-neuronx";
	assert_true(neuron_package_sdk(p, strlen(p), "2.9.0.2.15.32035", 16, &lo, &hi));
	assert_int_equal(neuron_version_cmp(lo, ver("2.31.0")), 0);
	assert_int_equal(neuron_version_cmp(hi, ver("2.33.0")), 0);
	/* not in the table: no answer, and nothing written (never computed
	 * from the SDK number: neuronx-cc 2.15 is not "SDK 2.20") */
	lo = hi = (struct neuron_version){ 7, 7, 7 };
	p = "neuronx-cc";
	assert_false(neuron_package_sdk(p, strlen(p), "2.15.128.0", 10, &lo, &hi));
	assert_false(neuron_package_sdk(p, strlen(p), "2.14.227", 8, &lo, &hi));
	p = "torch";
	assert_false(neuron_package_sdk(p, strlen(p), "2.1.2", 5, &lo, &hi));
	assert_false(neuron_package_known(p, strlen(p)));
	p = "neuronx-ccc";
	assert_false(neuron_package_known(p, strlen(p)));
	p = "neuronx--cc";
	assert_true(neuron_package_known(p, strlen(p))); /* a run of separators is one */
	assert_false(neuron_package_known("neuronx-cc", 0));
	assert_false(neuron_package_sdk(NULL, 0, "1", 1, &lo, &hi));
	assert_int_equal(lo.major, 7);
	assert_int_equal(hi.major, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_min_sdk),
		cmocka_unit_test(test_os_windows),
		cmocka_unit_test(test_packages),
	};
	return cmocka_run_group_tests_name("neuron", tests, NULL, NULL);
}
