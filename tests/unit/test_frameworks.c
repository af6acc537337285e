/* The framework module (core/facts/frameworks): its tables agree with
 * themselves (every flag gen writes, every argument it asks for and
 * every checkpoint flag is one the version defines), its accounting
 * agrees with Megatron-LM's own (figures its theoretical memory model
 * printed for the same shapes), and where each framework runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "catalog.h"
#include "frameworks.h"
#include "target.h"

static bool covered_and_known(enum framework f, size_t v, const char *flag)
{
	size_t len = strlen(flag);
	return !fw_known_covers(f, flag, len) || fw_known_find(f, v, flag, len) != NULL;
}

/* Sorted where the lookup is a binary search, each row found by its own
 * name, and every version bit names a version. */
static void known_tables(void **state)
{
	(void)state;
	for (int f = 0; f < FW__COUNT; f++) {
		const struct fw_def *d = fw_def(f);
		if (!d->known)
			continue;
		const struct fw_known_flag *t = d->known->flags;
		for (size_t i = 0; i < d->known->n; i++) {
			if (!d->known_any_dash && i)
				assert_true(strcmp(t[i - 1].name, t[i].name) < 0);
			assert_int_equal(strlen(t[i].name), t[i].len);
			assert_true(t[i].versions < (1u << d->nversions) || t[i].versions == FW_ALL_VERSIONS);
			for (size_t v = 0; v < d->nversions; v++)
				if (fw_in_version(t[i].versions, v))
					assert_ptr_equal(fw_known_find(f, v, t[i].name, t[i].len), &t[i]);
		}
	}
	assert_true(fw_def(FW_MEGATRON)->known->n > 800);
	assert_true(fw_known_find(FW_MEGATRON, 0, "--bf16", 6)->is_switch);
	assert_false(fw_known_find(FW_MEGATRON, 0, "--lr", 4)->is_switch);
	assert_null(fw_known_find(FW_MEGATRON, 0, "--l", 3));
	assert_null(fw_known_find(FW_MEGATRON, 0, "--log_interval", 14)); /* allow_abbrev=False, exact */
	assert_string_equal(fw_known_near(FW_MEGATRON, 0, "--log_interval")->name, "--log-interval");
	assert_string_equal(fw_known_near(FW_MEGATRON, 0, "--sequence-paralel")->name, "--sequence-parallel");
	assert_null(fw_known_near(FW_MEGATRON, 0, "--use-quantum-annealer"));
}

/* Every flag gen writes at a version, every argument a version needs and
 * every checkpoint flag is defined by that version. */
static void rows_are_defined(void **state)
{
	(void)state;
	for (int f = 0; f < FW__COUNT; f++) {
		const struct fw_def *d = fw_def(f);
		for (size_t v = 0; v < d->nversions; v++) {
			for (size_t i = 0; i < d->nflags; i++)
				if (fw_flag_at_version(&d->flags[i], v) && d->flags[i].when != FW_NEVER) {
					if (!covered_and_known(f, v, d->flags[i].flag))
						fail_msg("%s %s does not define %s", d->name, d->versions[v].name,
							 d->flags[i].flag);
				}
			for (size_t i = 0; i < d->nneeds; i++)
				for (size_t k = 0; fw_in_version(d->needs[i].versions, v) && k < FW_NEED_FLAGS &&
						   d->needs[i].flags[k]; k++)
					if (!covered_and_known(f, v, d->needs[i].flags[k]))
						fail_msg("%s %s: need %s", d->name, d->versions[v].name, d->needs[i].flags[k]);
			const struct fw_checkpoint *c = fw_checkpoint(f, v);
			const char *cf[] = { c ? c->save_dir : NULL, c ? c->load_dir : NULL, c ? c->enable : NULL,
					     c ? c->interval : NULL, c ? c->resume : NULL,
					     c ? c->signal_switch : NULL, c ? c->signal_flag : NULL };
			for (size_t k = 0; k < sizeof cf / sizeof cf[0]; k++)
				if (cf[k] && !covered_and_known(f, v, cf[k]))
					fail_msg("%s %s: checkpoint flag %s", d->name, d->versions[v].name, cf[k]);
		}
	}
}

