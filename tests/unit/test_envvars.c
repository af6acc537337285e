/* Unit tests for the tables of environment variables (core/facts/envvars.c)
 * and the NVLink table (core/facts/nvlink.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "envvars.h"
#include "nvlink.h"
#include "text.h"

/* Each table is sorted and every name starts with its family's prefix:
 * env_known's binary search relies on the first, env_family_of on the
 * second. */
static void tables_sorted_and_prefixed(void **state)
{
	(void)state;
	for (int f = 0; f < ENV__COUNT; f++) {
		const struct env_family_def *d = env_family(f);
		assert_non_null(d);
		assert_true(d->n > 0);
		for (size_t i = 0; i < d->n; i++) {
			assert_int_equal(strncmp(d->names[i], d->prefix, strlen(d->prefix)), 0);
			assert_true(env_known(d->names[i]));
			if (i)
				assert_true(strcmp(d->names[i - 1], d->names[i]) < 0);
		}
	}
	assert_null(env_family(ENV__COUNT));
}

static void near_misses(void **state)
{
	(void)state;
	/* a transposition in a long name is two edits */
	assert_string_equal(env_near("FI_EFA_USE_DEVICE_RDAM"), "FI_EFA_USE_DEVICE_RDMA");
	assert_string_equal(env_near("ALLOC_ARENA_MAX"), "MALLOC_ARENA_MAX");
	assert_string_equal(env_near("MALLOC_MMAP_THRESHOLD"), "MALLOC_MMAP_THRESHOLD_");
	assert_string_equal(env_near("NCCL_DEBG"), "NCCL_DEBUG");
	/* names of the tables' later transcriptions */
	assert_string_equal(env_near("NEURON_RT_VALIDATE_HSH"), "NEURON_RT_VALIDATE_HASH");
	assert_string_equal(env_near("TORCHELASTIC_EROR_FILE"), "TORCHELASTIC_ERROR_FILE");
	assert_string_equal(env_near("NCCL_IB_EVENT_BASED_LB_REMOT"), "NCCL_IB_EVENT_BASED_LB_REMOTE");
	assert_null(env_near("NCCL_IB_EVENT_BASED_LB"));
	/* known names, far names and short names are not misspellings */
	assert_null(env_near("NCCL_DEBUG"));
	assert_null(env_near("NCCL_HOME"));
	assert_null(env_near("CUDA_VERSION"));
	assert_null(env_near("FI_X"));
	/* two known names as near: no guess */
	assert_null(env_near("NCCL_IB_SC")); /* NCCL_IB_SL and NCCL_IB_TC */
}

/* env_near skips a family whose prefix no start of the name is near;
 * the skip must never change the answer. The plain search, over every
 * name of every family, is compared with it on names one and two edits
 * from known names (the prefix edited too) and on names far from all. */
static const char *near_by_every_name(const char *name)
{
	size_t len = strlen(name);
	if (len < 6 || env_known(name))
		return NULL;
	size_t limit = len >= 12 ? 2 : 1, best = limit + 1;
	const char *near = NULL;
	bool tie = false;
	for (int f = 0; f < ENV__COUNT; f++)
		for (size_t i = 0; i < env_family(f)->n; i++) {
			const char *k = env_family(f)->names[i];
			size_t d = text_edit_distance(name, len, k, strlen(k), limit);
			d = d ? d : 1;
			if (d < best)
				best = d, near = k, tie = false;
			else if (d == best)
				tie = true;
		}
	return tie ? NULL : near;
}

static void edit_once(char *s, unsigned r)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
	size_t len = strlen(s), at = (r >> 2) % (len + 1);
	char c = alphabet[(r >> 12) % (sizeof alphabet - 1)];
	switch (r & 3) {
	case 0: /* substitute */
		if (at < len)
			s[at] = c;
		break;
	case 1: /* delete */
		if (at < len)
			memmove(s + at, s + at + 1, len - at);
		break;
	default: /* insert */
		memmove(s + at + 1, s + at, len - at + 1);
		s[at] = c;
		break;
	}
}

static void near_misses_match_plain_search(void **state)
{
	(void)state;
	srand(7);
	size_t compared = 0, found = 0;
	for (int f = 0; f < ENV__COUNT; f++)
		for (size_t i = 0; i < env_family(f)->n; i++)
			for (int trial = 0; trial < 6; trial++) {
				char name[128];
				snprintf(name, sizeof name, "%s", env_family(f)->names[i]);
				for (int e = 0; e <= trial % 2; e++)
					edit_once(name, (unsigned)rand());
				const char *want = near_by_every_name(name), *got = env_near(name);
				if (!want != !got || (want && strcmp(want, got)))
					fail_msg("%s: env_near says %s, every name says %s", name,
						 got ? got : "none", want ? want : "none");
				compared++;
				found += want != NULL;
			}
	static const char *const far[] = { "MASTER_ADDR", "RUN_DIR", "CHECKPOINT_DIR", "RDZV_ENDPOINT",
					   "GPUS_PER_NODE", "NCCLDEBUG", "NCLL_DEBUG", "XFI_PROVIDER" };
	for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
		const char *want = near_by_every_name(far[i]), *got = env_near(far[i]);
		assert_true(!want == !got && (!want || !strcmp(want, got)));
	}
	/* the comparison is not empty: most edited names still have a guess */
	assert_true(found > compared / 2);
}

