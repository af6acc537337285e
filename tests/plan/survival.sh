#!/bin/sh
# Checkpoints as a planned quantity and what interruptions cost: each
# figure of `plan --format json` recomputed here from its inputs (the
# checkpoint's bytes by the framework's convention, FSx's 250 MB/s per
# TiB, the interruption rates, Daly's interval, the worst loss of a
# reclaim, the window of reclaim times that end past the time limit);
# the spec keys that set them; what the text and the generated files say.
# Prints RESULT lines.
# shellcheck disable=SC2015 # "A && ok || no" is an if-then-else here
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
tf_built survival || exit 0

# The reference mixed job: 1.77e11 parameters counted from its shape,
# torchtitan (12 bytes), 9600 GiB of FSx for Lustre PERSISTENT_2, 48
# reserved + 16 spot nodes, at the 12 days of the account's training
# (the example's own limit, 20 days, holds the run: checked below).
sed 's/^time_limit: 20-00:00:00/time_limit: 12-00:00:00/' examples/jobs/moe-176b-trn2-mixed.yaml >"$t/twelve.yaml"
expect_rc reference-plans 0 "$TF" plan -v --format json "$t/twelve.yaml"
py_check reference-figures "$t/out" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
c, i, l, mo = d["checkpoints"], d["interruptions"], d["deadline"], d["model"]
close = lambda a, b: abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
assert c["bytesPerParameter"] == 12 and close(c["bytes"], mo["parameters"] * 12), (c, mo)
assert close(c["writeBytesPerSecond"], 250e6 * 9600 / 1024), c
assert close(c["saveSeconds"], c["bytes"] / c["writeBytesPerSecond"]), c
# node faults of all 64 nodes, reclaims of the 16 spot ones at 0.2 a month
faults = 64 * 419 / (54 * 2048) / 86400
reclaims = 16 * 0.2 / (86400 * 365 / 12)
assert i["spotInterruptionRateAssumed"] is True and i["spotInterruptionRatePerMonth"] == 0.2, i
assert close(i["meanSecondsBetween"], 1 / (faults + reclaims)), i
# Daly 2006, eq. 37, in whole steps
delta, m = c["saveSeconds"], i["meanSecondsBetween"]
r = delta / (2 * m)
tau = math.sqrt(2 * delta * m) * (1 + math.sqrt(r) / 3 + r / 9) - delta
assert c["intervalFrom"] == "daly" and abs(c["intervalSteps"] * c["stepSeconds"] - tau) <= c["stepSeconds"], (c, tau)
# torchtitan saves on no signal (nor would a save fit in the two minutes):
# a reclaim loses an interval and the save in flight
assert c["signal"] is None and i["noticeSaves"] is False and i["noticeNeedSeconds"] > 120, (c, i)
# the line saves at the planned interval
assert mo["saveInterval"] == c["intervalSteps"] and c["steps"] == mo["trainSteps"], (mo, c)
assert close(i["reclaimLossSeconds"], c["intervalSeconds"] + c["saveSeconds"]), i
assert close(i["restartSeconds"], 600 + c["loadSeconds"]), i
# the run at 64 and at 48 nodes with the same saves, and the window
saves = c["steps"] / c["intervalSteps"] * c["saveSeconds"]
full = c["steps"] * c["stepSeconds"] + saves
f = 128 / 96
assert close(l["fullSeconds"], full) and close(l["reservedSeconds"], c["steps"] * c["stepSeconds"] * f + saves), l
assert l["timeLimitSeconds"] == 12 * 86400, l
L, R, reserved = i["reclaimLossSeconds"], i["restartSeconds"], l["reservedSeconds"]
frm = max(0, l["timeLimitSeconds"] - R - reserved)
to = min(full, ((full + L) * reserved / full + R - l["timeLimitSeconds"]) / (reserved / full - 1))
assert close(l["reclaimRiskFromSeconds"], frm) and close(l["reclaimRiskToSeconds"], to), (l, frm, to)
# the worst reclaim: the one that loses the most, at L, finishes at L + R + reserved
assert close(l["worstReclaimSeconds"], min(L, full)), l
assert close(l["worstFinishSeconds"], min(L, full) + R + reserved) and l["worstFinishSeconds"] > l["timeLimitSeconds"], l
# the whole fleet's run is already past the limit
assert full > l["timeLimitSeconds"], l
print("%.1f %.1f %.1f" % (l["worstReclaimSeconds"] / 3600, l["worstFinishSeconds"] / 3600,
                          (l["worstFinishSeconds"] - l["timeLimitSeconds"]) / 3600), file=open(sys.argv[1] + ".worst", "w"))
PY
"$TF" plan -v "$t/twelve.yaml" >"$t/text" 2>&1
has reference-text-notice '^  reclaim notice   cannot end in a checkpoint .*the job relies on the last periodic save; a reclaim loses at most .* of training' "$t/text"
has reference-text-deadline '^  deadline         the run ends past the time limit even without a reclaim' "$t/text"
read -r w_at w_end w_past <"$t/out.worst"
has reference-text-worst-reclaim "^  worst reclaim    at hour $w_at (the most training lost), the spot capacity never back: the run ends at hour $w_end, $w_past h past the time limit of 288.0 h\$" "$t/text"
has reference-text-run-time '^  run time         .* at 64 nodes, .* at the 48 reserved alone; expected .* time limit 288.0 h' "$t/text"
expect_rc reference-example-holds-its-limit 0 "$TF" lint --format concise --select JS7001,JS8001 examples/jobs/moe-176b-trn2-mixed.yaml
hasnt reference-example-no-suppression 'disable=JS7001\|disable=JS8001' examples/jobs/moe-176b-trn2-mixed.yaml

