/* Unit tests for the instance catalog (core/facts/catalog.c over the generated
 * table) and for tools/catalog_gen's rejection of bad catalogs.
 *
 * Run from the repository root; the generator is $CATALOG_GEN, else
 * build/host/catalog_gen (the Makefile's), else build/catalog_gen, and
 * the real catalog $CATALOG_YAML, else schemas/instances.yaml. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp, access, WEXITSTATUS */
#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"

static const struct instance_type *find(const char *name)
{
	return catalog_find(name, strlen(name));
}

/* ------------------------------------------------------- lookups ---- */

struct expect {
	const char *name;
	enum accel_kind accel;
	int count, phys, logical, lnc, vcpus, mem_gib;
	enum tri efa;
	int max_efa;
	enum tri rdma, gdr;
	bool priced;
};

/* The training instances, with the figures the catalog must carry; -1
 * and TRI_UNKNOWN where no source was found. */
static const struct expect research[] = {
	{ "trn1.2xlarge", ACCEL_TRAINIUM, 1, 2, 2, 1, 8, 32, TRI_NO, 0, TRI_NO, TRI_NO, true },
	{ "trn1.32xlarge", ACCEL_TRAINIUM, 16, 32, 32, 1, 128, 512, TRI_YES, 8, TRI_YES, TRI_NO, true },
	{ "trn1n.32xlarge", ACCEL_TRAINIUM, 16, 32, 32, 1, 128, 512, TRI_YES, 16, TRI_YES, TRI_NO, true },
	{ "trn2.48xlarge", ACCEL_TRAINIUM2, 16, 128, 64, 2, 192, 2048, TRI_YES, 16, TRI_YES, TRI_NO, false },
	{ "trn2u.48xlarge", ACCEL_TRAINIUM2, 16, 128, 64, 2, 192, 2048, TRI_YES, -1, TRI_YES, TRI_NO, false },
	{ "inf2.48xlarge", ACCEL_INFERENTIA2, 12, 24, 24, 1, 192, 768, TRI_NO, 0, TRI_NO, TRI_NO, true },
	{ "p4d.24xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 96, 1152, TRI_YES, 4, TRI_YES, TRI_YES, true },
	{ "p4de.24xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 96, 1152, TRI_YES, 4, TRI_YES, TRI_YES, true },
	{ "p5.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 2048, TRI_YES, 32, TRI_YES, TRI_YES, true },
	{ "p5e.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 2048, TRI_YES, 32, TRI_YES, TRI_YES, false },
	{ "p5en.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 2048, TRI_YES, 16, TRI_YES, TRI_YES, true },
	{ "p6-b200.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 2048, TRI_YES, 8, TRI_YES, TRI_YES, true },
	{ "g5.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 768, TRI_YES, 1, TRI_NO, TRI_NO, true },
	{ "g5.12xlarge", ACCEL_NVIDIA_GPU, 4, 0, 0, 0, 48, 192, TRI_YES, 1, TRI_NO, TRI_NO, true },
	{ "g6.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 768, TRI_YES, 1, TRI_UNKNOWN, TRI_NO, true },
	{ "g6e.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 1536, TRI_YES, 4, TRI_UNKNOWN, TRI_NO, true },
	{ "p6-b300.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 4096, TRI_YES, 16, TRI_YES, TRI_YES, true },
	{ "p5.4xlarge", ACCEL_NVIDIA_GPU, 1, 0, 0, 0, 16, 256, TRI_YES, 1, TRI_YES, TRI_YES, true },
	{ "g7e.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 2048, TRI_YES, 4, TRI_UNKNOWN, TRI_UNKNOWN, true },
	{ "g7.48xlarge", ACCEL_NVIDIA_GPU, 8, 0, 0, 0, 192, 768, TRI_YES, 2, TRI_UNKNOWN, TRI_UNKNOWN, true },
};

static void test_research_instances(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof research / sizeof research[0]; i++) {
		const struct expect *e = &research[i];
		const struct instance_type *t = find(e->name);

		print_message("checking %s\n", e->name);
		assert_non_null(t);
		assert_string_equal(t->name, e->name);
		assert_int_equal(t->accel, e->accel);
		assert_int_equal(t->accel_count, e->count);
		assert_int_equal(t->neuron_cores_physical, e->phys);
		assert_int_equal(t->neuron_cores_logical, e->logical);
		assert_int_equal(t->lnc_default, e->lnc);
		assert_int_equal(t->vcpus, e->vcpus);
		assert_int_equal(t->memory_gib, e->mem_gib);
		assert_int_equal(t->memory_mib, e->mem_gib * 1024);
		assert_int_equal(t->efa, e->efa);
		assert_int_equal(t->max_efa_interfaces, e->max_efa);
		assert_int_equal(t->efa_device_rdma, e->rdma);
		assert_int_equal(t->gpudirect_rdma, e->gdr);
		assert_int_equal(t->price_on_demand >= 0, e->priced);
		assert_non_null(t->accel_model);
		assert_non_null(t->source);
	}
}

static void test_specific_figures(void **state)
{
	const struct instance_type *t;

	(void)state;
	t = find("p5.48xlarge");
	assert_string_equal(t->accel_model, "H100");
	assert_string_equal(t->arch, "x86_64");
	assert_true(fabs(t->price_on_demand - 55.04) < 1e-9);
	assert_string_equal(t->price_region, "us-east-1");
	assert_string_equal(t->price_date, "2026-07-20");
	/* NVIDIA memory is deliberately unknown (marketing GB, not GiB). */
	assert_int_equal(t->accel_memory_gib, -1);
	assert_int_equal(t->gpu_memory_mib, 81920);
	assert_int_equal(t->gpu_memory_gib, 80);
	/* GPU memory is the EC2 API's MiB, exact where it is not whole GiB. */
	t = find("p6-b200.48xlarge");
	assert_int_equal(t->gpu_memory_mib, 183359);
	assert_int_equal(t->gpu_memory_gib, 179);
	assert_int_equal(find("g5.48xlarge")->gpu_memory_mib, 22888);
	assert_int_equal(find("p5en.48xlarge")->gpu_memory_mib, 144384);
	assert_int_equal(find("trn2.48xlarge")->gpu_memory_mib, 0);

	t = find("trn2.48xlarge");
	assert_int_equal(t->accel_memory_gib, 1536);
	/* The third-party "on-demand" 35.76 was the Capacity Block rate. */
	assert_true(t->price_on_demand < 0);
	assert_null(t->price_region);
	t = find("trn2u.48xlarge");
	assert_null(t->arch);
	assert_null(t->price_source);
	assert_null(t->price_date);

	t = find("p6-b300.48xlarge");
	assert_int_equal(t->gpu_memory_mib, 275040);
	assert_int_equal(t->efa_gbps, 6400);
	assert_true(fabs(t->price_on_demand - 142.416) < 1e-9);
	/* no AWS or NVIDIA source for the B300's BF16 peak: unknown */
	assert_true(t->accel_peak_bf16_tflops < 0);
	assert_null(t->peak_source);
	assert_int_equal(find("g7.48xlarge")->efa_gbps, 700);
	assert_string_equal(find("g7e.48xlarge")->accel_model, "RTX PRO 6000 Server");
	/* one Trainium2 chip; host figures and EFA unknown */
	t = find("trn2.3xlarge");
	assert_int_equal(t->accel_count, 1);
	assert_int_equal(catalog_procs_per_node(t, 0), 4);
	assert_int_equal(catalog_procs_per_node(t, 1), 8);
	assert_int_equal(t->vcpus, -1);
	assert_int_equal(t->efa, TRI_UNKNOWN);
	assert_true(t->price_on_demand < 0);
	assert_non_null(catalog_capacity_block(t, "sa-east-1", NULL));

	t = find("c6gn.16xlarge");
	assert_string_equal(t->arch, "arm64");
	assert_int_equal(t->efa, TRI_YES);
	assert_int_equal(t->efa_device_rdma, TRI_UNKNOWN);

	t = find("t3.nano"); /* fractional GiB stays exact in MiB */
	assert_int_equal(t->memory_mib, 512);
	assert_int_equal(t->memory_gib, 0);
	t = find("c5n.xlarge");
	assert_int_equal(t->memory_mib, 10752);
	assert_int_equal(t->memory_gib, 10);
}

static void test_head_nodes(void **state)
{
	static const char *const names[] = {
		"c5.xlarge", "c5.2xlarge", "c5.large", "m5.xlarge", "m5.2xlarge",
		"c6i.xlarge", "m6i.xlarge", "m7i.xlarge", "c7i.xlarge", "t3.micro",
		"t3.medium", "t3.large", "c5n.18xlarge", "g4dn.xlarge",
		"c6in.32xlarge", "c6gn.16xlarge",
	};

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct instance_type *t = find(names[i]);
		print_message("checking %s\n", names[i]);
		assert_non_null(t);
		assert_true(t->vcpus > 0);
		assert_true(t->memory_mib > 0);
		assert_non_null(t->arch);
		assert_true(t->efa != TRI_UNKNOWN);
		assert_true(t->price_on_demand > 0);
	}
	assert_int_equal(find("c5.xlarge")->vcpus, 4);
	assert_int_equal(find("c5.xlarge")->memory_gib, 8);
	assert_int_equal(find("c5.xlarge")->accel, ACCEL_NONE);
	assert_int_equal(find("c5.xlarge")->accel_count, 0);
	assert_int_equal(find("c5n.18xlarge")->efa, TRI_YES);
	assert_int_equal(find("g4dn.xlarge")->accel, ACCEL_NVIDIA_GPU);
	assert_int_equal(find("g4dn.xlarge")->efa, TRI_NO);
}

static void test_unknown_lookups(void **state)
{
	(void)state;
	assert_null(find("trn3p.48xlarge"));
	assert_null(find("p5.48xlarg"));
	assert_null(find("p5.48xlarge "));
	assert_null(find("P5.48XLARGE"));
	assert_null(find(""));
	assert_null(find("zzzz.99xlarge"));
	assert_null(find("a"));
	assert_null(catalog_find(NULL, 0));
	/* len bounds the name: no NUL needed, trailing bytes ignored. */
	assert_non_null(catalog_find("p5.48xlarge,more", 11));
	assert_null(catalog_find("p5.48xlarge", 10));
}

static void test_table_order(void **state)
{
	size_t n = catalog_count();

	(void)state;
	assert_true(n >= 40);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(catalog_at(i - 1)->name, catalog_at(i)->name) < 0);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(find(catalog_at(i)->name), catalog_at(i));
	assert_null(catalog_at(n));
	/* before the first name, after the last, and between two of a block */
	assert_null(find("a0.large"));
	assert_null(find("zz9.large"));
	assert_null(find("c6i.2xlargf"));
}

/* Derived facts hold for every entry, whatever the YAML says. */
static void test_derived_facts(void **state)
{
	(void)state;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);

		print_message("checking %s\n", t->name);
		assert_true(catalog_name_plausible(t->name, strlen(t->name)));
		if (t->efa == TRI_NO) {
			assert_int_equal(t->max_efa_interfaces, 0);
			assert_int_equal(t->efa_device_rdma, TRI_NO);
		}
		if (t->efa != TRI_YES)
			assert_int_not_equal(t->gpudirect_rdma, TRI_YES);
		if (t->accel != ACCEL_NVIDIA_GPU)
			assert_int_equal(t->gpudirect_rdma, TRI_NO);
		if (t->accel == ACCEL_NONE) {
			assert_int_equal(t->accel_count, 0);
			assert_null(t->accel_model);
		}
		if (catalog_is_neuron(t) && t->lnc_default > 0)
			assert_int_equal(t->neuron_cores_logical * t->lnc_default,
					 t->neuron_cores_physical);
		if (catalog_is_neuron(t) && t->lnc_default < 0)
			assert_int_equal(t->neuron_cores_logical, -1);
		/* a provisional entry says why; a confirmed one marks nothing */
		if (t->provisional != NULL)
			assert_true(strlen(t->provisional) > 20);
		assert_int_equal(t->derived != 0, t->derived_note != NULL);
		if (!catalog_is_neuron(t))
			assert_int_equal(t->neuron_cores_physical, 0);
		if (t->memory_mib >= 0)
			assert_int_equal(t->memory_gib, t->memory_mib / 1024);
	}
}

static void test_prices_sourced(void **state)
{
	(void)state;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);

		print_message("checking %s\n", t->name);
		assert_non_null(t->source);
		assert_true(strlen(t->source) > 0);
		if (t->price_on_demand < 0) {
			assert_null(t->price_source);
			assert_null(t->price_date);
			assert_null(t->price_region);
			continue;
		}
		assert_true(t->price_on_demand > 0);
		assert_non_null(t->price_source);
		assert_true(strstr(t->price_source, "https://") != NULL);
		assert_non_null(t->price_date);
		assert_int_equal(strlen(t->price_date), 10);
		assert_true(t->price_date[4] == '-' && t->price_date[7] == '-');
		assert_non_null(t->price_region);
	}
}

/* ---------------------------------------------------------- names ---- */

static enum catalog_name check(const char *s, char *buf, size_t cap)
{
	return catalog_check_name(s, strlen(s), buf, cap);
}

static void test_check_name_valid(void **state)
{
	char buf[64] = "junk";

	(void)state;
	assert_int_equal(check("p5.48xlarge", buf, sizeof buf), CATALOG_KNOWN);
	assert_string_equal(buf, "");
	assert_int_equal(check("trn2.48xlarge", buf, sizeof buf), CATALOG_KNOWN);
	assert_int_equal(check("p6-b200.48xlarge", buf, sizeof buf), CATALOG_KNOWN);
	assert_int_equal(check("trn2u.48xlarge", buf, sizeof buf), CATALOG_KNOWN);
}

static void test_check_name_plausible(void **state)
{
	static const char *const plausible[] = {
		"trn3p.48xlarge", "u-99tb1.112xlarge", "c9gd.metal", "m7i.metal-96xl",
		"c9i-flex.large", "mac9-m9pro.metal", "t9g.nano", "x2iedn.64xlarge",
		"c0.xlarge", "p6e-gb300.36xlarge", "g6f.medium", "r8g.micro",
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof plausible / sizeof plausible[0]; i++) {
		print_message("checking %s\n", plausible[i]);
		assert_int_equal(check(plausible[i], buf, sizeof buf),
				 CATALOG_UNKNOWN_PLAUSIBLE);
	}
	/* A name EC2 could have is never corrected to another type: the
	 * catalog has every type, so it is most likely a newer one. */
	strcpy(buf, "junk");
	assert_int_equal(check("p5.84xlarge", buf, sizeof buf), CATALOG_UNKNOWN_PLAUSIBLE);
	assert_string_equal(buf, "");
	assert_int_equal(check("c6i.large", buf, sizeof buf), CATALOG_KNOWN);
	/* a name that cannot be EC2's still gets the nearest type */
	assert_int_equal(check("c6i.larg", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "c6i.large");
	/* what the family has, instead */
	assert_true(catalog_family_sizes("p5.84xlarge", 11, buf, sizeof buf));
	assert_string_equal(buf, "48xlarge, 4xlarge");
	assert_false(catalog_family_sizes("zz9.large", 9, buf, sizeof buf));
	assert_string_equal(buf, "");
	assert_true(catalog_family_sizes("c6i.x", 5, buf, 12)); /* cut at a whole size */
	assert_string_equal(buf, "12xlarge");
}

static void test_check_name_invalid(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(check("trn3-48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "trn3.48xlarge");
	assert_int_equal(check("trn2-48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "trn2.48xlarge");
	/* U+2011 NON-BREAKING HYPHEN where the dot belongs */
	assert_int_equal(check("trn2\u2011" "48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "trn2.48xlarge");
	assert_int_equal(check("P5.48XLARGE", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "p5.48xlarge");
	assert_int_equal(check("p5.48xlarge ", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "p5.48xlarge");
	/* Look-alike inside a family name that is in the catalog. */
	assert_int_equal(check("p6\u2010" "b200.48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "p6-b200.48xlarge");
	/* Cyrillic er, fullwidth full stop, no-break space */
	assert_int_equal(check("\u0440" "5.48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "p5.48xlarge");
	assert_int_equal(check("c5\uff0e" "xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "c5.xlarge");
	assert_int_equal(check("t3.micro\u00a0", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "t3.micro");
	/* Repaired but unknown: the repair is still the suggestion. */
	assert_int_equal(check("TRN3.48XLARGE", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "trn3.48xlarge");
	assert_int_equal(check("c5xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "c5.xlarge");
	/* Nothing close: no suggestion. */
	assert_int_equal(check("hello world", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "");
	assert_int_equal(check("", buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "");
	assert_int_equal(check("p5.", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check(".48xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check("p5.048xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check("p5--x.large", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check("5p.large", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check("cx.large", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(check("c5.large.xlarge", buf, sizeof buf), CATALOG_INVALID);
	assert_int_equal(catalog_check_name(NULL, 0, buf, sizeof buf), CATALOG_INVALID);
	assert_string_equal(buf, "");
}

static void test_check_name_buffers(void **state)
{
	char small[6] = "xxxxx";
	char big[600];
	char name[] = "p5.48xlarge";

	(void)state;
	/* A suggestion that does not fit is dropped, never cut. */
	assert_int_equal(check("P5.48XLARGE", small, sizeof small), CATALOG_INVALID);
	assert_string_equal(small, "");
	assert_int_equal(check("P5.48XLARGE", NULL, 0), CATALOG_INVALID);
	/* Exactly fitting: 11 bytes + NUL. */
	assert_int_equal(check("P5.48XLARGE", big, 12), CATALOG_INVALID);
	assert_string_equal(big, "p5.48xlarge");
	assert_int_equal(check("P5.48XLARGE", big, 11), CATALOG_INVALID);
	assert_string_equal(big, "");
	/* Hostile input: long, invalid UTF-8, embedded NUL. */
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(check(big, big, sizeof big), CATALOG_INVALID);
	assert_int_equal(catalog_check_name("\xff\xfe\xc3", 3, big, sizeof big), CATALOG_INVALID);
	assert_int_equal(catalog_check_name("\xe2\x80", 2, big, sizeof big), CATALOG_INVALID);
	name[2] = '\0';
	assert_int_equal(catalog_check_name(name, 11, big, sizeof big), CATALOG_INVALID);
}

static void test_family_len(void **state)
{
	(void)state;
	assert_int_equal(catalog_family_len("p6-b200.48xlarge", 16), 7);
	assert_int_equal(catalog_family_len("trn2u.48xlarge", 14), 5);
	assert_int_equal(catalog_family_len("trn3-48xlarge", 13), 0);
	assert_int_equal(catalog_family_len(NULL, 0), 0);
}

/* --------------------------------------------- processes and cost ---- */

static void test_procs_per_node(void **state)
{
	const struct instance_type *trn2 = find("trn2.48xlarge");
	const struct instance_type *trn1 = find("trn1.32xlarge");
	const struct instance_type *p5 = find("p5.48xlarge");

	(void)state;
	assert_int_equal(catalog_procs_per_node(trn2, 2), 64);
	assert_int_equal(catalog_procs_per_node(trn2, 1), 128);
	assert_int_equal(catalog_procs_per_node(trn2, 0), 64);
	assert_int_equal(catalog_procs_per_node(trn1, 0), 32);
	assert_int_equal(catalog_procs_per_node(trn1, 1), 32);
	assert_int_equal(catalog_procs_per_node(p5, 0), 8);
	assert_int_equal(catalog_procs_per_node(find("trn1.2xlarge"), 0), 2);
	assert_int_equal(catalog_procs_per_node(find("inf2.48xlarge"), 0), 24);
	assert_int_equal(catalog_procs_per_node(find("g5.12xlarge"), 0), 4);
	assert_int_equal(catalog_procs_per_node(find("c5.xlarge"), 0), 0);
	/* LNC 2 exists only on Trainium2; other values never. */
	assert_int_equal(catalog_procs_per_node(trn1, 2), -1);
	assert_int_equal(catalog_procs_per_node(p5, 1), -1);
	assert_int_equal(catalog_procs_per_node(p5, 2), -1);
	assert_int_equal(catalog_procs_per_node(trn2, 3), -1);
	assert_int_equal(catalog_procs_per_node(trn2, -1), -1);
	assert_int_equal(catalog_procs_per_node(NULL, 0), -1);
	assert_true(catalog_lnc_valid(trn2, 2));
	assert_true(catalog_lnc_valid(trn1, 1));
	assert_false(catalog_lnc_valid(trn1, 2));
	assert_true(catalog_lnc_valid(p5, 0));
	assert_false(catalog_lnc_valid(NULL, 0));
	assert_true(catalog_is_neuron(trn1));
	assert_false(catalog_is_neuron(p5));
}

static void test_cost(void **state)
{
	const struct instance_type *p5 = find("p5.48xlarge");

	(void)state;
	assert_true(fabs(catalog_cost(p5, 2, 10.0) - 1100.8) < 1e-6);
	assert_true(catalog_cost(p5, 0, 10.0) == 0.0);
	assert_true(catalog_cost(p5, -1, 10.0) < 0);
	assert_true(catalog_cost(p5, 1, -1.0) < 0);
	assert_true(catalog_cost(p5, 1, NAN) < 0);
	assert_true(catalog_cost(find("p5e.48xlarge"), 1, 1.0) < 0);
	assert_true(catalog_cost(NULL, 1, 1.0) < 0);
}

/* Trainium3: the chip is documented, the instance type is not yet. */
static void test_provisional_trn3(void **state)
{
	const struct instance_type *t = find("trn3.48xlarge");

	(void)state;
	assert_non_null(t);
	assert_int_equal(t->accel, ACCEL_TRAINIUM3);
	assert_true(catalog_is_neuron(t) && catalog_has_lnc(t));
	assert_non_null(t->provisional);
	assert_non_null(strstr(t->provisional, "the Neuron driver's"));
	assert_int_equal(t->accel_count, 16);
	assert_int_equal(t->neuron_cores_physical, 128);
	assert_true(fabs(t->accel_peak_bf16_tflops - 671) < 1e-9);
	/* no source states Trn3's default LNC: lnc 0 cannot be resolved */
	assert_int_equal(t->lnc_default, -1);
	assert_int_equal(catalog_procs_per_node(t, 0), -1);
	assert_int_equal(catalog_procs_per_node(t, 1), 128);
	assert_int_equal(catalog_procs_per_node(t, 2), 64);
	assert_false(catalog_lnc_valid(t, 3));
	/* the per-server figures are DERIVED from the UltraServer's totals */
	assert_int_equal(t->vcpus, 192);
	assert_int_equal(t->memory_mib, 2097152);
	assert_int_equal(t->efa_gbps, 3200);
	assert_int_equal(t->accel_memory_gib, 2304);
	assert_true(catalog_fig_derived(t, CATALOG_FIG_VCPUS));
	assert_true(catalog_fig_derived(t, CATALOG_FIG_MEM));
	assert_true(catalog_fig_derived(t, CATALOG_FIG_EFA_GBPS));
	assert_true(catalog_fig_derived(t, CATALOG_FIG_ACCEL_MEM));
	assert_false(catalog_fig_derived(t, CATALOG_FIG_ACCEL_COUNT));
	assert_false(catalog_fig_derived(t, CATALOG_FIG_PEAK));
	assert_non_null(strstr(t->derived_note, "vcpus, memory_mib, efa_gbps: the Gen1 UltraServer"));
	assert_non_null(strstr(t->derived_note, "; accel_memory_gib: 16 chips x 144 GiB"));
	assert_true(t->price_on_demand < 0);
	/* Trn2 is confirmed and derives nothing */
	assert_null(find("trn2.48xlarge")->provisional);
	assert_int_equal(find("trn2.48xlarge")->derived, 0);
	assert_false(catalog_fig_derived(NULL, CATALOG_FIG_VCPUS));
	assert_string_equal(catalog_fig_name(CATALOG_FIG_EFA_GBPS), "efa_gbps");
	assert_string_equal(catalog_fig_name(CATALOG_FIG__COUNT), "?");
	assert_string_equal(catalog_accel_kind_name(ACCEL_TRAINIUM3), "trainium3");
}

static void test_capacity_block(void **state)
{
	const struct instance_type *trn2 = find("trn2.48xlarge");
	const struct instance_type *p5 = find("p5.48xlarge");
	const struct catalog_price *cb;

	(void)state;
	cb = catalog_capacity_block(trn2, "us-east-2", NULL);
	assert_non_null(cb);
	assert_true(fabs(cb->usd_per_hour - 35.7608) < 1e-9);
	assert_string_equal(cb->date, "2026-07-22");
	assert_non_null(strstr(cb->source, "https://github.com/koyakimu/"));
	/* per region: none in us-east-1 for trn2, and p5 differs by region */
	assert_null(catalog_capacity_block(trn2, "us-east-1", NULL));
	assert_true(fabs(catalog_capacity_block(p5, "us-east-1", NULL)->usd_per_hour - 41.528) < 1e-9);
	assert_true(fabs(catalog_capacity_block(p5, "ap-northeast-1", NULL)->usd_per_hour - 37.76) < 1e-9);
	/* per date: a rate dated after the asked date does not apply yet */
	assert_non_null(catalog_capacity_block(trn2, "us-east-2", "2026-07-22"));
	assert_non_null(catalog_capacity_block(trn2, "us-east-2", "2027-01-01"));
	assert_null(catalog_capacity_block(trn2, "us-east-2", "2026-07-21"));
	assert_null(catalog_capacity_block(find("c5.xlarge"), "us-east-1", NULL));
	assert_null(catalog_capacity_block(NULL, "us-east-1", NULL));
	assert_null(catalog_capacity_block(p5, NULL, NULL));
	/* sorted by region then date, every rate sourced and positive */
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		for (int k = 0; k < t->capacity_block_count; k++) {
			const struct catalog_price *a = &t->capacity_block[k];
			assert_true(a->usd_per_hour > 0);
			assert_non_null(strstr(a->source, "<https://"));
			if (k > 0) {
				const struct catalog_price *b = &t->capacity_block[k - 1];
				int c = strcmp(b->region, a->region);
				assert_true(c < 0 || (c == 0 && strcmp(b->date, a->date) < 0));
			}
		}
	}
}

static void test_enum_names(void **state)
{
	(void)state;
	assert_string_equal(catalog_accel_kind_name(ACCEL_NONE), "none");
	assert_string_equal(catalog_accel_kind_name(ACCEL_NVIDIA_GPU), "nvidia-gpu");
	assert_string_equal(catalog_accel_kind_name(ACCEL_TRAINIUM2), "trainium2");
	assert_string_equal(catalog_accel_kind_name(ACCEL_INFERENTIA2), "inferentia2");
	assert_string_equal(catalog_tri_name(TRI_UNKNOWN), "unknown");
	assert_string_equal(catalog_tri_name(TRI_NO), "no");
	assert_string_equal(catalog_tri_name(TRI_YES), "yes");
}

/* ----------------------------------------------------- generator ---- */

static char tmpdir[64];
static char errbuf[8192];

/* $CATALOG_GEN, else where the Makefile builds it, else where a manual
 * build (see the header of tools/catalog_gen.c) puts it. */
static const char *gen_path(void)
{
	const char *p = getenv("CATALOG_GEN");

	if (p != NULL)
		return p;
	return access("build/host/catalog_gen", X_OK) == 0 ? "build/host/catalog_gen"
							   : "build/catalog_gen";
}

static int gen_setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/tf_catalog_XXXXXX");
	return mkdtemp(tmpdir) != NULL ? 0 : -1;
}

static int gen_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, cap - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* Runs the generator on yaml (written to name.yaml in the temp dir);
 * returns its exit status and leaves stderr in errbuf. */
static int run_gen_file(const char *yaml_path, const char *out_name)
{
	char cmd[1024], errpath[128];
	int status;

	snprintf(errpath, sizeof errpath, "%s/err.txt", tmpdir);
	snprintf(cmd, sizeof cmd, "'%s' '%s' > '%s/%s' 2> '%s'", gen_path(),
		 yaml_path, tmpdir, out_name, errpath);
	status = system(cmd);
	slurp(errpath, errbuf, sizeof errbuf);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int run_gen_bytes(const char *name, const char *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s.yaml", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return run_gen_file(path, "out.c");
}

static int run_gen(const char *name, const char *yaml)
{
	return run_gen_bytes(name, yaml, strlen(yaml));
}

#define HEAD \
	"version: 1\n" \
	"sources:\n" \
	"  - id: doc\n" \
	"    kind: aws-doc\n" \
	"    title: \"A document\"\n" \
	"    location: https://example.com/doc\n" \
	"    date: 2026-01-02\n" \
	"instances:\n"
/* Lines 9-17 of every test catalog. */
#define P5 \
	"  - name: p5.48xlarge\n" \
	"    accel: nvidia-gpu\n" \
	"    accel_count: 8\n" \
	"    vcpus: 192\n" \
	"    efa: yes\n" \
	"    price: { usd_per_hour: 55.04, region: us-east-1, source: doc, date: 2026-01-19 }\n" \
	"    sources:\n" \
	"      - ref: doc\n" \
	"        fields: [accel, accel_count, vcpus, efa]\n"

static void expect_error(const char *name, const char *yaml, const char *where,
			 const char *what)
{
	int rc = run_gen(name, yaml);

	print_message("%s: rc=%d stderr:\n%s", name, rc, errbuf);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(errbuf, where));
	assert_non_null(strstr(errbuf, what));
}

static void test_gen_accepts_good(void **state)
{
	char out[16384], path[128];

	(void)state;
	assert_int_equal(run_gen("good", HEAD P5), 0);
	assert_string_equal(errbuf, "");
	snprintf(path, sizeof path, "%s/out.c", tmpdir);
	slurp(path, out, sizeof out);
	assert_non_null(strstr(out, "catalog__rows[]"));
	assert_non_null(strstr(out, "/* p5.48xlarge */"));
	assert_non_null(strstr(out, "catalog__names[][CATALOG_NAME_CAP] = {\n\t\"p5.48xlarge\",\n};"));
	assert_non_null(strstr(out, "catalog__name_index[][CATALOG_NAME_CAP] = {\n\t\"p5.48xlarge\",\n};"));
	assert_non_null(strstr(out, ".price_on_demand = 55.04,"));
	assert_non_null(strstr(out, ".max_efa = -1,"));
	assert_non_null(strstr(out, ".gdr = TRI_UNKNOWN,"));
	/* the table holds no pointer: strings are offsets into the pool */
	assert_null(strstr(out, ".name = \""));
}

static void test_gen_duplicate_name(void **state)
{
	(void)state;
	expect_error("dup", HEAD P5 P5, "dup.yaml:18: error:",
		     "duplicate instance name 'p5.48xlarge' (first at line 9)");
}

static void test_gen_price_without_source(void **state)
{
	(void)state;
	expect_error("nosrc", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    price: { usd_per_hour: 55.04, region: us-east-1, date: 2026-01-19 }\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "nosrc.yaml:11: error:", "price has no source");
}

static void test_gen_bad_enum(void **state)
{
	(void)state;
	expect_error("enum", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia\n",
		     "enum.yaml:10: error:", "invalid value 'nvidia' for 'accel'");
	expect_error("tri", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    efa: true\n",
		     "tri.yaml:11: error:", "invalid value 'true' for 'efa'");
}

static void test_gen_provisional(void **state)
{
	char out[16384], path[128];

	(void)state;
	assert_int_equal(run_gen("prov", HEAD
		"  - name: trn3.48xlarge\n"
		"    accel: trainium3\n"
		"    neuron_cores_physical: 128\n"
		"    vcpus: 192\n"
		"    provisional: \"not in the EC2 API yet\"\n"
		"    sources:\n"
		"      - { ref: doc, fields: [name, accel, neuron_cores_physical] }\n"
		"      - { ref: doc, fields: [vcpus], derived: \"768 vCPUs / 4 servers\" }\n"), 0);
	snprintf(path, sizeof path, "%s/out.c", tmpdir);
	slurp(path, out, sizeof out);
	assert_non_null(strstr(out, "\"not in the EC2 API yet\" \"\\0\""));
	assert_null(strstr(out, ".provisional = 0,"));
	assert_non_null(strstr(out, ".lnc = -1,"));
	assert_non_null(strstr(out, ".nc_log = -1,"));
	assert_non_null(strstr(out, "\"vcpus: 768 vCPUs / 4 servers (A document <https://example.com/doc> (2026-01-02))\""));
	assert_non_null(strstr(out, ".derived = 0x80u,")); /* 1 << CATALOG_FIG_VCPUS */
	/* a provisional entry says where its name was seen */
	expect_error("provname", HEAD
		"  - name: trn3.48xlarge\n"
		"    accel: trainium3\n"
		"    provisional: \"not in the EC2 API yet\"\n"
		"    sources: [ { ref: doc, fields: [accel] } ]\n",
		"provname.yaml:9: error:", "name has no source");
	expect_error("provempty", HEAD
		"  - name: trn3.48xlarge\n"
		"    accel: trainium3\n"
		"    provisional: \"\"\n"
		"    sources: [ { ref: doc, fields: [name, accel] } ]\n",
		"provempty.yaml:9: error:", "provisional must say in one line why");
	expect_error("derivedempty", HEAD
		"  - name: c5.xlarge\n"
		"    accel: none\n"
		"    vcpus: 4\n"
		"    sources: [ { ref: doc, fields: [accel] }, { ref: doc, fields: [vcpus], derived: \"\" } ]\n",
		"derivedempty.yaml:", "derived must say in one line how");
	/* LNC 2 on Trainium3 and Trainium2 only; logical needs the default */
	expect_error("lnc1", HEAD
		"  - name: trn1.32xlarge\n"
		"    accel: trainium\n"
		"    neuron_cores_physical: 32\n"
		"    neuron_cores_logical: 16\n"
		"    lnc_default: 2\n"
		"    sources: [ { ref: doc, fields: [accel, neuron_cores_physical, neuron_cores_logical, lnc_default] } ]\n",
		"lnc1.yaml:9: error:", "lnc_default 2 is not valid here (1, or 2 on Trainium2 and Trainium3)");
	expect_error("lnchalf", HEAD
		"  - name: trn3.48xlarge\n"
		"    accel: trainium3\n"
		"    neuron_cores_physical: 128\n"
		"    neuron_cores_logical: 64\n"
		"    sources: [ { ref: doc, fields: [accel, neuron_cores_physical, neuron_cores_logical] } ]\n",
		"lnchalf.yaml:9: error:", "neuron_cores_logical with lnc_default or neither");
	assert_int_equal(run_gen("lnc3", HEAD
		"  - name: trn3.48xlarge\n"
		"    accel: trainium3\n"
		"    neuron_cores_physical: 128\n"
		"    neuron_cores_logical: 64\n"
		"    lnc_default: 2\n"
		"    sources: [ { ref: doc, fields: [accel, neuron_cores_physical, neuron_cores_logical, lnc_default] } ]\n"), 0);
}

static void test_gen_capacity_block(void **state)
{
	char out[16384], path[128];

	(void)state;
	assert_int_equal(run_gen("cb", HEAD
		"  - name: p5.48xlarge\n"
		"    accel: nvidia-gpu\n"
		"    capacity_block:\n"
		"      - { usd_per_hour: 41.528, region: us-west-2, source: doc, date: 2026-07-22 }\n"
		"      - { usd_per_hour: 31.464, region: us-east-1, source: doc, date: 2026-01-05 }\n"
		"      - { usd_per_hour: 41.528, region: us-east-1, source: doc, date: 2026-07-22 }\n"
		"    sources: [ { ref: doc, fields: [accel] } ]\n"), 0);
	snprintf(path, sizeof path, "%s/out.c", tmpdir);
	slurp(path, out, sizeof out);
	/* emitted in region, then date order */
	assert_non_null(strstr(out, "/* p5.48xlarge us-east-1 2026-01-05 */"));
	assert_true(strstr(out, "{ 31.464,") < strstr(out, "/* p5.48xlarge us-east-1 2026-07-22 */"));
	assert_true(strstr(out, "us-east-1 2026-07-22 */") < strstr(out, "/* p5.48xlarge us-west-2 2026-07-22 */"));
	assert_non_null(strstr(out, ".cb_first = 0, .cb_count = 3 },"));
	expect_error("cbdup", HEAD
		"  - name: p5.48xlarge\n"
		"    accel: nvidia-gpu\n"
		"    capacity_block:\n"
		"      - { usd_per_hour: 41.528, region: us-east-1, source: doc, date: 2026-07-22 }\n"
		"      - { usd_per_hour: 40.0, region: us-east-1, source: doc, date: 2026-07-22 }\n"
		"    sources: [ { ref: doc, fields: [accel] } ]\n",
		"cbdup.yaml:13: error:", "two Capacity Block rates for us-east-1 on 2026-07-22");
	expect_error("cbregion", HEAD
		"  - name: p5.48xlarge\n"
		"    accel: nvidia-gpu\n"
		"    capacity_block:\n"
		"      - { usd_per_hour: 112.32, region: us-east-1-atl-2a, source: doc, date: 2026-07-22 }\n"
		"    sources: [ { ref: doc, fields: [accel] } ]\n",
		"cbregion.yaml:12: error:", "price needs a region");
	expect_error("cbsource", HEAD
		"  - name: p5.48xlarge\n"
		"    accel: nvidia-gpu\n"
		"    capacity_block:\n"
		"      - { usd_per_hour: 1.5, region: us-east-1, source: nowhere, date: 2026-07-22 }\n"
		"    sources: [ { ref: doc, fields: [accel] } ]\n",
		"cbsource.yaml:12: error:", "price source 'nowhere' is not listed");
}

static void test_gen_bad_numbers(void **state)
{
	(void)state;
	expect_error("junk", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    vcpus: 192abc\n",
		     "junk.yaml:11: error:", "vcpus '192abc' is not a whole number");
	expect_error("neg", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    accel_count: -8\n",
		     "neg.yaml:11: error:", "accel_count '-8' is not a whole number");
	expect_error("octal", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    vcpus: 0x10\n",
		     "octal.yaml:11: error:", "vcpus '0x10'");
	expect_error("price", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    price: { usd_per_hour: 1e3, region: us-east-1, source: doc, date: 2026-01-19 }\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "price.yaml:11: error:", "price '1e3' is not a positive decimal");
	expect_error("date", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    price: { usd_per_hour: 1.5, region: us-east-1, source: doc, date: 2026-02-30 }\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "date.yaml:11: error:", "price needs the date");
}

/* The EC2 table beside the catalog (tools/ec2_types.py's format): its
 * rows extend the catalog, a hand-checked figure it contradicts is an
 * error, and a table that does not read is one, with its line. */
#define EC2_TABLE_HEAD \
	"# a table\n" \
	"source\tec2\taws-api-derived\t2026-08-21\thttps://example.com/ec2\tEC2 types\n" \
	"column\tname\tec2\tname\n" \
	"column\tvcpus\tec2\tcpus\n" \
	"column\taccel\tec2\tmaker\n"

static int run_gen_table(const char *name, const char *yaml, const char *tsv)
{
	char yaml_path[128], tsv_path[128], cmd[1024], errpath[128];
	FILE *f;
	int status;

	snprintf(yaml_path, sizeof yaml_path, "%s/%s.yaml", tmpdir, name);
	snprintf(tsv_path, sizeof tsv_path, "%s/%s.tsv", tmpdir, name);
	snprintf(errpath, sizeof errpath, "%s/err.txt", tmpdir);
	assert_non_null(f = fopen(yaml_path, "wb"));
	fputs(yaml, f);
	fclose(f);
	assert_non_null(f = fopen(tsv_path, "wb"));
	fputs(tsv, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' > '%s/out.c' 2> '%s'", gen_path(), yaml_path,
		 tsv_path, tmpdir, errpath);
	status = system(cmd);
	slurp(errpath, errbuf, sizeof errbuf);
	return status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

static void test_gen_ec2_table(void **state)
{
	static char out[1 << 16];
	char path[128];

	(void)state;
	assert_int_equal(run_gen_table("table", HEAD P5, EC2_TABLE_HEAD "name\tvcpus\taccel\n"
				       "p5.48xlarge\t192\tnvidia-gpu\nc7i.large\t2\tnone\n"), 0);
	snprintf(path, sizeof path, "%s/out.c", tmpdir);
	slurp(path, out, sizeof out);
	assert_non_null(strstr(out, "/* c7i.large */"));   /* a row of the table alone */
	assert_non_null(strstr(out, "/* p5.48xlarge */"));

	assert_int_equal(run_gen_table("contradicts", HEAD P5, EC2_TABLE_HEAD "name\tvcpus\taccel\n"
				       "p5.48xlarge\t96\tnvidia-gpu\n"), 1);
	assert_non_null(strstr(errbuf, "contradicts.yaml:9: error: p5.48xlarge: vcpus is 192 here but 96 in the EC2 table (line 7)"));
	assert_int_equal(run_gen_table("kind", HEAD P5, EC2_TABLE_HEAD "name\tvcpus\taccel\n"
				       "p5.48xlarge\t192\tnone\n"), 1);
	assert_non_null(strstr(errbuf, "p5.48xlarge: accel differs from the EC2 table (line 7)"));

	assert_int_equal(run_gen_table("column", HEAD P5, EC2_TABLE_HEAD "name\tvcpus\tcolour\n"), 1);
	assert_non_null(strstr(errbuf, "column.tsv:6: error: column 'colour' is unknown or repeated"));
	assert_int_equal(run_gen_table("fields", HEAD P5, EC2_TABLE_HEAD "name\tvcpus\taccel\n"
				       "p5.48xlarge\t192\tnvidia-gpu\t7\n"), 1);
	assert_non_null(strstr(errbuf, "fields.tsv:7: error: 4 fields where the header has 3"));
	assert_int_equal(run_gen_table("unsourced", HEAD P5,
				       "column\tname\tnowhere\tname\nname\tvcpus\n"), 1);
	assert_non_null(strstr(errbuf, "unsourced.tsv:"));
}

static void test_gen_unsourced_figure(void **state)
{
	(void)state;
	expect_error("unsourced", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    vcpus: 192\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "unsourced.yaml:11: error:", "vcpus has no source");
	expect_error("claims", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    sources: [ { ref: doc, fields: [accel, vcpus] } ]\n",
		     "claims.yaml:11: error:", "backs vcpus, which the entry does not have");
	expect_error("unknownref", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    sources: [ { ref: nowhere, fields: [accel] } ]\n",
		     "unknownref.yaml:11: error:", "unknown source 'nowhere'");
}

static void test_gen_inconsistent(void **state)
{
	(void)state;
	expect_error("lnc", HEAD
		     "  - name: trn2.48xlarge\n"
		     "    accel: trainium2\n"
		     "    neuron_cores_physical: 128\n"
		     "    neuron_cores_logical: 128\n"
		     "    lnc_default: 2\n"
		     "    sources: [ { ref: doc, fields: [accel, neuron_cores_physical, neuron_cores_logical, lnc_default] } ]\n",
		     "lnc.yaml:9: error:",
		     "neuron_cores_logical 128 is not neuron_cores_physical 128 / lnc_default 2");
	expect_error("efa", HEAD
		     "  - name: g4dn.xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    efa: no\n"
		     "    gpudirect_rdma: yes\n"
		     "    sources: [ { ref: doc, fields: [accel, efa, gpudirect_rdma] } ]\n",
		     "efa.yaml:9: error:", "efa: no contradicts");
}

static void test_gen_structure(void **state)
{
	(void)state;
	expect_error("unknownkey", HEAD P5 "    vcpu: 4\n",
		     "unknownkey.yaml:18: error:", "unknown key 'vcpu' in instances[0]");
	expect_error("dupkey", HEAD
		     "  - name: p5.48xlarge\n"
		     "    accel: nvidia-gpu\n"
		     "    accel: none\n",
		     "dupkey.yaml:11: error:", "duplicate key 'accel' (first at line 10)");
	expect_error("badname", HEAD
		     "  - name: trn3-48xlarge\n"
		     "    accel: none\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "badname.yaml:9: error:", "'trn3-48xlarge' is not an instance type name");
	expect_error("longname", HEAD
		     "  - name: u7inh-32tb-extra-long.480xlarge\n"
		     "    accel: none\n"
		     "    sources: [ { ref: doc, fields: [accel] } ]\n",
		     "longname.yaml:9: error:", "is longer than the 23 bytes a name has in the table");
	expect_error("empty", "", "empty.yaml:1: error:", "the catalog is empty");
	expect_error("syntax", "version: 1\ninstances: [\n", "syntax.yaml:",
		     "YAML syntax");
	expect_error("alias", HEAD "  - &a { name: c5.xlarge }\n  - *a\n",
		     "alias.yaml:10: error:", "aliases are not allowed");
	expect_error("unused", "version: 1\n"
		     "sources:\n"
		     "  - { id: doc, kind: aws-doc, title: t, location: https://e.x/, date: 2026-01-02 }\n"
		     "  - { id: spare, kind: aws-doc, title: t, location: https://e.x/y, date: 2026-01-02 }\n"
		     "instances:\n"
		     "  - { name: c5.xlarge, accel: none, sources: [ { ref: doc, fields: [accel] } ] }\n",
		     "unused.yaml:4: error:", "source 'spare' is not used");
	expect_error("twodocs", HEAD P5 "---\nversion: 1\n", "twodocs.yaml:18: error:",
		     "more than one YAML document");
}

/* Only a document a user can open is a citation: a research note is not
 * shipped, a branch moves, http and file URLs are not what was read. */
static void test_gen_public_sources_only(void **state)
{
	static const struct { const char *name, *source, *what; } bad[] = {
		{ "kind", "{ id: doc, kind: research, title: t, location: https://e.x/, date: 2026-01-02 }",
		  "invalid value 'research' for 'kind'" },
		{ "path", "{ id: doc, kind: aws-doc, title: t, location: research/training-scripts.md#c, date: 2026-01-02 }",
		  "source 'doc' needs a location anyone can open" },
		{ "http", "{ id: doc, kind: aws-doc, title: t, location: http://docs.aws.amazon.com/x, date: 2026-01-02 }",
		  "needs a location anyone can open" },
		{ "file", "{ id: doc, kind: aws-doc, title: t, location: file:///work/shared/research/x.md, date: 2026-01-02 }",
		  "needs a location anyone can open" },
		{ "nohost", "{ id: doc, kind: aws-doc, title: t, location: https:///x, date: 2026-01-02 }",
		  "needs a location anyone can open" },
		{ "branch", "{ id: doc, kind: aws-doc, title: t, location: https://github.com/aws/aws-ofi-nccl/blob/master/src/platform-aws.cpp, date: 2026-01-02 }",
		  "pin it to the 40-digit commit" },
		{ "short", "{ id: doc, kind: aws-doc, title: t, location: https://github.com/aws/aws-ofi-nccl/blob/45197dfa/src/platform-aws.cpp, date: 2026-01-02 }",
		  "pin it to the 40-digit commit" },
		{ "tree", "{ id: doc, kind: aws-doc, title: t, location: https://github.com/o/r/tree/main, date: 2026-01-02 }",
		  "pin it to the 40-digit commit" },
		{ "raw", "{ id: doc, kind: aws-doc, title: t, location: https://raw.githubusercontent.com/o/r/main/f.md, date: 2026-01-02 }",
		  "pin it to the 40-digit commit" },
	};
	char yaml[1024];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(yaml, sizeof yaml, "version: 1\nsources:\n  - %s\ninstances:\n"
			 "  - { name: c5.xlarge, accel: none, sources: [ { ref: doc, fields: [accel] } ] }\n",
			 bad[i].source);
		expect_error(bad[i].name, yaml, ".yaml:3: error:", bad[i].what);
	}
	/* Pinned repository files, pull requests and plain pages are fine. */
	snprintf(yaml, sizeof yaml, "version: 1\nsources:\n"
		 "  - { id: a, kind: aws-doc, title: t, location: https://github.com/aws/aws-ofi-nccl/blob/45197dfad429db8e9fbc2da408d7c906c76dda2d/src/platform-aws.cpp, date: 2026-01-02 }\n"
		 "  - { id: b, kind: aws-doc, title: t, location: https://github.com/aws/aws-ofi-nccl/issues/547, date: 2026-01-02 }\n"
		 "  - { id: c, kind: aws-doc, title: t, location: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html, date: 2026-01-02 }\n"
		 "instances:\n"
		 "  - { name: c5.xlarge, accel: none, sources: [ { ref: a, fields: [accel] }, { ref: b, fields: [accel] }, { ref: c, fields: [accel] } ] }\n");
	assert_int_equal(run_gen("pinned", yaml), 0);
	assert_string_equal(errbuf, "");
}

/* Every source of the real catalog is a public https:// document. */
static void test_real_catalog_sources_public(void **state)
{
	(void)state;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		const char *p = t->source;
		print_message("checking %s\n", t->name);
		/* each figure's source is "title <location> (date)" */
		while ((p = strchr(p, '<')) != NULL) {
			assert_int_equal(strncmp(p, "<https://", 9), 0);
			p++;
		}
	}
}

/* Input meant to crash or hang a loader gets a positioned error. */
static void test_gen_hostile(void **state)
{
	static char buf[5u << 20];
	size_t n;

	(void)state;
	n = (size_t)snprintf(buf, sizeof buf, "version: 1\ninstances: ");
	for (int i = 0; i < 200; i++)
		buf[n++] = '[';
	for (int i = 0; i < 200; i++)
		buf[n++] = ']';
	buf[n++] = '\n';
	assert_int_equal(run_gen_bytes("deep", buf, n), 1);
	assert_non_null(strstr(errbuf, "deep.yaml:2: error: nesting deeper than"));

	assert_int_equal(run_gen_bytes("nul", "version: 1\n\0\n", 13), 1);
	assert_non_null(strstr(errbuf, "nul.yaml:1: error: the file contains a NUL byte"));

	assert_int_equal(run_gen("utf8", "version: 1\n\ninstances: \"\xff\"\n"), 1);
	assert_non_null(strstr(errbuf, "utf8.yaml:3: error: YAML syntax"));

	memset(buf, 'k', 300);
	memcpy(buf + 300, ": 1\n", 5);
	assert_int_equal(run_gen("longkey", buf), 1);
	assert_non_null(strstr(errbuf, "longkey.yaml:1: error:"));

	memset(buf, '#', sizeof buf - 1);
	buf[sizeof buf - 1] = '\0';
	assert_int_equal(run_gen_bytes("huge", buf, sizeof buf - 1), 1);
	assert_non_null(strstr(errbuf, "huge.yaml:1: error: larger than"));
}

/* The real catalog builds, and building it twice gives the same bytes. */
static void test_gen_real_catalog_deterministic(void **state)
{
	const char *yaml = getenv("CATALOG_YAML");
	static char a[1 << 20], b[1 << 20];
	char path[128];

	(void)state;
	if (yaml == NULL)
		yaml = "schemas/instances.yaml";
	assert_int_equal(run_gen_file(yaml, "one.c"), 0);
	assert_string_equal(errbuf, "");
	assert_int_equal(run_gen_file(yaml, "two.c"), 0);
	snprintf(path, sizeof path, "%s/one.c", tmpdir);
	slurp(path, a, sizeof a);
	snprintf(path, sizeof path, "%s/two.c", tmpdir);
	slurp(path, b, sizeof b);
	assert_true(strlen(a) > 1000);
	assert_string_equal(a, b);
}

int main(void)
{
	const struct CMUnitTest catalog_tests[] = {
		cmocka_unit_test(test_research_instances),
		cmocka_unit_test(test_specific_figures),
		cmocka_unit_test(test_head_nodes),
		cmocka_unit_test(test_unknown_lookups),
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_derived_facts),
		cmocka_unit_test(test_prices_sourced),
		cmocka_unit_test(test_real_catalog_sources_public),
		cmocka_unit_test(test_check_name_valid),
		cmocka_unit_test(test_check_name_plausible),
		cmocka_unit_test(test_check_name_invalid),
		cmocka_unit_test(test_check_name_buffers),
		cmocka_unit_test(test_family_len),
		cmocka_unit_test(test_procs_per_node),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_capacity_block),
		cmocka_unit_test(test_provisional_trn3),
		cmocka_unit_test(test_enum_names),
	};
	const struct CMUnitTest gen_tests[] = {
		cmocka_unit_test(test_gen_accepts_good),
		cmocka_unit_test(test_gen_duplicate_name),
		cmocka_unit_test(test_gen_price_without_source),
		cmocka_unit_test(test_gen_bad_enum),
		cmocka_unit_test(test_gen_bad_numbers),
		cmocka_unit_test(test_gen_capacity_block),
		cmocka_unit_test(test_gen_provisional),
		cmocka_unit_test(test_gen_unsourced_figure),
		cmocka_unit_test(test_gen_ec2_table),
		cmocka_unit_test(test_gen_inconsistent),
		cmocka_unit_test(test_gen_structure),
		cmocka_unit_test(test_gen_public_sources_only),
		cmocka_unit_test(test_gen_hostile),
		cmocka_unit_test(test_gen_real_catalog_deterministic),
	};
	int failed = cmocka_run_group_tests_name("catalog", catalog_tests, NULL, NULL);

	failed += cmocka_run_group_tests_name("catalog_gen", gen_tests, gen_setup,
					      gen_teardown);
	return failed != 0;
}
