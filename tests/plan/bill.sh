#!/bin/sh
# The bill: each line recomputed from its inputs (the nodes, the run
# hours, the rates, the storage price), the unknown price shown as
# unknown and null, never $0; the network under FSDP and its overlap;
# the time limit and Capacity Block checks. Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
ref=examples/jobs/moe-176b-trn2-mixed.yaml

# ---- the reference mixed job with its prices unknown ----------------------
expect_rc bill-unknown-plans 0 "$TF" plan --format json "$ref"
check bill-unknown-is-null '
b = d["bill"]
for k in ("onDemand", "reserved", "spot"):
    assert b["compute"][k]["usdPerRun"] is None, (k, b["compute"][k])
assert b["mixed"]["usd"] is None and b["storage"]["usdPerMonth"] is None
assert b["storage"]["usdDuringRun"] is None and b["storage"]["keptAfterRun"] is True'
check bill-capacity-block-line '
b = d["bill"]
cb = b["compute"]["capacityBlock"]
hours = b["runSeconds"] / 3600
assert abs(cb["usdPerRun"] - 64 * cb["usdPerNodeHour"] * hours) < 1e-6 * cb["usdPerRun"], cb
assert abs(b["runSeconds"] - e["time"]["runSeconds"]) < 1e-6'
expect_rc bill-unknown-text 0 "$TF" plan "$ref"
hasnt bill-unknown-never-zero '\$0\.00\|\$0 ' "$t/out"
has bill-storage-unknown 'storage .*9600 GiB: unknown a month' "$t/out"
has bill-time-limit-line 'time limit .*12.0 days against the run.s 11.9: within 10% of it (JS8001)' "$t/out"

# ---- the same job with the prices a user gives -----------------------------
# The figures are this test's own, not prices: each line must be the
# product of its inputs.
sed -e 's/^  spot_discount: 0.6$/  spot_discount: 0.6\n  prices: {on_demand: 40, reserved: 20}/' \
    -e 's/^storage: {type: fsx-lustre, mount: \/fsx, size_gib: 9600}/storage: {type: fsx-lustre, mount: \/fsx, size_gib: 9600, usd_per_gib_month: 0.2}/' \
    -e 's/^training: {zero_stage: 3, recompute: full}/training: {zero_stage: 3, recompute: full, compile_minutes: 30}/' \
    "$ref" >"$t/priced.yaml"
expect_rc bill-priced-plans 0 "$TF" plan --format json "$t/priced.yaml"
check bill-lines-recomputed '
b = d["bill"]
run_s = e["time"]["runSeconds"] + 30 * 60          # compute + compile_minutes
assert abs(b["runSeconds"] - run_s) < 1e-6 and b["compileSeconds"] == 1800
h = run_s / 3600
c = b["compute"]
assert abs(c["onDemand"]["usdPerRun"] - 64 * 40 * h) < 1e-6 * 64 * 40 * h, c
assert abs(c["reserved"]["usdPerRun"] - 64 * 20 * h) < 1e-6 * 64 * 20 * h, c
assert abs(c["spot"]["usdPerRun"] - 64 * 40 * 0.4 * h) < 1e-6 * 64 * 16 * h, c
m = b["mixed"]
assert abs(m["reservedUsd"] - 48 * 20 * h) < 1e-6 * m["reservedUsd"], m
assert abs(m["spotUsd"] - 16 * 40 * 0.4 * h) < 1e-6 * m["spotUsd"], m
assert abs(m["usd"] - m["reservedUsd"] - m["spotUsd"]) < 1e-6 * m["usd"]
s = b["storage"]
assert abs(s["usdPerMonth"] - 9600 * 0.2) < 1e-9 and s["hoursPerMonth"] == 730
assert abs(s["usdDuringRun"] - 9600 * 0.2 * h / 730) < 1e-6
assert s["bytesPerToken"] == 2 and abs(s["datasetBytes"] - 0.8e12 * 2) < 1'
cp "$t/out" "$t/json"
# ---- the network under FSDP: once per node, and overlap ----------------------
check bill-fsdp-gradient-efa-bytes '
n = e["network"]
# torchtitan, ZeRO 3, PP 4: a reduce-scatter of fp32 gradients and one
# all-gather of bf16 weights a step: (4 + 2) (n - 1)/n bytes a parameter;
# the dense shard over DP 128 (8 of them on a 64-rank node at TP 8), the
# experts over the 1024 ranks of a stage (64 on a node)
dense, expert = e["memory"]["denseParametersPerRank"], e["memory"]["expertParametersPerRank"]
want = 6 * 127 / 128 * dense + 6 * 1023 / 1024 * expert
assert abs(n["gradientBytesPerRank"] - want) < 1e-9 * want, (n["gradientBytesPerRank"], want)
efa = 6 * 127 / 128 * dense / 8 + 6 * 1023 / 1024 * expert / 64
assert abs(n["gradientEfaBytesPerRank"] - efa) < 1e-9 * efa
assert abs(n["gradientSeconds"] - efa / n["bytesPerSecondPerRank"]) < 1e-9
assert n["exposedCommunicationSeconds"] == 0 and n["communicationSeconds"] < n["computeStepSeconds"]'
# The same model at 64 on-demand nodes with a global batch of 128 (one
# micro-batch a step) at utilization 0.8: the compute of a step is shorter
# than its communication, and the step grows by what does not overlap.
sed -e 's/^batch: {micro: 1, global: 1536}/batch: {micro: 1, global: 128}/' \
    -e '/reserved: 48/d;/spot: 16/d;/max_restarts/d;/spot_discount/d;/disable=JS2014/d;/reservation_id/d' \
    -e 's/^  type: reservation/  type: ondemand/' -e 's/^instance: trn2.48xlarge/instance: trn2.48xlarge\nnodes: 64/' \
    -e 's/^training: {zero_stage: 3, recompute: full}/training: {zero_stage: 3, recompute: full, utilization: 0.8}/' \
    "$ref" >"$t/exposed.yaml"
