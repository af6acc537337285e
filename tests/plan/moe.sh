#!/bin/sh
# trainforge plan on a mixture of experts: the expert parameters split
# from the dense ones and sharded by EP, the active parameters per token
# for the FLOPs, the expert all-to-all in the network estimate, each
# against a hand computation; and one published MoE figure (Mixtral
# 8x7B's active parameters, from its architecture table). Prints RESULT
# lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
REF=examples/jobs/moe-176b-trn2.yaml

# ---- the reference example: 176B, 33B active, 64 experts, top-1 ----------
expect_rc moe-reference-plans 0 "$TF" plan --format json $REF
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
assert t["activeParameters"] == 33e9 and t["flopsPerParameterToken"] == 8
assert abs(t["totalFlops"] - 8 * 33e9 * 1e12) <= 1e-9 * t["totalFlops"]
days = 8 * 33e9 * 1e12 / (1024 * 667e12 * 0.4) / 86400
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
# Every example of the reference scenario (trn2, its mixed fleet, and
# Trainium3) states its active parameters, so none is an upper bound and
# its FLOPs count 33B per token, not 176B.
for ex in examples/jobs/moe-176b-*.yaml; do
	expect_rc "moe-example-plans/${ex##*/}" 0 "$TF" plan --format json "$ex"
	check "moe-example-active-parameters/${ex##*/}" '
m = d["model"]
assert m["parameters"] == 176e9 and m["activeParameters"] == 33e9 and m["expertSplit"] == "active-parameters"
assert e["memory"]["upperBound"] is False and e["time"]["activeParameters"] == 33e9
assert abs(e["time"]["totalFlops"] - 8 * 33e9 * 1e12) <= 1e-9 * e["time"]["totalFlops"]'
done
# On p5.48xlarge at the same nodes and degrees TP 8 fills a node, so
# every EP peer is on another node and the all-to-all crosses EFA.
expect_rc moe-p5-same-nodes-plans 0 "$TF" plan --format json --same nodes --compare p5.48xlarge $REF
check moe-all-to-all-over-efa-on-p5 '
p5 = d["estimates"][1]
n = p5["network"]
assert p5["instance"] == "p5.48xlarge" and p5["layout"]["tensor"] == 8 and p5["layout"]["expert"] == 8
assert n["allToAllPeersInNode"] == 1
assert n["allToAllEfaBytesPerRank"] == n["allToAllBytesPerRank"] > 0
want = n["allToAllEfaBytesPerRank"] / n["bytesPerSecondPerRank"]
assert abs(n["allToAllSeconds"] - want) <= 1e-8 * want'
"$TF" plan $REF >"$t/text" 2>/dev/null
has moe-text-split '^  experts          1.76e+11 parameters = 3.073e+10 dense (attention, embeddings, router: over TP x PP) + 1.453e+11 in 64 experts (over EP x TP x PP), from 3.3e+10 active with top-1 of 64 experts$' "$t/text"
has moe-text-no-upper-bound 'experts 5.675e+08; experts. ZeRO shards over 16 ranks' "$t/text"
has moe-text-all-to-all '^  all-to-all       12.68 GB per rank per step (top-1, 8 of the 8 EP peers on its node); over EFA 0 GB' "$t/text"

# ---- unsplit: experts without the top-k ----------------------------------
expect_rc moe-unsplit-plans 0 "$TF" plan --format json $S/moe-unsplit.yaml
check moe-unsplit-is-an-upper-bound '
m = e["memory"]
assert d["model"]["expertSplit"] == "unsplit" and "experts_per_token" in d["model"]["expertSplitNeeds"]
assert m["upperBound"] is True and m["parametersPerRank"] == 176e9 / 32
assert m["expertParametersPerRank"] is None
assert e["network"]["allToAllBytesPerRank"] is None
assert e["time"]["activeParameters"] == 33e9'
"$TF" plan $S/moe-unsplit.yaml >"$t/text" 2>/dev/null
has moe-unsplit-text 'split unknown (give model.experts_per_token with model.active_parameters or model.expert_ffn_hidden_size): memory counts every parameter as dense, an upper bound' "$t/text"

# ---- Mixtral 8x7B: the published active parameters -----------------------
# Jiang et al. 2024 (arXiv:2401.04088) table 1 gives the shape; Mistral AI
# (https://mistral.ai/news/mixtral-of-experts) gives 46.7B total and 12.9B
# per token, to three significant digits: within 0.05B, 0.4%.
expect_rc mixtral-plans 0 "$TF" plan --format json $S/mixtral-8x7b.yaml
check mixtral-active-parameters-published '
L, E, k, h, f = 32, 8, 2, 4096, 14336
X = L * E * 3 * h * f              # SwiGLU: three matrices per expert
active = 46.7e9 - X + X * k / E
got = d["model"]["activeParameters"]
print("active %.4g, published 12.9e9, error %.2f%%" % (got, 100 * (got - 12.9e9) / 12.9e9))
assert d["model"]["activeDerived"] is True and d["model"]["expertSplit"] == "expert-ffn"
assert abs(got - active) <= 1e-9 * active
assert abs(got - 12.9e9) <= 0.05e9'
check mixtral-flops-from-derived-active '
t = e["time"]
assert t["flopsPerParameterToken"] == 6
assert abs(t["totalFlops"] - 6 * d["model"]["activeParameters"] * 1e12) <= 1e-6 * t["totalFlops"]'
sed 's/expert_ffn_hidden_size: 14336,/expert_ffn_hidden_size: 14336, gated_ffn: false,/' $S/mixtral-8x7b.yaml >"$t/gelu.yaml"
expect_rc mixtral-ungated-plans 0 "$TF" plan --format json "$t/gelu.yaml"
check ungated-expert-has-two-matrices '
X = 32 * 8 * 2 * 4096 * 14336
assert abs(d["model"]["expertParameters"] - X) <= 1e-9 * X
assert d["assumptions"]["gatedFfn"] is False and d["assumptions"]["gatedFfnDefault"] is False'
# Experts that would hold more than the whole model are refused, not used.
sed 's/parameters: 46.7e9/parameters: 40e9/' $S/mixtral-8x7b.yaml >"$t/small.yaml"
expect_rc mixtral-inconsistent-plans 0 "$TF" plan --format json "$t/small.yaml"
check inconsistent-experts-stay-unsplit '
assert d["model"]["expertSplit"] == "unsplit" and "more than model.parameters" in d["model"]["expertSplitNeeds"]
assert e["memory"]["upperBound"] is True'
