/* framework: plain: an entry point trainforge writes no flags for. It
 * is given the spec's entry.args alone, runs wherever its author made
 * it run, and builds whatever model it builds: no accounting of a shape
 * is its, so the plan takes model.parameters as stated, PaLM's FLOPs and
 * the ZeRO paper's bytes at the spec's stage (docs/frameworks.md,
 * "plain"). */
#include "frameworks_internal.h"

static const struct fw_version versions[] = {
	{ "any", NULL, "a plain entry point", "the spec's entry.args", NULL },
};

const struct fw_def fw_def_plain = {
	.name = "plain", .title = "plain",
	.versions = versions, .nversions = FW_N(versions),
	.expert_grid = FW_GRID_EP_PP_TP,
	.platforms = { .on = FW_ON_CUDA | FW_ON_NEURON, .neuron_versions = FW_ALL_VERSIONS },
	.flops = fw_flops_palm, .bytes = fw_bytes_zero_paper,
};