static void versions(void **state)
{
	(void)state;
	assert_int_equal(fw_version_find(FW_TORCHTITAN, "0.2", 3), 0);
	assert_int_equal(fw_version_find(FW_TORCHTITAN, "v0.3.0", 6), 1);
	assert_int_equal(fw_version_default(FW_TORCHTITAN), 1);
	assert_int_equal(fw_version_find(FW_MEGATRON, "d98e8a6", 7), 0);
	assert_int_equal(fw_version_find(FW_MEGATRON, "0.19", 4), -1);
	struct target_request req;
	char err[256];
	memset(&req, 0, sizeof req);
	assert_true(target_parse_arg("torchtitan=0.2", &req, err, sizeof err));
	struct target t = target_apply(target_default(), &req);
	assert_int_equal(target_fw_version(&t, FW_TORCHTITAN), 0);
	assert_true(target_fw_named(&t, FW_TORCHTITAN));
	assert_int_equal(target_fw_version(&t, FW_MEGATRON), 0);
	assert_false(target_fw_named(&t, FW_MEGATRON));
	assert_false(target_parse_arg("torchtitan=0.9", &req, err, sizeof err));
	assert_non_null(strstr(err, "known: 0.2 (v0.2.2), 0.3 (v0.3.0)"));
	assert_false(target_parse_arg("plain=any", &req, err, sizeof err));
	/* 0.3 took --job.config_file away; tyro's negation of a switch */
	assert_non_null(fw_known_find(FW_TORCHTITAN, 0, "--job.config_file", 17));
	assert_null(fw_known_find(FW_TORCHTITAN, 1, "--job.config_file", 17));
	assert_true(fw_known_covers(FW_TORCHTITAN, "--job.config_file", 17));
	assert_non_null(fw_known_find(FW_TORCHTITAN, 1, "--training.local-batch-size", 27));
	assert_non_null(fw_known_find(FW_TORCHTITAN, 1, "--checkpoint.no_initial_load_model_only", 39));
	assert_null(fw_known_find(FW_TORCHTITAN, 1, "--checkpoint.no_folder", 22));
	assert_false(fw_known_covers(FW_TORCHTITAN, "--optimizer.lr", 14));
}

/* Megatron's own figures for two shapes, printed by
 * ../shared/tools/megatron_oracle.py (its theoretical_memory_usage.py):
 *   8 -- --num-layers 4 --hidden-size 256 --num-attention-heads 8
 *        --group-query-attention --num-query-groups 2 --ffn-hidden-size 704
 *        --swiglu --vocab-size 1000 --untie-embeddings-and-output-weights
 *        --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2
 *        --use-distributed-optimizer ...      3346944, 3346944, 10054656
 *   32 -- --num-layers 4 --hidden-size 256 --num-attention-heads 8
 *        --num-experts 8 --moe-router-topk 1 --moe-ffn-hidden-size 512
 *        --vocab-size 1000 --tensor-model-parallel-size 2
 *        --pipeline-model-parallel-size 2 --expert-model-parallel-size 4 ...
 *                                              9712160, 2372128, 16630560 */
static void megatron_accounting(void **state)
{
	(void)state;
	struct fw_shape dense = { .layers = 4, .hidden = 256, .heads = 8, .groups = 2, .ffn = 704,
				  .vocab = 1000, .seq = 128, .gated = true, .untied = true, .tp = 2 };
	struct fw_params p;
	struct fw_rank_state r;
	assert_true(fw_count_params(FW_MEGATRON, &dense, &p));
	assert_float_equal(p.total, 3346944, 0.5);
	assert_float_equal(p.active, 3346944, 0.5);
	fw_rank_state(FW_MEGATRON, &dense, &p, &(struct fw_layout){ 8, 2, 2, 1, 1, 2 }, 1, &r);
	assert_float_equal(r.bytes, 10054656, 0.5);

	struct fw_shape moe = { .layers = 4, .hidden = 256, .heads = 8, .experts = 8, .topk = 1,
				.expert_ffn = 512, .vocab = 1000, .seq = 128, .tp = 2 };
	assert_true(fw_count_params(FW_MEGATRON, &moe, &p));
	assert_float_equal(p.total, 9712160, 0.5);
	assert_float_equal(p.active, 2372128, 0.5);
	fw_rank_state(FW_MEGATRON, &moe, &p, &(struct fw_layout){ 32, 2, 2, 1, 4, 8 }, 0, &r);
	assert_float_equal(r.bytes, 16630560, 0.5);

	struct fw_flops fl;
	assert_true(fw_flops_per_token(FW_MEGATRON, &moe, &p, &fl));
	assert_true(fl.attention > 0 && fl.dense > 0);
	struct fw_shape shapeless = { .layers = 4, .hidden = 256 };
	assert_false(fw_count_params(FW_MEGATRON, &shapeless, &p));
}

