#!/bin/sh
# trainforge plan on a mixture of experts: the expert parameters split
# from the dense ones and sharded by EP, the active parameters per token
# for the FLOPs, the expert all-to-all in the network estimate, each
# against a hand computation (from stated counts, for an entry point
# whose accounting is unknown); the reference examples counted from their
# shape by the framework's accounting (Megatron-LM's own figures for the
# p5 one); and one published MoE figure (Mixtral 8x7B's, from its
# architecture table). Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
REF=tests/plan/specs/moe-active.yaml

# ---- the reference MoE as counts: 176B, 33B active, 64 experts, top-1 ----
expect_rc moe-reference-plans 0 "$TF" plan -v --format json $REF
check moe-split-from-active-parameters '
P, A, E, k = 176e9, 33e9, 64, 1
X = E * (P - A) / (E - k)          # P = D + E e, A = D + k e
D = P - X
m = d["model"]
close = lambda x, y: abs(x - y) <= 1e-9 * abs(y)
assert m["expertSplit"] == "active-parameters" and m["activeParameters"] == A
assert close(m["expertParameters"], X) and close(m["denseParameters"], D)
print("experts %.6g dense %.6g" % (X, D))'
check moe-memory-experts-sharded-by-ep '
P, A, E, k = 176e9, 33e9, 64, 1
X = E * (P - A) / (E - k); D = P - X
tp, pp, ep, dp = 8, 4, 8, 128
d_rank, x_rank = D / (tp * pp), X / (ep * tp * pp)
x_dp = dp / ep                     # the ranks that hold the same experts
zero1 = 4 * (d_rank + x_rank) + 12 * (d_rank / dp + x_rank / x_dp)
mem = e["memory"]
close = lambda x, y: abs(x - y) <= 1e-9 * abs(y)
assert close(mem["denseParametersPerRank"], d_rank) and close(mem["expertParametersPerRank"], x_rank)
assert mem["expertDataParallel"] == x_dp and mem["upperBound"] is False
assert close(mem["zeroStageBytes"][1], zero1), (mem["zeroStageBytes"][1], zero1)
act_full = 2 * 4096 * 1 * 12288 / 8 * 96
assert close(mem["totalBytes"], zero1 + act_full) and mem["fits"] is True
print("ZeRO 1 %.4f GiB + activations %.4f GiB" % (zero1 / 2**30, act_full / 2**30))'
check moe-flops-count-active-parameters '
t = e["time"]
per_token = 6 * 33e9 + 12 * 96 * 12288 * 4096      # PaLM: 6 N + 12 L h s
total = per_token * 4 / 3 * 1e12                    # full recomputation
close = lambda x, y: abs(x - y) <= 1e-9 * abs(y)
assert t["activeParameters"] == 33e9 and close(d["model"]["attentionFlopsPerToken"], 12 * 96 * 12288 * 4096)
assert abs(t["totalFlops"] - total) <= 1e-9 * total
days = total / (1024 * 667e12 * 0.4) / 86400
assert abs(t["runDays"] - days) < 1e-9 * days'
check moe-all-to-all-bytes '
layers, pp, m, k, s, b, tp, h, ep = 96, 4, 8, 1, 4096, 1, 8, 12288, 8
want = layers / pp * m * 6 * k * (s * b / tp) * h * 2 * (ep - 1) / ep   # 6 transfers with full recompute
n = e["network"]
assert abs(n["allToAllBytesPerRank"] - want) <= 1e-9 * want, (n["allToAllBytesPerRank"], want)
# TP 8 x EP 8 = 64 ranks: the whole expert group is on one trn2 node
assert n["allToAllPeersInNode"] == 8 and n["allToAllEfaBytesPerRank"] == 0 and n["allToAllSeconds"] == 0'
check moe-gradients-over-two-groups '
P, A, E, k = 176e9, 33e9, 64, 1
X = E * (P - A) / (E - k); D = P - X
d_rank, x_rank = D / 32, X / 256
want = 2 * 127 / 128 * d_rank * 2 + 2 * 15 / 16 * x_rank * 2
assert abs(d["gradientBytesPerStep"] - want) <= 1e-9 * want'
# Every example of the reference model (trn2, its mixed fleet, Trainium3,
# p5) gives its shape: the plan counts it by its framework's accounting,
# within 2% of the 176B and 34.5B it states, and prices attention too.
for ex in examples/jobs/moe-176b-*.yaml; do
	expect_rc "moe-example-plans/${ex##*/}" 0 "$TF" plan -v --format json "$ex"
	check "moe-example-counts/${ex##*/}" '