static void read_by_workers(void **state)
{
	(void)state;
	assert_true(env_read_by_workers("LD_PRELOAD"));
	assert_true(env_read_by_workers("NEURON_RT_ROOT_COMM_ID"));
	assert_false(env_read_by_workers("NCCL_HOME"));
	assert_false(env_read_by_workers("GPUS_PER_NODE"));
}

static void nvlink(void **state)
{
	(void)state;
	assert_int_equal(nvlink_of(catalog_find("p5.48xlarge", 11)), TRI_YES);
	assert_int_equal(nvlink_of(catalog_find("g5.48xlarge", 11)), TRI_NO);
	assert_int_equal(nvlink_of(catalog_find("trn2.48xlarge", 13)), TRI_UNKNOWN);
	assert_int_equal(nvlink_of(NULL), TRI_UNKNOWN);
}

/* The tables against the machine-readable sources installed here:
 * every FI_ name Debian's fi_info -e prints is in the libfabric table,
 * and every name the Slurm 25.11.7 man pages list (../shared/vendor) is
 * in Slurm's, as set when an OUTPUT ENVIRONMENT VARIABLES section lists
 * it. Each skips, saying so, when its source is not here. */
static void libfabric_against_fi_info(void **state)
{
	(void)state;
	FILE *p = popen("fi_info -e 2>/dev/null", "r");
	char line[512];
	size_t seen = 0;
	while (p && fgets(line, sizeof line, p)) {
		char name[128];
		if (sscanf(line, "# %127[A-Z0-9_]:", name) != 1 || strncmp(name, "FI_", 3))
			continue;
		seen++;
		if (!env_known(name))
			fail_msg("fi_info -e prints %s, which the libfabric table lacks", name);
	}
	if (p)
		pclose(p);
	if (!seen)
		skip(); /* fi_info is not installed (tools/deps.sh installs libfabric-bin) */
	assert_true(seen > 50);
}

/* Checks one man page's ENVIRONMENT VARIABLES sections: roff's
 * .SH "OUTPUT ENVIRONMENT VARIABLES", then \fBNAME\fR lines. */
static size_t slurm_page(const char *tarball, const char *page)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "tar -xzOf %s slurm-25.11.7/doc/man/man1/%s 2>/dev/null", tarball, page);
	FILE *p = popen(cmd, "r");
	char line[1024];
	int section = 0; /* 1 input, 2 output */
	size_t seen = 0;
	while (p && fgets(line, sizeof line, p)) {
		if (!strncmp(line, ".SH", 3)) {
			section = strstr(line, "OUTPUT ENVIRONMENT") ? 2 : strstr(line, "INPUT ENVIRONMENT") ? 1 : 0;
			continue;
		}
		char name[128];
		if (!section || sscanf(line, "\\fB%127[A-Z0-9_]\\fR", name) != 1 ||
		    (strncmp(name, "SLURM", 5) && strncmp(name, "SBATCH_", 7) && strncmp(name, "SRUN_", 5)) ||
		    !strcmp(name, "SLURM_"))
			continue;
		seen++;
		enum env_status st = env_status(name, NULL);
		if (section == 2 && st != ENV_SET)
			fail_msg("%s sets %s, which Slurm's table lacks as set", page, name);
		if (section == 1 && st != ENV_SET && st != ENV_INPUT)
			fail_msg("%s reads %s, which Slurm's table lacks", page, name);
	}
	if (p)
		pclose(p);
	return seen;
}

static void slurm_against_man_pages(void **state)
{
	(void)state;
	const char *tarball = getenv("TF_SLURM_TARBALL");
	if (!tarball)
		tarball = "../shared/vendor/slurm-25.11.7.tar.gz";
	FILE *f = fopen(tarball, "rb");
	if (!f)
		skip(); /* the vendored Slurm is not here */
	fclose(f);
	size_t seen = slurm_page(tarball, "sbatch.1") + slurm_page(tarball, "srun.1");
	assert_true(seen > 200);
	/* what a script may read, and what it may not */
	assert_true(env_slurm_known("SLURM_JOB_NUM_NODES"));
	assert_true(env_slurm_known("SLURM_JOB_ID_HET_GROUP_1"));
	assert_false(env_slurm_known("SLURM_NNODE"));
	assert_string_equal(env_near("SLURM_NNODE"), "SLURM_NNODES");
}

