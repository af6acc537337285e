/* What the framework files share with the dispatcher (frameworks.c) and
 * nothing else: each file's definition, and the accounting of a plain
 * decoder that several of them use. */
#ifndef TF_FRAMEWORKS_INTERNAL_H
#define TF_FRAMEWORKS_INTERNAL_H

#include "frameworks.h"

#define FW_N(a) (sizeof (a) / sizeof (a)[0])

extern const struct fw_def fw_def_plain, fw_def_megatron, fw_def_nxd, fw_def_torchtitan;

/* megatron_args.c: every flag of the pinned Megatron-LM. */
extern const struct fw_known_table fw_megatron_known;

/* One decoder layer's parameters as an accounting counts them: all but
 * its routed experts (attention, norms, dense FFN, router), of which
 * replicated is what TP does not divide (norms, router); its routed
 * experts, and of them what one token passes through. */
struct fw_layer {
	double dense, replicated, experts, active_experts;
};
/* The sums every accounting ends with: the shape's layers of *layer,
 * the final norm, the input embedding of the vocabulary as padded (and
 * the output layer when untied). Sets all of *out but its accounting and
 * source. */
void fw_params_sum(const struct fw_shape *s, const struct fw_layer *layer, double final_norm,
		   double padded_vocab, struct fw_params *out);

/* A Llama-style decoder as Hugging Face's modeling code builds it
 * (RMSNorm with a weight only, no biases, separate q, k, v and o
 * projections): the accounting of the frameworks that run such models
 * (NxD's modeling_llama_nxd.py, torchtitan's models, a plain script). */
bool fw_count_decoder(const struct fw_shape *s, struct fw_params *out);
/* 6 N + 12 L h s per token (PaLM, Chowdhery et al. 2022, appendix B):
 * N the parameters a token passes through but the input embedding, the
 * attention over the whole sequence with no causal halving. */
void fw_flops_palm(const struct fw_shape *s, const struct fw_params *p, struct fw_flops *out);
/* The ZeRO paper's mixed-precision Adam: 2 bytes of 16-bit weights, 2
 * of 16-bit gradients, 12 of fp32 master weights and moments; stage 1
 * divides the optimizer state over DP, 2 also the gradients, 3 also the
 * weights (Rajbhandari et al. 2020). */
void fw_bytes_zero_paper(int zero_stage, struct fw_bytes *out);

#endif
