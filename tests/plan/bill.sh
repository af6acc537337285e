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
expect_rc bill-unknown-plans 0 "$TF" plan -v --format json "$ref"
check bill-unknown-is-null '
b = d["bill"]
for k in ("onDemand", "reserved", "spot"):
    assert b["compute"][k]["usdPerRun"] is None, (k, b["compute"][k])
assert b["mixed"]["usd"] is None and b["storage"]["usdPerMonth"] is None
assert b["storage"]["usdDuringRun"] is None and b["storage"]["keptAfterRun"] is True'
check bill-capacity-block-line '
b = d["bill"]
cb = b["compute"]["capacityBlock"]
# all Capacity Block: no spot node, so the node faults alone add to the
# run with its saves: a restart and half an interval each
s, i, dl = d["checkpoints"], d["interruptions"], d["deadline"]
full = dl["fullSeconds"]
faults = i["nodeFaultsPerNodeDay"] * 64 / 86400 * full
run = full + faults * (i["restartSeconds"] + s["intervalSeconds"] / 2)
assert abs(cb["runSeconds"] - run) < 1e-6 * run, (cb, run)
assert abs(cb["usdPerRun"] - 64 * cb["usdPerNodeHour"] * run / 3600) < 1e-6 * cb["usdPerRun"], cb
assert abs(b["runSeconds"] - dl["expectedSeconds"]) < 1e-6 * run and b["runSeconds"] > run'
check bill-survival-lines '
b, s, i, dl = d["bill"], d["checkpoints"], d["interruptions"], d["deadline"]
assert b["checkpointBytes"] == s["bytes"] and b["saveSeconds"] == s["saveSeconds"]
# 177B parameters x 12 bytes (torchtitan: fp32 weights and Adam moments)
assert abs(s["bytes"] - d["model"]["parameters"] * 12) < 1e-9 * s["bytes"] and s["bytesPerParameter"] == 12
saves = s["steps"] // s["intervalSteps"]
assert b["saves"] == saves and abs(b["pauseSeconds"] - saves * s["saveSeconds"]) < 1e-6 * b["pauseSeconds"]
assert abs(b["restartSeconds"] - (dl["expectedSeconds"] - dl["fullSeconds"])) < 1e-6 * dl["fullSeconds"]
assert b["expectedReclaims"] == i["expectedReclaims"] > 0 and b["expectedFaults"] == i["expectedFaults"]
st = b["storage"]
room = 9600 * 2**30 - st["datasetBytes"]
assert abs(st["roomBytes"] - room) < 1e-9 * room and st["checkpointsFit"] == int(room // s["bytes"]) == 4, st'
expect_rc bill-unknown-text 0 "$TF" plan -v "$ref"
hasnt bill-unknown-never-zero '\$0\.00\|\$0 ' "$t/out"
has bill-storage-unknown 'storage .*9600 GiB: unknown a month' "$t/out"
has bill-time-limit-line 'time limit .*20.0 days against the run.s 13.1: meets it' "$t/out"
has bill-sizing-line 'storage sizing .*9600 GiB less the corpus holds 4 checkpoints; the run writes 49: keep at most 4' "$t/out"

# ---- the same job with the prices a user gives -----------------------------
# The figures are this test's own, not prices: each line must be the
# product of its inputs.
sed -e 's/^  spot_discount: 0.6$/  spot_discount: 0.6\n  prices: {on_demand: 40, reserved: 20}/' \
    -e 's/^storage: {type: fsx-lustre, mount: \/fsx, size_gib: 9600}/storage: {type: fsx-lustre, mount: \/fsx, size_gib: 9600, usd_per_gib_month: 0.2}/' \
    -e 's/^training: {zero_stage: 3, recompute: full}/training: {zero_stage: 3, recompute: full, compile_minutes: 30}/' \
    "$ref" >"$t/priced.yaml"
expect_rc bill-priced-plans 0 "$TF" plan -v --format json "$t/priced.yaml"
check bill-lines-recomputed '
b, s, i, dl = d["bill"], d["checkpoints"], d["interruptions"], d["deadline"]
run_s = dl["expectedSeconds"] + 30 * 60          # the expected finish + compile_minutes
assert abs(b["runSeconds"] - run_s) < 1e-6 * run_s and b["compileSeconds"] == 1800
h = run_s / 3600
# each way of buying all 64 nodes for its own expected finish: node
# faults for all, and the reclaims of 64 spot nodes at the spot rate
full, per = dl["fullSeconds"], i["restartSeconds"] + s["intervalSeconds"] / 2
faults = i["nodeFaultsPerNodeDay"] * 64 / 86400 * full
plain = full + faults * per + 1800
spot = plain + 64 * i["spotInterruptionRatePerMonth"] / (86400 * 365 / 12) * full * per
c = b["compute"]
for k, rate, t in (("onDemand", 40, plain), ("reserved", 20, plain), ("spot", 40 * 0.4, spot)):
    assert abs(c[k]["runSeconds"] - t) < 1e-6 * t, (k, c[k], t)
    assert abs(c[k]["usdPerRun"] - 64 * rate * t / 3600) < 1e-6 * c[k]["usdPerRun"], (k, c[k])
# the mixed fleet: the reserved part every hour, the spot part less the
# hours its 16-node unit is away after each expected reclaim
m = b["mixed"]
lost = i["expectedReclaims"] * 16 * i["spotReturnSeconds"] / 3600
assert abs(m["spotLostNodeHours"] - lost) < 1e-6 * lost and lost > 0
assert abs(m["reservedUsd"] - 48 * 20 * h) < 1e-6 * m["reservedUsd"], m
assert abs(m["spotUsd"] - 40 * 0.4 * (16 * h - lost)) < 1e-6 * m["spotUsd"], m
assert abs(m["usd"] - m["reservedUsd"] - m["spotUsd"]) < 1e-6 * m["usd"]
# the overheads at the fleet rate (48 x 20 + 16 x 16 an hour)
assert b["fleetUsdPerHour"] == 48 * 20 + 16 * 16
assert abs(b["pauseUsd"] - b["fleetUsdPerHour"] * b["pauseSeconds"] / 3600) < 1e-6 * b["pauseUsd"]
assert abs(b["restartUsd"] - b["fleetUsdPerHour"] * b["restartSeconds"] / 3600) < 1e-6 * b["restartUsd"]
st = b["storage"]
assert abs(st["usdPerMonth"] - 9600 * 0.2) < 1e-9 and st["hoursPerMonth"] == 730
assert abs(st["usdDuringRun"] - 9600 * 0.2 * h / 730) < 1e-6
assert st["bytesPerToken"] == 2 and abs(st["datasetBytes"] - 0.8e12 * 2) < 1'
cp "$t/out" "$t/json"
# docs/plan.md's worked example quotes these figures of the same spec
m=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["bill"]; print("%s %s %s" % tuple(format(round(v), ",") for v in (b["mixed"]["usd"], b["mixed"]["reservedUsd"], b["compute"]["onDemand"]["usdPerRun"])))' "$t/json")
# shellcheck disable=SC2086 # three words
set -- $m
has bill-docs-blend "| the mixed fleet | \*\*\$$1\*\* |" docs/plan.md
has bill-docs-reserved-part "| reserved part | \$$2 |" docs/plan.md
has bill-docs-on-demand "| all on demand | \$$3 |" docs/plan.md
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
expect_rc bill-exposed-plans 0 "$TF" plan -v --format json "$t/exposed.yaml"
check bill-exposed-adds-to-step '
n, t = e["network"], e["time"]
comm = n["gradientSeconds"] + n["pipelineSeconds"] + n["allToAllSeconds"]
assert abs(n["communicationSeconds"] - comm) < 1e-9 and comm > n["computeStepSeconds"] > 0, n
assert abs(n["exposedCommunicationSeconds"] - (comm - n["computeStepSeconds"])) < 1e-9
assert abs(t["stepSeconds"] - comm) < 1e-9
assert abs(t["runSeconds"] - t["steps"] * comm) < 1e-6 * t["runSeconds"]
b = d["bill"]
assert abs(b["exposedCommunicationSeconds"] - t["steps"] * (comm - n["computeStepSeconds"])) < 1e-6 * b["exposedCommunicationSeconds"]'

expect_rc bill-priced-text 0 "$TF" plan -v "$t/priced.yaml"
has bill-text-after-run 'after the run .*\$1920 a month' "$t/out"
has bill-text-compile 'compile 0.50 h (training.compile_minutes, your figure)' "$t/out"

# ---- deadlines -----------------------------------------------------------------
# The expected finish (13.1 days: the compute, the pauses, the restarts)
# against a 13.5-day limit: within 10%; the run at every node with its
# saves (12.4 days) is within it, so JS7001 says nothing of it.
sed -e 's/^time_limit: 20-00:00:00/time_limit: 13-12:00:00/' "$ref" >"$t/short.yaml"
expect_rc bill-near-limit-lints 1 "$TF" lint --format concise --select JS8001 "$t/short.yaml"
has bill-near-limit-finding 'the run is expected to take 13.1 days (the compute 11.9, the checkpoint pauses, the restarts at the interruption rate), within 10% of the time limit of 13.5 days.*\[JS8001\]' "$t/out"
# Past the limit at every node: JS7001's, not JS8001 again
sed -e 's/^time_limit: 20-00:00:00/time_limit: 12-00:00:00/' "$ref" >"$t/past.yaml"
expect_rc bill-past-limit-lints 1 "$TF" lint --format concise "$t/past.yaml"
has bill-past-limit-js7001 'past the time limit of 288.0 h.*\[JS7001\]' "$t/out"
hasnt bill-past-limit-once 'JS8001' "$t/out"
sed -e 's/^time_limit: 20-00:00:00/time_limit: 12-00:00:00/' -e 's/^  type: reservation$/  type: capacity-block\n  block_hours: 288/' "$ref" >"$t/block.yaml"
expect_rc bill-block-lints 1 "$TF" lint --format concise --select JS8002 "$t/block.yaml"
has bill-block-finding 'the Capacity Block lasts 288 h.*287.0 h are left for the job, and its time limit is 288.0 h.*\[JS8002\]' "$t/out"
expect_rc bill-block-plans 0 "$TF" plan -v --format json "$t/block.yaml"
check bill-block-usable '
dl = d["bill"]["deadlines"]
assert dl["blockSeconds"] == 288 * 3600 and dl["blockUsableSeconds"] == 288 * 3600 - 1800 - 1800, dl'

# ---- comparisons: a row past the time limit is shown, not ranked ---------------
sed -e 's/^time_limit: 20-00:00:00/time_limit: 12-00:00:00/' examples/jobs/moe-176b-trn2.yaml >"$t/twelve.yaml"
expect_rc bill-compare-plans 0 "$TF" plan -v --format json --same nodes --compare trn2.48xlarge,p5.48xlarge "$t/twelve.yaml"
json_check bill-compare-past-limit-not-ranked "$t/out" '
limit = 12 * 86400
for r in d["estimates"]:
    run = r["time"]["runSeconds"]
    assert r["missesTimeLimit"] == (run > limit), (r["missesTimeLimit"], run)
    if r["missesTimeLimit"]:
        assert r["rank"] is None, r["rank"]
assert any(r["missesTimeLimit"] for r in d["estimates"]) and any(r["rank"] == 1 for r in d["estimates"])'