/* The environment names of glibc's malloc tunables (the env_alias of
 * each glibc.malloc tunable, and mtrace's MALLOC_TRACE) are strings of
 * the dynamic loader itself: every MALLOC_ name the machine's ld.so
 * holds is in the glibc table, and every name of the table but
 * jemalloc's MALLOC_CONF is in ld.so. Skips when no loader is found. */
static bool ldso_has(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i + n < len; i++)
		if (!memcmp(text + i, name, n) && !text[i + n] && (!i || !text[i - 1]))
			return true;
	return false;
}

static void glibc_against_ldso(void **state)
{
	(void)state;
	static const char *const loaders[] = { "/lib64/ld-linux-x86-64.so.2",
					       "/lib/ld-linux-aarch64.so.1" };
	FILE *f = NULL;
	for (size_t i = 0; !f && i < sizeof loaders / sizeof loaders[0]; i++)
		f = fopen(loaders[i], "rb");
	if (!f)
		skip(); /* no glibc loader at the usual paths */
	size_t cap = 4 << 20, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	len = fread(text, 1, cap, f);
	fclose(f);
	size_t seen = 0;
	for (size_t i = 0; i + 8 < len; i++) {
		if ((i && text[i - 1]) || memcmp(text + i, "MALLOC_", 7))
			continue;
		size_t n = strspn(text + i, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
		if (n == 7 || text[i + n] || n >= 64)
			continue; /* "MALLOC_", the prefix glibc matches, or not a name */
		char name[64];
		memcpy(name, text + i, n);
		name[n] = '\0';
		seen++;
		if (!env_known(name))
			fail_msg("ld.so holds %s, which the glibc table lacks", name);
	}
	const struct env_family_def *g = env_family(ENV_GLIBC);
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->names[i], "MALLOC_CONF") && !ldso_has(text, len, g->names[i]))
			fail_msg("the glibc table lists %s, which ld.so does not hold", g->names[i]);
	free(text);
	assert_true(seen >= 8);
}

/* The TORCHELASTIC_ names of PyTorch's own python sources, when Debian's
 * python3-torch is installed: each is in the torchrun table. */
static void torchelastic_against_torch(void **state)
{
	(void)state;
	FILE *p = popen("grep -rhoE 'TORCHELASTIC_[A-Z0-9_]+' --include=*.py "
			"/usr/lib/python3/dist-packages/torch/distributed 2>/dev/null | sort -u", "r");
	char line[256];
	size_t seen = 0;
	while (p && fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		seen++;
		if (!env_known(line))
			fail_msg("PyTorch's sources read %s, which the torchrun table lacks", line);
	}
	if (p)
		pclose(p);
	if (!seen)
		skip(); /* python3-torch is not installed */
	assert_true(seen >= 5);
}

/* Statuses other than read come with their version and source. */
static void notes_have_sources(void **state)
{
	(void)state;
	const struct env_note *note;
	assert_int_equal(env_status("FI_EFA_MTU_SIZE", &note), ENV_ABORTS);
	assert_non_null(note->source);
	assert_int_equal(env_status("FI_EFA_SET_CUDA_SYNC_MEMOPS", &note), ENV_NOT_READ);
	assert_non_null(strstr(note->version, "1.20"));
	assert_int_equal(env_status("CUDA_COREDUMP_PIPE", &note), ENV_READ);
	assert_int_equal(env_status("NEURON_COMPILE_CACHE_DIR", NULL), ENV_NEVER);
	assert_int_equal(env_status("SLURM_JOB_NODELIST", NULL), ENV_SET);
	assert_int_equal(env_status("SBATCH_PARTITION", NULL), ENV_INPUT);
	assert_int_equal(env_status("MY_OWN_VARIABLE", NULL), ENV_UNLISTED);
	for (int f = 0; f < ENV__COUNT; f++)
		for (size_t i = 0; i < env_family(f)->n_notes; i++) {
			const struct env_note *n = &env_family(f)->notes[i];
			assert_true(env_known(n->name));
			assert_non_null(n->version);
			assert_non_null(n->source);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_sorted_and_prefixed),
		cmocka_unit_test(near_misses),
		cmocka_unit_test(near_misses_match_plain_search),
		cmocka_unit_test(read_by_workers),
		cmocka_unit_test(nvlink),
		cmocka_unit_test(libfabric_against_fi_info),
		cmocka_unit_test(slurm_against_man_pages),
		cmocka_unit_test(glibc_against_ldso),
		cmocka_unit_test(torchelastic_against_torch),
		cmocka_unit_test(notes_have_sources),
	};
	return cmocka_run_group_tests_name("envvars", tests, NULL, NULL);
}