# The spec's keys: an interval, a rate, a throughput, a time limit.
with_keys() { # YAML lines added to fleet-p5 -> $t/spec.yaml
	sed 's/^capacity: {reserved: 2, spot: 2,/capacity: {reserved: 2, spot: 2, CAP/' $S/fleet-p5.yaml >"$t/spec.yaml"
	cap=$1
	shift
	sed -i "s/ CAP/ $cap/" "$t/spec.yaml"
	printf '%s\n' "$@" >>"$t/spec.yaml"
}
with_keys "" "checkpoint: {interval_minutes: 30}"
expect_rc interval-key 0 "$TF" plan -v --format json "$t/spec.yaml"
check interval-key-used '
c = d["checkpoints"]
assert c["intervalFrom"] == "checkpoint.interval_minutes", c
assert abs(c["intervalSteps"] * c["stepSeconds"] - 1800) <= c["stepSeconds"], c'
with_keys "" "time_limit: 30-00:00:00"
expect_rc long-limit 0 "$TF" plan -v --format json "$t/spec.yaml"
check long-limit-worst-within '
l, i = d["deadline"], d["interruptions"]
assert l["reclaimRiskToSeconds"] is None and 0 < l["worstFinishSeconds"] < l["timeLimitSeconds"], l
assert abs(l["worstFinishSeconds"] - (l["worstReclaimSeconds"] + i["restartSeconds"] + l["reservedSeconds"])) < 1, (l, i)'
"$TF" plan -v "$t/spec.yaml" >"$t/text" 2>&1
has long-limit-text '^  worst reclaim    at hour .* h within the time limit of 720.0 h$' "$t/text"
with_keys "spot_interruption_rate: 0.05, spot_return_hours: 2,"
expect_rc rate-key 0 "$TF" plan -v --format json "$t/spec.yaml"
check rate-key-used '
i = d["interruptions"]
assert i["spotInterruptionRatePerMonth"] == 0.05 and i["spotInterruptionRateAssumed"] is False, i
assert i["spotReturnSeconds"] == 7200, i
m = 1 / (4 * 419 / (54 * 2048) / 86400 + 2 * 0.05 / (86400 * 365 / 12))
assert abs(i["meanSecondsBetween"] - m) < 1e-6 * m, (i, m)'
with_keys "" "storage: {type: fsx-lustre, mount: /fsx, id: fs-0123456789abcdef0, write_mb_per_s: 800}"
expect_rc throughput-key 0 "$TF" plan -v --format json "$t/spec.yaml"
check throughput-key-used 'assert d["checkpoints"]["writeBytesPerSecond"] == 800e6, d["checkpoints"]'
sed 's/^capacity: .*/nodes: 4/; /^s3_buckets/d' $S/fleet-p5.yaml >"$t/spec.yaml"
printf 'capacity: {type: spot, spot_interruption_rate: 0.1}\n' >>"$t/spec.yaml"
expect_rc spot-job-rate 0 "$TF" plan -v --format json "$t/spec.yaml"
check spot-job-every-node-reclaimed '
i = d["interruptions"]
m = 1 / (4 * 419 / (54 * 2048) / 86400 + 4 * 0.1 / (86400 * 365 / 12))
assert abs(i["meanSecondsBetween"] - m) < 1e-6 * m, (i, m)'
sed 's/^capacity: .*/nodes: 4/; /^s3_buckets/d' $S/fleet-p5.yaml >"$t/spec.yaml"
printf 'capacity: {spot_interruption_rate: 0.1}\n' >>"$t/spec.yaml"
expect_rc rate-without-spot-refused 1 "$TF" plan -v "$t/spec.yaml"
has rate-without-spot-message 'spot_interruption_rate and spot_return_hours are about spot nodes' "$t/err"

# A model small enough that a save fits in the notice: the watcher sends
# the framework's signal, and a reclaim loses no training.
sed 's/^model: .*/model: {layers: 16, hidden_size: 2048, attention_heads: 32, query_groups: 8, ffn_hidden_size: 8192, vocab_size: 128256, tokens: 1e10, seq_length: 4096}/' $S/fleet-p5.yaml >"$t/small.yaml"
expect_rc small-plans 0 "$TF" plan -v --format json "$t/small.yaml"
check small-notice-saves '
i = d["interruptions"]
assert i["noticeSaves"] is True and i["noticeNeedSeconds"] <= 120 and i["reclaimLossSeconds"] == 0, i'
mkdir "$t/small" "$t/big"
"$TF" gen -o "$t/small" "$t/small.yaml" >/dev/null 2>&1
"$TF" gen -o "$t/big" $S/fleet-p5.yaml >/dev/null 2>&1
has small-watcher-signals '^signal=SIGUSR1$\|^signal=USR1$' "$t/small/fleet-p5-spot-watcher.sh"
grep -q '^signal=none$' "$t/big/fleet-p5-spot-watcher.sh" && ok big-watcher-stops-at-once || no big-watcher-stops-at-once
# The script says only what the line does.
has script-comment-true '^# Megatron-LM saves here every [0-9]* steps (--save-interval) and on SIGUSR1$' "$t/small/fleet-p5.sbatch"
hasnt script-no-resume-variable 'RESUME=' "$t/small/fleet-p5.sbatch"
exit 0