m = d["model"]
assert m["countedFromShape"] and m["expertSplit"] == "shape"
assert abs(m["parameters"] - 176e9) <= 0.02 * m["parameters"] and abs(m["activeParameters"] - 34.5e9) <= 0.02 * m["activeParameters"]
X = 96 * 64 * 3 * 12288 * 640                       # gated experts of FFN 640
assert abs(m["expertParameters"] - X) <= 1e-9 * X
assert e["memory"]["upperBound"] is False and m["attentionFlopsPerToken"] > 0'
done
# Megatron-LM's own figures for the p5 example's line, as
# ../shared/tools/megatron_oracle.py printed them for the line gen writes
# (512 ranks): 177247647744 parameters, 34557425664 active, 13894830720
# bytes of weights, gradients and optimizer state on the most loaded rank.
expect_rc moe-p5-megatron-plans 0 "$TF" plan -v --format json examples/jobs/moe-176b-p5.yaml
check moe-p5-megatron-accounting '
m = d["model"]
close = lambda x, y: abs(x - y) <= 1e-9 * y             # JSON keeps ten digits
assert close(m["parameters"], 177247647744) and close(m["activeParameters"], 34557425664), m
assert abs(e["memory"]["zeroStageBytes"][1] - 13894830720) <= 1e-6 * 13894830720, e["memory"]["zeroStageBytes"]'
# On p5.48xlarge at the same nodes and degrees TP 8 fills a node, so
# every EP peer is on another node and the all-to-all crosses EFA.
expect_rc moe-p5-same-nodes-plans 0 "$TF" plan -v --format json --same nodes --compare p5.48xlarge $REF
check moe-all-to-all-over-efa-on-p5 '
p5 = d["estimates"][1]
n = p5["network"]
assert p5["instance"] == "p5.48xlarge" and p5["layout"]["tensor"] == 8 and p5["layout"]["expert"] == 8
assert n["allToAllPeersInNode"] == 1
assert n["allToAllEfaBytesPerRank"] == n["allToAllBytesPerRank"] > 0
want = n["allToAllEfaBytesPerRank"] / n["bytesPerSecondPerRank"]
assert abs(n["allToAllSeconds"] - want) <= 1e-8 * want'
"$TF" plan -v $REF >"$t/text" 2>/dev/null
has moe-text-split '^  experts          1.76e+11 parameters = 3.073e+10 dense (attention, embeddings, router: over TP x PP) + 1.453e+11 in 64 experts (over EP x TP x PP), from 3.3e+10 active with top-1 of 64 experts$' "$t/text"
has moe-text-no-upper-bound 'experts 5.675e+08; experts. ZeRO shards over 16 ranks' "$t/text"
has moe-text-all-to-all '^  all-to-all       12.68 GB per rank per step (top-1, 8 of the 8 EP peers on its node); over EFA 0 GB' "$t/text"

