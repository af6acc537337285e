#!/bin/sh
# trainforge plan --compare: each type sized by the same peak (the
# default), nodes or ranks, or by --deadline; the layout found for it is
# valid; a row that does not fit is never ranked first; a price is used
# only in its own region. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015,SC2016 # SC2016: a $ in a pattern is the output's, not a variable
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
REF=examples/jobs/moe-176b-trn2.yaml
DENSE=examples/jobs/llama-405b-p5.yaml

# by_name: d["estimates"] by instance; usable(): the node count
# --same nodes and --same peak take, recomputed from the inputs: the
# nearest to the target (a tie up) at which TP x PP x CP x EP divides the
# world and the global batch divides by micro x DP (DP = world / TP x PP x CP)
pre='by = {x["instance"]: x for x in d["estimates"]}
def usable(target, ppn, tp, pp, cp, ep, glob, micro):
    ok = [n for n in range(1, 4097) if (n * ppn) % (tp * pp * cp * ep) == 0
          and glob % (micro * (n * ppn // (tp * pp * cp))) == 0]
    below = max([n for n in ok if n <= target], default=0)
    above = min([n for n in ok if n > target], default=0)
    n = above if not below else below if not above else below if target - below < above - target else above
    return n, below, above
'

# ---- the same peak: node counts from the per-node peaks ------------------
expect_rc same-peak-reference-plans 0 "$TF" plan -v --format json --compare p5.48xlarge $REF
check same-peak-trn2-to-p5-rounded-to-a-usable-layout "$pre"'
ratio = 64 * (16 * 667) / (8 * 989.4)     # per-node peaks from the catalog
p5 = by["p5.48xlarge"]
# the spec: TP 8 x PP 4, no EP, global 1024, micro 1; 8 GPUs a p5 node
want, below, above = usable(ratio, 8, 8, 4, 1, 1, 1024, 1)
print("p5 nodes", p5["nodes"], "ratio", ratio, "usable", want, below, above, p5["layout"])
assert d["comparison"]["same"] == "peak" and d["comparison"]["mode"] == "same"
assert abs(p5["targetNodes"] - ratio) < 1e-6 and p5["nodes"] == want == 64
r = p5["rounding"]
assert r["keepsDegrees"] and (r["below"], r["above"]) == (below, above) == (64, 128) and r["data"] == 16
assert p5["status"] == "ok" and by["trn2.48xlarge"]["nodes"] == 64
l = p5["layout"]
assert l["specDegrees"] and not l["globalBatchChanged"] and (l["tensor"], l["pipeline"], l["data"]) == (8, 4, 16)'
check same-peak-layout-is-valid "$pre"'
l = by["p5.48xlarge"]["layout"]
world = by["p5.48xlarge"]["nodes"] * 8
model = l["tensor"] * l["pipeline"] * l["context"]
assert world % model == 0 and l["data"] == world // model
assert world % (l["expert"] * l["pipeline"] * l["tensor"]) == 0
assert l["globalBatch"] % (l["microBatch"] * l["data"]) == 0
assert 96 % l["pipeline"] == 0 and 64 % l["expert"] == 0 and l["tensor"] <= 8
assert by["p5.48xlarge"]["memory"]["fits"] is True'
expect_rc same-peak-dense-plans 0 "$TF" plan -v --format json --compare trn2.48xlarge $DENSE
# Megatron-LM does not run on Trainium: the row is sized and priced, and
# says why no layout of the spec's framework runs there.
check same-peak-p5-to-trn2-rounded "$pre"'
ratio = 32 * (8 * 989.4) / (16 * 667)
trn = by["trn2.48xlarge"]
own = by["p5.48xlarge"]["layout"]
want = usable(ratio, 64, own["tensor"], own["pipeline"], own["context"], own["expert"], own["globalBatch"], own["microBatch"])[0]
print("trn2 nodes", trn["nodes"], "ratio", ratio, "usable", want, "why", trn["why"])
assert trn["nodes"] == want and trn["status"] == "no-layout"
assert "framework: megatron cannot run on trn2.48xlarge" in trn["why"] and trn["time"]["runDays"] > 0'
"$TF" plan -v --compare p5.48xlarge $REF >"$t/text" 2>/dev/null
has same-peak-text-header 'comparison: the same peak dense BF16 as 64 x trn2.48xlarge (683 PFLOP/s), rounded to the nearest node count that keeps the spec.s degrees and global batch' "$t/text"
has same-peak-text-target 'p5.48xlarge: 86.29 nodes have the same peak, 64 taken: the nearest count (64 below, 128 above; a tie goes up) at which TP 8 x PP 4 x CP 1 x EP 1 = 32 divides the world and the global batch 1024 divides by micro 1 x DP 16' "$t/text"

# The spec's expert parallelism is kept where the framework runs it, and
# the row says why where it does not (torchtitan's EP on Neuron: Trn3
# only), with the nearest layout it runs: never DP or EP collapsed.
MIXED3=examples/jobs/moe-176b-trn3-mixed.yaml
expect_rc same-peak-ep-plans 0 "$TF" plan -v --format json --compare p5.48xlarge,trn2.48xlarge $MIXED3
check same-peak-keeps-expert-parallelism "$pre"'
own = by["trn3.48xlarge"]["layout"]
assert own["expert"] == 8
g, m = own["globalBatch"], own["microBatch"]
p5, trn2 = by["p5.48xlarge"], by["trn2.48xlarge"]
t5 = 64 * (16 * 671) / (8 * 989.4)
n5 = usable(t5, 8, 8, 4, 1, 8, g, m)[0]
print("p5", p5["nodes"], n5, p5["layout"], "trn2", trn2["nodes"], trn2["layout"], trn2["rounding"])
assert p5["nodes"] == n5 and p5["layout"]["expert"] == 8 and p5["layout"]["data"] == n5 * 8 // 32
assert p5["rounding"]["expertWhy"] is None and p5["rounding"]["expert"] == 8
assert g % (m * p5["layout"]["data"]) == 0 and not p5["layout"]["globalBatchChanged"]
n2 = usable(trn2["targetNodes"], 64, 8, 4, 1, 1, g, m)[0]
assert trn2["nodes"] == n2 and trn2["rounding"]["expert"] == 1 and trn2["layout"]["expert"] == 1
assert "runs on trn3 only" in trn2["rounding"]["expertWhy"] and "neuron_ep" in trn2["rounding"]["expertWhy"]'
"$TF" plan -v --compare p5.48xlarge,trn2.48xlarge $MIXED3 >"$t/text" 2>/dev/null
has same-peak-ep-text "trn2.48xlarge: the spec's EP 8 cannot run here (torchtitan's expert parallelism on Neuron runs on trn3 only" "$t/text"

# --same nodes: the spec's count when it keeps the degrees, else the
# nearest that does (64 p5 at DP 16 take a global batch of 1088; 64
# trn2, 64 ranks a node, would be DP 128, which does not divide it)
sed 's/^batch: {micro: 1, global: 1024}/batch: {micro: 1, global: 1088}/' examples/jobs/moe-176b-p5.yaml >"$t/g1088.yaml"
grep -q 'global: 1088' "$t/g1088.yaml" && ok same-nodes-spec-edited || no same-nodes-spec-edited
expect_rc same-nodes-rounds-plans 0 "$TF" plan -v --format json --same nodes --compare trn2.48xlarge "$t/g1088.yaml"
check same-nodes-rounded-when-the-batch-does-not-divide "$pre"'
trn = by["trn2.48xlarge"]
r = trn["rounding"]
n, below, above = usable(64, 64, 8, 4, 1, r["expert"], 1088, 1)
print("trn2", trn["nodes"], n, below, above, r)
assert n != 64 and trn["nodes"] == n and r["keepsDegrees"] and (r["below"], r["above"]) == (below, above)
assert 1088 % r["data"] == 0 and r["data"] == n * 64 // 32'

# ---- the same nodes, the same ranks --------------------------------------
expect_rc same-nodes-plans 0 "$TF" plan -v --format json --same nodes --compare p5.48xlarge,trn1.32xlarge $REF
check same-nodes-keeps-the-node-count "$pre"'
assert d["comparison"]["same"] == "nodes"
assert all(x["nodes"] == 64 for x in d["estimates"]), [x["nodes"] for x in d["estimates"]]'
expect_rc same-ranks-plans 0 "$TF" plan -v --format json --same ranks --compare p5.48xlarge,trn1.32xlarge $REF
check same-ranks-keeps-the-ranks "$pre"'
assert by["p5.48xlarge"]["nodes"] == 4096 // 8 and by["trn1.32xlarge"]["nodes"] == 4096 // 32
assert by["p5.48xlarge"]["ranks"] == 4096'

# ---- no sourced peak ---------------------------------------------------------
expect_rc no-peak-plans 0 "$TF" plan -v --format json --compare g6e.48xlarge,g7e.48xlarge,p6-b300.48xlarge $REF
check no-peak-cannot-size "$pre"'
for name in ("g6e.48xlarge", "g7e.48xlarge", "p6-b300.48xlarge"):
    r = by[name]
    assert r["status"] == "no-peak" and r["why"] == "no sourced peak: cannot size" and r["rank"] is None
    assert "nodes" not in r and "time" not in r'
"$TF" plan -v --compare p6-b300.48xlarge $REF >"$t/text" 2>/dev/null
has no-peak-text '^  -     p6-b300.48xlarge   no sourced peak: cannot size$' "$t/text"
has no-peak-text-row '^p6-b300.48xlarge: no sourced peak: cannot size (NVIDIA has published no dense BF16 figure for the B300' "$t/text"
# H200 and B200 have NVIDIA's peaks (half the figures it gives with sparsity)
expect_rc nvidia-peaks-plans 0 "$TF" plan -v --format json --compare p5en.48xlarge,p6-b200.48xlarge $REF
check nvidia-peaks-sized "$pre"'
for name, tflops in (("p5en.48xlarge", 989.5), ("p6-b200.48xlarge", 2250)):
    r = by[name]
    assert r["status"] == "ok" and abs(r["time"]["peakFlopsPerAccelerator"] - tflops * 1e12) < 1e6, r
    assert "nvidia.com" in r["time"]["peakSource"], r["time"]["peakSource"]

# ---- a provisional type is sized, marked, and its LNC is the spec's -------
expect_rc provisional-plans 0 "$TF" plan -v --format json --compare trn3.48xlarge $REF
check provisional-trn3-at-the-same-peak "$pre"'
r = by["trn3.48xlarge"]
ratio = 64 * 667 / 671
assert r["provisional"] and r["status"] == "ok" and abs(r["nodes"] - ratio) <= 1
assert r["processesPerNode"] == 64 and r["layout"]["specDegrees"] is True'
"$TF" plan -v --compare trn3.48xlarge $REF >"$t/text" 2>/dev/null
has provisional-text 'trn3.48xlarge is provisional: ' "$t/text"

# ---- a row that does not fit is never ranked first ---------------------------
# 7.5B at ZeRO 0 needs 116 GiB a rank: p4d.24xlarge (40 GiB) is the
# cheapest per run and does not fit; p5.48xlarge fits with TP 2.
# (the spec's own layout does not fit: an error, JS5020, and still the plan)
expect_rc no-fit-plans 1 "$TF" plan -v --format json --same nodes --hours 100 --compare p5.48xlarge $S/zero-7.5b-stage0.yaml
check no-fit-never-ranked-first "$pre"'
p4d, p5 = by["p4d.24xlarge"], by["p5.48xlarge"]
assert p4d["memory"]["fits"] is False and p5["memory"]["fits"] is True
assert p4d["cost"]["onDemand"]["usdPerRun"] < p5["cost"]["onDemand"]["usdPerRun"]
assert p4d["rank"] is None and p5["rank"] == 1
assert p5["layout"]["tensor"] == 2 and p5["layout"]["specDegrees"] is False'
"$TF" plan -v --same nodes --hours 100 --compare p5.48xlarge $S/zero-7.5b-stage0.yaml >"$t/text" 2>/dev/null
has no-fit-text-row '^  -     p4d.24xlarge .* NO ' "$t/text"
has no-fit-text-note 'p4d.24xlarge does NOT fit in memory at this layout (116.0 of 40.0 GiB per rank): never ranked' "$t/text"
has no-fit-text-rank '^  1     p5.48xlarge ' "$t/text"
# A ranked row of a type without a sourced peak (sized here by nodes) has
# a run cost but no cost per PFLOP-hour: "-", never a number.
"$TF" plan -v --same nodes --hours 100 --compare p6-b300.48xlarge $S/zero-7.5b-stage0.yaml >"$t/text" 2>/dev/null
has no-peak-per-pflop-hour-unknown '^  [0-9]     p6-b300.48xlarge .* \$[0-9]* *- *- *-  us-east-1$' "$t/text"

# ---- what rows are ranked by ------------------------------------------------
# Per run when every rankable row has a run length; without model.tokens
# (and without --hours), per PFLOP-hour. A type without a sourced peak
# (g6e.48xlarge) has neither, and leaves the reference ranked per run.
sed 's/^time_limit: 20-00:00:00/time_limit: 12-00:00:00/' $REF >"$t/twelve.yaml"
expect_rc rank-per-run-plans 0 "$TF" plan -v --format json --same nodes --compare p5.48xlarge,g6e.48xlarge "$t/twelve.yaml"
check rank-per-run-despite-a-type-without-peak "$pre"'
assert d["comparison"]["rankedBy"] == "usdPerRun", d["comparison"]
assert by["g6e.48xlarge"]["rank"] is None and by["g6e.48xlarge"]["time"]["runDays"] is None
# p5.48xlarge at 64 nodes runs 16 days against the 12-day time limit:
# shown, marked, not ranked
assert by["trn2.48xlarge"]["rank"] == 1 and by["p5.48xlarge"]["rank"] is None
assert by["p5.48xlarge"]["missesTimeLimit"] and by["p5.48xlarge"]["time"]["runDays"] > 12'
expect_rc rank-per-pflop-hour-plans 0 "$TF" plan -v --format json --compare p5.48xlarge $S/zero-7.5b-stage3.yaml
check rank-per-pflop-hour-without-tokens "$pre"'
assert d["comparison"]["rankedBy"] == "usdPerPflopHour", d["comparison"]
assert by["p4d.24xlarge"]["rank"] == 1 and by["p5.48xlarge"]["rank"] == 2'

# ---- --deadline --------------------------------------------------------------
expect_rc deadline-plans 0 "$TF" plan -v --format json --deadline 12 --compare p5.48xlarge,trn1.32xlarge $REF
check deadline-fewest-nodes-in-time "$pre"'
import math
assert d["comparison"]["mode"] == "deadline" and d["comparison"]["deadlineDays"] == 12
# the plan's FLOPs: torchtitan's per token, 4/3 for full recomputation
flops = d["model"]["flopsPerToken"] * 4 / 3 * d["model"]["tokens"]
own_days = by["trn2.48xlarge"]["time"]["runDays"]
for name, per_node in (("trn2.48xlarge", 16 * 667e12), ("p5.48xlarge", 8 * 989.4e12)):
    r = by[name]
    need = flops / (12 * 86400 * per_node * 0.4)
    print(name, r["nodes"], "need", need, "days", r["time"]["runDays"], r["layout"])
    assert r["status"] == "ok" and abs(r["targetNodes"] - need) < 1e-6
    assert r["nodes"] >= math.ceil(need) and r["time"]["runDays"] <= 12
    assert r["memory"]["fits"] is not False
# torchtitan on Neuron runs on trn2 and trn3: trn1 is sized, with no layout
assert by["trn1.32xlarge"]["status"] == "no-layout" and "cannot run on trn1.32xlarge" in by["trn1.32xlarge"]["why"]
assert by["trn2.48xlarge"]["nodes"] == 64 or by["trn2.48xlarge"]["nodes"] == math.ceil(64 * own_days / 12)'
"$TF" plan -v --deadline 12 --compare p5.48xlarge $REF >"$t/text" 2>/dev/null
has deadline-text-bound 'the fewest nodes that finish within 12 days at utilization 0.4, within the layout rules (searched from the count whose peak meets the deadline, at most 512 counts)' "$t/text"
expect_rc deadline-without-tokens-exit-2 2 "$TF" plan -v --deadline 12 $S/zero-7.5b-stage0.yaml
has deadline-without-tokens-message 'needs the run.s FLOPs: give model.parameters and model.tokens' "$t/err"
expect_rc deadline-with-same-exit-2 2 "$TF" plan -v --deadline 12 --same nodes $REF
expect_rc deadline-with-hours-exit-2 2 "$TF" plan -v --deadline 12 --hours 100 $REF
expect_rc deadline-zero-exit-2 2 "$TF" plan -v --deadline 0 $REF
expect_rc same-unknown-exit-2 2 "$TF" plan -v --same cores $REF
has same-unknown-message "invalid value 'cores' for --same (peak, nodes or ranks)" "$t/err"

# ---- regions: a price only where it is for -----------------------------------
expect_rc region-plans 0 "$TF" plan -v --format json examples/jobs/bert-g5.yaml
check region-price-not-used-elsewhere '
od = e["cost"]["onDemand"]
assert od["region"] == "us-west-2" and od["from"] == "none" and od["usdPerNodeHour"] is None
assert od["usdPerHour"] is None and "no on-demand price for us-west-2" in od["why"]
o = od["otherRegion"]
assert o["region"] == "us-east-1" and o["usdPerNodeHour"] == 16.288 and o["used"] is False and o["source"]
assert d["costPerHour"] is None and d["priceRegion"] is None'
"$TF" plan -v examples/jobs/bert-g5.yaml >"$t/text" 2>/dev/null
has region-text-summary 'unknown: no on-demand price for us-west-2 in the catalog or the imported prices (us-east-1: $16.29/h, not used)' "$t/text"
has region-text-nearest 'no on-demand price for us-west-2 in the catalog or the imported prices; nearest region with one: us-east-1 at $16.288/node-hour, a separate figure not used here' "$t/text"
sed 's/region: us-west-2/region: us-east-1/' examples/jobs/bert-g5.yaml >"$t/east.yaml"
expect_rc region-east-plans 0 "$TF" plan -v --format json "$t/east.yaml"
check region-price-used-in-its-region '
od = e["cost"]["onDemand"]
assert od["from"] == "catalog" and od["usdPerNodeHour"] == 16.288 and od["otherRegion"] is None
assert abs(d["costPerHour"] - 2 * 16.288) < 1e-9'

# ---- Capacity Blocks: the catalog's dated rate, in its own region only -------
# trn2.48xlarge has one Capacity Block rate, 35.7608 USD/h in us-east-2
# (2026-07-22), and no on-demand price: the reference run is priced and
# ranked by it, the summary and the row the same rate.
expect_rc cb-plans 0 "$TF" plan -v --format json --compare p5.48xlarge $REF
check cb-rate-from-the-catalog "$pre"'
cb = by["trn2.48xlarge"]["cost"]["capacityBlock"]
assert cb["from"] == "catalog" and cb["region"] == "us-east-2" and cb["usdPerNodeHour"] == 35.7608
assert cb["date"] == "2026-07-22" and "<https://github.com/koyakimu/" in cb["source"]
hours = by["trn2.48xlarge"]["cost"]["runHours"]
assert abs(cb["usdPerRun"] - 64 * 35.7608 * hours) <= 1e-6 * cb["usdPerRun"]
assert d["capacityBlockPerHour"] == cb["usdPerHour"] and d["capacityBlockRegion"] == "us-east-2"
assert by["trn2.48xlarge"]["cost"]["onDemand"]["from"] == "none"
assert by["trn2.48xlarge"]["rankPrice"] == "capacityBlock"'
sed 's/region: us-east-2/region: us-west-2/' $REF >"$t/cb-west.yaml"
expect_rc cb-elsewhere-plans 0 "$TF" plan -v --format json "$t/cb-west.yaml"
check cb-rate-not-used-elsewhere '
cb = e["cost"]["capacityBlock"]
assert cb["from"] == "none" and cb["region"] == "us-west-2" and cb["usdPerHour"] is None
o = cb["otherRegion"]
assert o["region"] == "us-east-2" and o["usdPerNodeHour"] == 35.7608 and o["used"] is False
assert d["capacityBlockPerHour"] is None and e["rank"] is None'
"$TF" plan -v --compare p5.48xlarge "$t/cb-west.yaml" >"$t/text" 2>/dev/null
has cb-elsewhere-text 'trn2.48xlarge capacity-block: no price for us-west-2; nearest region with one: us-east-2, $35.7608/node-hour (a separate figure, not in the table)' "$t/text"

# ---- discounts are the user's, labelled as such ------------------------------
sed 's/region: us-west-2/region: us-east-1/; s/^storage:/capacity: {reserved_discount: 0.4, spot_discount: 0.6}\nstorage:/' \
	examples/jobs/bert-g5.yaml >"$t/disc.yaml"
expect_rc discounts-plan 0 "$TF" plan -v --format json --hours 10 "$t/disc.yaml"
check discounts-from-on-demand '
c = e["cost"]
assert c["reserved"]["from"] == "discount" and c["reserved"]["assumption"] == "capacity.reserved_discount"
assert abs(c["reserved"]["usdPerNodeHour"] - 16.288 * 0.6) < 1e-9 and c["reserved"]["discount"] == 0.4
assert c["spot"]["from"] == "discount" and abs(c["spot"]["usdPerNodeHour"] - 16.288 * 0.4) < 1e-9
assert abs(c["spot"]["usdPerRun"] - 16.288 * 0.4 * 2 * 10) < 1e-6'
"$TF" plan -v --hours 10 "$t/disc.yaml" >"$t/text" 2>/dev/null
has discounts-text-labelled 'reserved         $19.55/h, run $195.46, unknown per PFLOP-hour delivered (on demand less 40%: the assumption capacity.reserved_discount)' "$t/text"
sed 's/^storage:/capacity: {reserved_discount: 0.4}\nstorage:/' examples/jobs/bert-g5.yaml >"$t/disc-west.yaml"
expect_rc discount-elsewhere-plan 0 "$TF" plan -v --format json "$t/disc-west.yaml"
check discount-without-a-regional-base '
r = e["cost"]["reserved"]
assert r["usdPerNodeHour"] is None and r["from"] == "none"
assert "no on-demand price for us-west-2 to take capacity.reserved_discount 0.4 from" in r["why"]'

# ---- every source a user sees is a public document ---------------------------
# Every catalog type, at the same nodes (so that each gets a full row):
# each source in the JSON and every <...> location in the text and the SVG
# is an https:// URL, none a note that does not ship with the product.
types=$(sed -n 's/^  - name: \([a-z0-9.-]*\)$/\1/p' schemas/instances.yaml | tr '\n' ',' | sed 's/,$//')
expect_rc sources-json-plans 0 "$TF" plan -v --format json --same nodes --hours 10 --compare "$types" $REF
check sources-are-public-documents '
import re
seen = 0
def walk(x, key=""):
    global seen
    if isinstance(x, dict):
        for k, v in x.items():
            walk(v, k)
    elif isinstance(x, list):
        for v in x:
            walk(v, key)
    elif isinstance(x, str) and key.lower().endswith("source"):
        seen += 1
        locs = re.findall(r"<([^>]*)>", x)
        assert locs and all(l.startswith("https://") for l in locs), (key, x)
        assert "research/" not in x, x
walk(d)
print(seen, "sources")
assert seen > 50'
"$TF" plan -v --same nodes --hours 10 --compare "$types" --svg "$t/all.svg" $REF >"$t/text" 2>/dev/null
py_check sources-in-text-and-svg-are-urls "$t/text" "$t/all.svg" <<'PY'
import re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    assert "research/" not in text, path
    for loc in re.findall(r"<([a-z][a-z0-9+.-]*:[^>\s]*)>", text):
        assert loc.startswith("https://"), (path, loc)
PY

# A type whose processes per node no source gives (trn3.48xlarge, from a
# p5 spec): its ranks are unknown, never a negative count.
expect_rc unknown-processes-plans 0 "$TF" plan --format json --compare trn3.48xlarge examples/jobs/moe-176b-p5.yaml
check unknown-processes-are-null "$pre"'
trn = by["trn3.48xlarge"]
print(trn["nodes"], trn["processesPerNode"], trn["ranks"])
assert trn["processesPerNode"] is None and trn["ranks"] is None'
"$TF" plan -v --compare trn3.48xlarge examples/jobs/moe-176b-p5.yaml >"$t/trn3" 2>&1
if grep -q ' -[0-9][0-9]* ranks\|x -1 processes' "$t/trn3" ||
	! grep -Eq '^  -     trn3\.48xlarge +[0-9]+ +\? ' "$t/trn3"; then no unknown-processes-in-text; grep trn3 "$t/trn3" | head -3
else ok unknown-processes-in-text; fi