expect_rc bill-exposed-plans 0 "$TF" plan --format json "$t/exposed.yaml"
check bill-exposed-adds-to-step '
n, t = e["network"], e["time"]
comm = n["gradientSeconds"] + n["pipelineSeconds"] + n["allToAllSeconds"]
assert abs(n["communicationSeconds"] - comm) < 1e-9 and comm > n["computeStepSeconds"] > 0, n
assert abs(n["exposedCommunicationSeconds"] - (comm - n["computeStepSeconds"])) < 1e-9
assert abs(t["stepSeconds"] - comm) < 1e-9
assert abs(t["runSeconds"] - t["steps"] * comm) < 1e-6 * t["runSeconds"]
b = d["bill"]
assert abs(b["exposedCommunicationSeconds"] - t["steps"] * (comm - n["computeStepSeconds"])) < 1e-6 * b["exposedCommunicationSeconds"]'

expect_rc bill-priced-text 0 "$TF" plan "$t/priced.yaml"
has bill-text-after-run 'after the run .*\$1920 a month' "$t/out"
has bill-text-compile 'compile 0.50 h (training.compile_minutes, your figure)' "$t/out"

# ---- deadlines -----------------------------------------------------------------
sed -e 's/^time_limit: 12-00:00:00/time_limit: 10-00:00:00/' -e '/disable=JS8001/d' "$ref" >"$t/short.yaml"
expect_rc bill-past-limit-lints 1 "$TF" lint --format concise "$t/short.yaml"
has bill-past-limit-finding 'past the time limit of 10.0 days: Slurm ends the job before the training does \[JS8001\]' "$t/out"
sed -e 's/^  type: reservation$/  type: capacity-block\n  block_hours: 288/' -e '/disable=JS8001/d' "$ref" >"$t/block.yaml"
expect_rc bill-block-lints 1 "$TF" lint --format concise "$t/block.yaml"
has bill-block-finding 'the Capacity Block lasts 288 h.*287.0 h are left for the job, and its time limit is 288.0 h.*\[JS8002\]' "$t/out"
expect_rc bill-block-plans 0 "$TF" plan --format json "$t/block.yaml"
check bill-block-usable '
dl = d["bill"]["deadlines"]
assert dl["blockSeconds"] == 288 * 3600 and dl["blockUsableSeconds"] == 288 * 3600 - 1800 - 1800, dl'

# ---- comparisons: a row past the time limit is shown, not ranked ---------------
expect_rc bill-compare-plans 0 "$TF" plan --format json --same nodes --compare trn2.48xlarge,p5.48xlarge examples/jobs/moe-176b-trn2.yaml
json_check bill-compare-past-limit-not-ranked "$t/out" '
limit = 12 * 86400
for r in d["estimates"]:
    run = r["time"]["runSeconds"]
    assert r["missesTimeLimit"] == (run > limit), (r["missesTimeLimit"], run)
    if r["missesTimeLimit"]:
        assert r["rank"] is None, r["rank"]
assert any(r["missesTimeLimit"] for r in d["estimates"]) and any(r["rank"] == 1 for r in d["estimates"])'