# ---- unsplit: experts without the top-k ----------------------------------
expect_rc moe-unsplit-plans 0 "$TF" plan -v --format json $S/moe-unsplit.yaml
check moe-unsplit-is-an-upper-bound '
m = e["memory"]
assert d["model"]["expertSplit"] == "unsplit" and "experts_per_token" in d["model"]["expertSplitNeeds"]
assert m["upperBound"] is True and m["parametersPerRank"] == 176e9 / 32
assert m["expertParametersPerRank"] is None
assert e["network"]["allToAllBytesPerRank"] is None
assert e["time"]["activeParameters"] == 33e9'
"$TF" plan -v $S/moe-unsplit.yaml >"$t/text" 2>/dev/null
has moe-unsplit-text 'split unknown (give model.experts_per_token with model.active_parameters or model.expert_ffn_hidden_size): memory counts every parameter as dense, an upper bound' "$t/text"

# ---- Mixtral 8x7B: the published active parameters -----------------------
# Jiang et al. 2024 (arXiv:2401.04088) table 1 gives the shape; Mistral AI
# (https://mistral.ai/news/mixtral-of-experts) gives 46.7B total and 12.9B
# per token, to three significant digits: within 0.05B, 0.4%.
expect_rc mixtral-plans 0 "$TF" plan -v --format json $S/mixtral-8x7b.yaml
check mixtral-active-parameters-published '
L, E, k, h, f = 32, 8, 2, 4096, 14336
X = L * E * 3 * h * f              # SwiGLU: three matrices per expert
got, total = d["model"]["activeParameters"], d["model"]["parameters"]
print("total %.4g, published 46.7e9; active %.4g, published 12.9e9, error %.2f%%" % (total, got, 100 * (got - 12.9e9) / 12.9e9))
assert d["model"]["activeDerived"] is True and d["model"]["expertSplit"] == "shape"
assert abs(d["model"]["expertParameters"] - X) <= 1e-9 * X
assert abs(got - (total - X + X * k / E)) <= 1e-9 * got
assert abs(got - 12.9e9) <= 0.05e9 and abs(total - 46.7e9) <= 0.05e9'
check mixtral-flops-from-the-shape '
t = e["time"]
assert "num_floating_point_operations" in d["model"]["flopsConvention"]
assert abs(t["totalFlops"] - d["model"]["flopsPerToken"] * 1e12) <= 1e-6 * t["totalFlops"]'
sed 's/expert_ffn_hidden_size: 14336,/expert_ffn_hidden_size: 14336, gated_ffn: false,/; s/parameters: 46.7e9, //' $S/mixtral-8x7b.yaml >"$t/gelu.yaml"
expect_rc mixtral-ungated-plans 0 "$TF" plan -v --format json "$t/gelu.yaml"
check ungated-expert-has-two-matrices '
X = 32 * 8 * 2 * 4096 * 14336
assert abs(d["model"]["expertParameters"] - X) <= 1e-9 * X
assert d["assumptions"]["gatedFfn"] is False and d["assumptions"]["gatedFfnDefault"] is False'
# A stated count the shape does not hold is refused, with the gap.
sed 's/parameters: 46.7e9/parameters: 40e9/' $S/mixtral-8x7b.yaml >"$t/small.yaml"
expect_rc mixtral-inconsistent-refused 1 "$TF" plan -v --format json "$t/small.yaml"
has mixtral-inconsistent-names-the-gap 'model.parameters is 4e+10, but the shape counts 4.67e+10 by Megatron-LM.s compute_weight_and_optimizer_memory .*: 14.4% apart (more than 2%) \[JS4012\]' "$t/err"
# Stated counts that do not fit together (more active than in all) leave
# the experts unsplit, an upper bound.
sed 's/parameters: 176e9/parameters: 30e9/' $REF >"$t/small.yaml"
expect_rc moe-inconsistent-counts-plans 0 "$TF" plan -v --format json "$t/small.yaml"
check inconsistent-counts-stay-unsplit '
assert d["model"]["expertSplit"] == "unsplit" and "do not fit together" in d["model"]["expertSplitNeeds"], d["model"]
assert e["memory"]["upperBound"] is True'