static void memory_conventions(void **state)
{
	(void)state;
	struct fw_bytes b;
	fw_state_bytes(FW_MEGATRON, 0, &b);
	assert_float_equal(fw_bytes_per_param(&b, 8), 18, 1e-9);
	fw_state_bytes(FW_MEGATRON, 1, &b);
	assert_float_equal(fw_bytes_per_param(&b, 8), 6 + 12.0 / 8, 1e-9);
	fw_state_bytes(FW_NXD, 1, &b);
	assert_float_equal(fw_bytes_per_param(&b, 4), 6 + 12.0 / 4, 1e-9);
	fw_state_bytes(FW_NXD, 2, &b); /* gen writes no ZeRO flag: it runs as 0 */
	assert_float_equal(fw_bytes_per_param(&b, 4), 18, 1e-9);
	fw_state_bytes(FW_TORCHTITAN, 0, &b);
	assert_float_equal(fw_bytes_per_param(&b, 16), 1, 1e-9);
	fw_state_bytes(FW_PLAIN, 3, &b);
	assert_float_equal(fw_bytes_per_param(&b, 4), 4, 1e-9);
}

static void platforms(void **state)
{
	(void)state;
	const struct instance_type *trn1 = catalog_find("trn1.32xlarge", 13);
	const struct instance_type *trn2 = catalog_find("trn2.48xlarge", 13);
	const struct instance_type *trn3 = catalog_find("trn3.48xlarge", 13);
	const struct instance_type *p5 = catalog_find("p5.48xlarge", 11);
	struct neuron_version r228 = { 2, 28, 1 }, r229 = { 2, 29, 0 }, r232 = { 2, 32, 0 }, r234 = { 2, 34, 0 };
	char why[512];
	assert_int_equal(fw_runs_on(FW_MEGATRON, 0, p5, NULL, why, sizeof why), FW_RUNS);
	assert_int_equal(fw_runs_on(FW_MEGATRON, 0, trn2, &r234, why, sizeof why), FW_RUNS_NOT_ON_PLATFORM);
	assert_non_null(strstr(why, "NVIDIA GPUs only"));
	assert_int_equal(fw_runs_on(FW_NXD, 0, trn1, &r228, why, sizeof why), FW_RUNS);
	assert_int_equal(fw_runs_on(FW_NXD, 0, trn1, &r229, why, sizeof why), FW_RUNS_RELEASE_TOO_NEW);
	assert_non_null(strstr(why, "2.28"));
	assert_int_equal(fw_runs_on(FW_NXD, 0, p5, NULL, why, sizeof why), FW_RUNS_NOT_ON_PLATFORM);
	assert_int_equal(fw_runs_on(FW_TORCHTITAN, 1, trn2, &r232, why, sizeof why), FW_RUNS_RELEASE_TOO_OLD);
	assert_int_equal(fw_runs_on(FW_TORCHTITAN, 1, trn2, &r234, why, sizeof why), FW_RUNS);
	assert_int_equal(fw_runs_on(FW_TORCHTITAN, 0, trn2, &r234, why, sizeof why), FW_RUNS_NOT_THIS_VERSION);
	assert_int_equal(fw_runs_on(FW_TORCHTITAN, 1, trn1, &r234, why, sizeof why), FW_RUNS_NOT_ON_ACCEL);
	assert_false(fw_ep_runs_on(FW_TORCHTITAN, trn2, 8, why, sizeof why));
	assert_true(fw_ep_runs_on(FW_TORCHTITAN, trn3, 8, why, sizeof why));
	assert_false(fw_ep_runs_on(FW_TORCHTITAN, trn3, 6, why, sizeof why));
	assert_true(fw_ep_runs_on(FW_TORCHTITAN, p5, 6, why, sizeof why));
	fw_neuron_alternatives(trn2, why, sizeof why);
	assert_non_null(strstr(why, "framework: nxd on Neuron up to 2.28"));
	assert_non_null(strstr(why, "framework: torchtitan on Neuron 2.33 or later"));
	assert_null(strstr(why, "megatron"));
}

/* The checkpoint spellings the survival work writes lines from. */
static void checkpoint_api(void **state)
{
	(void)state;
	const struct fw_checkpoint *m = fw_checkpoint(FW_MEGATRON, 0);
	assert_string_equal(m->interval, "--save-interval");
	assert_true(m->interval_required);
	assert_string_equal(m->signal_switch, "--exit-signal-handler");
	assert_int_equal(m->signal_default, 15);
	const struct fw_checkpoint *n = fw_checkpoint(FW_NXD, 0);
	assert_string_equal(n->resume_value, "latest_if_exists");
	assert_null(n->signal_switch);
	assert_string_equal(fw_checkpoint(FW_TORCHTITAN, 0)->enable, "--checkpoint.enable_checkpoint");
	assert_string_equal(fw_checkpoint(FW_TORCHTITAN, 1)->enable, "--checkpoint.enable");
	assert_null(fw_checkpoint(FW_PLAIN, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_tables),
		cmocka_unit_test(rows_are_defined),
		cmocka_unit_test(versions),
		cmocka_unit_test(megatron_accounting),
		cmocka_unit_test(memory_conventions),
		cmocka_unit_test(platforms),
		cmocka_unit_test(checkpoint_api),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
