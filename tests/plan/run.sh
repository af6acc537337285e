#!/bin/sh
# trainforge plan: estimates against published results (Narayanan et al.
# 2021 for time, Rajbhandari et al. 2020 for ZeRO memory, Korthikanti et
# al. 2022 for activations), unknown figures shown as unknown, the
# --compare and --svg flags, and their diagnostics. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh

# ---- time: Narayanan et al. 2021, eq. 4, 8 T P / (n X) -----------------
expect_rc gpt3-175b-plans 0 "$TF" plan -v --format json $S/gpt3-175b.yaml
check narayanan-gpt3-175b-34-days '
days = e["time"]["runDays"]
print("days", days, "error %.2f%%" % (100 * (days - 34) / 34))
# the FLOPs of Megatron-LM (num_floating_point_operations): the paper is 8
# per parameter with full recomputation, and attention over 2048 tokens
# (1.4% more at hidden 12288)
assert e["accelerators"] == 1024 and 8 < e["time"]["flopsPerParameterToken"] < 8.2
assert d["model"]["attentionFlopsPerToken"] > 0 and "num_floating_point_operations" in d["model"]["flopsConvention"]
assert abs(e["time"]["achievedFlops"] / 1024 / 1e12 - 140) < 0.1
assert abs(days - 34) / 34 < 0.05'
expect_rc gpt-1t-plans 0 "$TF" plan -v --format json $S/gpt-1t.yaml
check narayanan-1t-84-days '
days = e["time"]["runDays"]
print("days", days, "error %.2f%%" % (100 * (days - 84) / 84))
assert e["accelerators"] == 3072
assert abs(e["time"]["achievedFlops"] / 3072 / 1e12 - 163) < 0.1
assert abs(days - 84) / 84 < 0.05'
check narayanan-1t-run-cost-is-hours-times-price '
c = e["cost"]
assert c["runHoursFrom"] == "estimate"
assert abs(c["runHours"] - e["time"]["runSeconds"] / 3600) < 1e-6
assert abs(c["onDemand"]["usdPerRun"] - 384 * 21.957642 * c["runHours"]) < 1e-3 * c["onDemand"]["usdPerRun"]'
# The same spec without full recomputation: 6 instead of 8 FLOPs per
# parameter (and attention), three quarters of the time.
sed 's/recompute: full/recompute: selective/' $S/gpt3-175b.yaml >"$t/sel.yaml"
expect_rc gpt3-selective-plans 0 "$TF" plan -v --format json "$t/sel.yaml"
check six-flops-without-full-recompute '
assert 6 < e["time"]["flopsPerParameterToken"] < 6.15
assert abs(e["time"]["runDays"] - 34.172 * 6 / 8) < 0.05'

# ---- memory: ZeRO (Rajbhandari et al. 2020, figure 1) ------------------
# 7.5B parameters, DP 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB per device.
# Stage 0 does not fit a 40 GiB A100: an error (JS5020), and the plan is
# still printed.
for stage in 0 1 2 3; do
	want=0
	[ $stage = 0 ] && want=1
	expect_rc zero-stage$stage-plans $want "$TF" plan -v --format json $S/zero-7.5b-stage$stage.yaml
	check zero-7.5b-stage$stage-paper "
paper = [120, 31.4, 16.6, 1.9]
got = [x / 1e9 for x in e['memory']['zeroStageBytes']]
print(got)
assert all(abs(g - p) / p < 0.02 for g, p in zip(got, paper))
assert got[0] == 120.0
m = e['memory']
assert abs(m['weightsBytes'] + m['gradientsBytes'] + m['optimizerBytes'] - m['zeroStageBytes'][$stage]) < 1
assert d['assumptions']['zeroStage'] == $stage"
done
check zero-7.5b-stage3-fits-a100-40gib '
m = e["memory"]
assert m["capacityBytes"] == 40 * 2**30 and m["fits"] is True'
"$TF" plan -v --format json $S/zero-7.5b-stage0.yaml >"$t/out" 2>/dev/null
check zero-7.5b-stage0-does-not-fit '
assert e["memory"]["fits"] is False'
"$TF" plan -v $S/zero-7.5b-stage0.yaml >"$t/text" 2>/dev/null
grep -q 'per rank: does NOT fit$' "$t/text" && ok text-says-does-not-fit || no text-says-does-not-fit
grep -q 'stages 0-3: 111.76, 29.25, 15.50, 1.75 GiB' "$t/text" && ok text-shows-every-stage || no text-shows-every-stage

# ---- memory: activations (Korthikanti et al. 2022) ---------------------
"$TF" plan -v --format json $S/gpt3-175b.yaml >"$t/out" 2>/dev/null
check korthikanti-activations '
s, b, h, a, t, L = 2048, 1, 12288, 96, 8, 96
act = e["memory"]["activationsBytes"]
close = lambda x, y: abs(x - y) <= 1e-8 * y
assert close(act["none"], s*b*h*(34 + 5*a*s/h)/t*L)
assert close(act["selective"], 34*s*b*h/t*L)
assert close(act["full"], 2*s*b*h/t*L)
m = e["memory"]
assert close(m["totalBytes"], m["zeroStageBytes"][1] + act["full"])'

# ---- network, bubble -----------------------------------------------------
check network-and-bubble-fractions '
n = e["network"]
assert n["efaGbps"] == 400 and n["efaSource"]
assert abs(n["bytesPerSecondPerRank"] - 400e9 / 8 / 8) < 1
assert abs(n["gradientFraction"] - n["gradientSeconds"] / e["time"]["stepSeconds"]) < 1e-9
assert n["pipelineBytesPerRank"] > 0 and 0 < n["pipelineFraction"] < 1
assert abs(n["bubbleFraction"] - 7 / (96 + 7)) < 1e-9'

# ---- sources and unknowns ------------------------------------------------
check every-known-figure-has-a-source '
assert e["time"]["peakSource"] and "arxiv.org/abs/2104.04473" in e["time"]["peakSource"]
assert e["memory"]["capacitySource"] and "ecs-gpu" in e["memory"]["capacitySource"]
assert e["cost"]["onDemand"]["source"] and e["cost"]["onDemand"]["date"] == "2026-07-20"
for k in ("spot", "reserved"):
    assert e["cost"][k]["usdPerHour"] is None and e["cost"][k]["source"] is None'
expect_rc compare-plans 0 "$TF" plan -v --format json --same ranks --compare g6e.48xlarge,p5e.48xlarge,trn2u.48xlarge $S/gpt3-175b.yaml
check compare-unknown-figures-are-null '
by = {x["instance"]: x for x in d["estimates"]}
assert [x["instance"] for x in d["estimates"]] == ["p4d.24xlarge", "g6e.48xlarge", "p5e.48xlarge", "trn2u.48xlarge"]
assert by["p4d.24xlarge"]["own"] and not by["g6e.48xlarge"]["own"]
g = by["g6e.48xlarge"]
assert g["time"]["peakFlopsPerAccelerator"] is None and g["time"]["runDays"] is None and g["time"]["peakSource"] is None
assert g["cost"]["onDemand"]["usdPerPflopHour"] is None and g["cost"]["onDemand"]["usdPerHour"] is not None
p5e = by["p5e.48xlarge"]
# H200: half the 1,979 TFLOPS NVIDIA gives with sparsity (schemas/instances.yaml)
assert abs(p5e["memory"]["capacityBytes"] - 144384 * 2**20) < 1e3 and abs(p5e["time"]["peakFlopsPerAccelerator"] - 989.5e12) < 1e6
assert p5e["cost"]["onDemand"]["usdPerHour"] is None
trn = by["trn2u.48xlarge"]
assert trn["nodes"] == 16 and trn["processesPerNode"] == 64
assert trn["cost"]["onDemand"]["usdPerRun"] is None and trn["time"]["runDays"] is not None'
"$TF" plan -v --same ranks --compare g6e.48xlarge $S/gpt3-175b.yaml >"$t/text" 2>/dev/null
grep -q 'throughput       unknown: the catalog has no peak BF16 throughput for L40S' "$t/text" &&
	ok text-unknown-peak-named || no text-unknown-peak-named
grep -q '^  -     g6e.48xlarge  .* - ' "$t/text" && ok text-table-marks-unknown || no text-table-marks-unknown
grep -q '^  spot             unknown: no spot price in the catalog or the imported prices: import one (trainforge prices import) or give capacity.prices.spot or capacity.spot_discount$' "$t/text" &&
	grep -q '^  reserved         unknown: no reserved price in the catalog or the imported prices: import one (trainforge prices import) or give capacity.prices.reserved or capacity.reserved_discount$' "$t/text" &&
	ok text-missing-prices || no text-missing-prices
"$TF" plan -v --compare g6e.48xlarge $S/gpt3-175b.yaml >"$t/text" 2>/dev/null
grep -q '^g6e.48xlarge: no sourced peak: cannot size$' "$t/text" &&
	grep -q '^  -     g6e.48xlarge       no sourced peak: cannot size$' "$t/text" &&
	ok same-peak-cannot-size-without-a-peak || no same-peak-cannot-size-without-a-peak
expect_rc minimal-plans 0 "$TF" plan -v --format json $S/minimal.yaml
check minimal-everything-unknown '
assert d["assumptions"]["utilizationDefault"] and d["assumptions"]["utilization"] == 0.4
assert e["memory"]["parametersPerRank"] is None and e["time"]["runDays"] is None
assert e["cost"]["runHours"] is None and e["cost"]["onDemand"]["usdPerRun"] is None'
"$TF" plan -v $S/minimal.yaml >"$t/text" 2>/dev/null
grep -q 'memory/rank      unknown: give model.parameters' "$t/text" && grep -q 'run unknown: give model.tokens' "$t/text" &&
	grep -q 'utilization 0.4 of peak dense BF16 in hardware FLOPs (default, an assumption; set training.utilization)' "$t/text" &&
	ok text-states-defaults-and-unknowns || no text-states-defaults-and-unknowns
# Each formula names a document a user can open, in the text and the JSON.
has text-formula-sources '^                   full recomputation: Narayanan et al. 2021, SC21, eq. 4 (the forward pass again: 8 FLOPs per parameter per token, not 6) <https://arxiv.org/abs/2104.04473>$' "$t/text"
"$TF" plan -v --format json $S/minimal.yaml >"$t/out" 2>/dev/null
check formula-sources-are-urls '
fs = {x["formula"]: x["source"] for x in d["formulaSources"]}
assert sorted(fs) == ["activations", "expert shards", "full recomputation", "model states", "utilization"], fs
import re
assert all(re.search(r"<https://[^>]+>$", s) for s in fs.values()), fs'
expect_rc hours-plans 0 "$TF" plan -v --format json --hours 100 $S/gpt3-175b.yaml
check hours-flag-prices-the-run '
c = e["cost"]
assert c["runHoursFrom"] == "--hours" and c["runHours"] == 100
assert abs(c["onDemand"]["usdPerRun"] - 100 * 128 * 21.957642) < 1e-6'

# ---- diagnostics ---------------------------------------------------------
expect_rc tokens-without-parameters-exit-1 1 "$TF" plan -v $S/no-params.yaml
grep -q "no-params.yaml:5:17: error: model.tokens asks for the run's time and cost, but model.parameters is missing (and the shape that would count them) \[JS2013\]" "$t/err" &&
	ok tokens-without-parameters-position || no tokens-without-parameters-position
[ ! -s "$t/out" ] && ok tokens-without-parameters-no-plan || no tokens-without-parameters-no-plan
expect_rc compare-unknown-type-exit-2 2 "$TF" plan -v --compare p5.48xlarge,p9.48xlarge $S/gpt3-175b.yaml
grep -q "unknown instance type 'p9.48xlarge' in --compare" "$t/err" && [ ! -s "$t/out" ] &&
	ok compare-unknown-type-message || no compare-unknown-type-message
# a name EC2 could have is never corrected to another type: the family's sizes instead
expect_rc compare-plausible-unknown 2 "$TF" plan -v --compare p5.84xlarge $S/gpt3-175b.yaml
grep -q "unknown instance type 'p5.84xlarge' in --compare (the catalog's p5 sizes: 48xlarge, 4xlarge)" "$t/err" &&
	! grep -q "did you mean" "$t/err" && ok compare-plausible-not-corrected || no compare-plausible-not-corrected
expect_rc compare-invalid-suggests 2 "$TF" plan -v --compare p5-48xlarge $S/gpt3-175b.yaml
grep -q "did you mean p5.48xlarge" "$t/err" && ok compare-invalid-suggestion || no compare-invalid-suggestion
expect_rc compare-empty-exit-2 2 "$TF" plan -v --compare p5.48xlarge, $S/gpt3-175b.yaml
expect_rc svg-unwritable-exit-2 2 "$TF" plan -v --svg "$t/no/such/dir/x.svg" $S/gpt3-175b.yaml

# ---- SVG ---------------------------------------------------------------
expect_rc svg-written 0 "$TF" plan -v --compare p5.48xlarge,g6e.48xlarge,trn1.32xlarge --svg "$t/chart.svg" $S/gpt3-175b.yaml
py_check svg-well-formed-and-complete "$t/chart.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
assert root.get("viewBox") == "0 0 960 560" and root.get("data-schema-version") == "1"
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
for name in ("p4d.24xlarge, 128 nodes", "p5.48xlarge", "trn1.32xlarge", "g6e.48xlarge (no sourced peak: cannot size)",
             "run time (days)", "cost per run (USD)"):
    assert name in texts, name
titles = [t.text for t in root.iter(ns + "title")]
points = [t for t in titles if t and ", on-demand: " in t]
assert len(points) == 3, points  # g6e has no peak, so no run time
for c in root.iter(ns + "circle"):
    assert 0 <= float(c.get("cx")) <= 960 and 0 <= float(c.get("cy")) <= 560
PY
expect_rc svg-without-data 0 "$TF" plan -v --svg "$t/empty.svg" $S/minimal.yaml
py_check svg-without-data-well-formed "$t/empty.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert any('no instance type has both' in (t.text or '') for t in r.iter('{http://www.w3.org/2000/svg}text'))
PY

# ---- a provisional type: one note, the derived figures marked -----------
T3=examples/jobs/moe-176b-trn3-mixed.yaml
expect_rc trn3-plans 0 "$TF" plan -v --format json "$T3"
check trn3-derived-figures-named '
assert d["provisional"] and "Neuron driver" in d["provisional"], d["provisional"]
assert e["provisional"] == d["provisional"]
assert sorted(e["derivedFigures"]) == ["accel_memory_gib", "efa_gbps", "memory_mib", "vcpus"], e["derivedFigures"]
assert "Gen1 UltraServer" in e["derivedNote"] and "trn3-arch.rst" in e["derivedNote"]
assert e["processesPerNode"] == 64 and d["lnc"] == 2
assert abs(e["memory"]["capacityBytes"] - 2304 * 2**30 / 64) < 1e3 and e["memory"]["fits"] is True
assert e["cost"]["onDemand"]["usdPerHour"] is None and e["cost"]["capacityBlock"]["usdPerHour"] is None'
grep -c 'JS1005' "$t/err" | grep -qx 1 && ok trn3-plan-one-note || { no trn3-plan-one-note; cat "$t/err"; }
"$TF" plan -v "$T3" >"$t/text" 2>/dev/null
has trn3-text-provisional '^  provisional      not yet confirmed by EC2: the name is the Neuron driver' "$t/text"
has trn3-text-memory-derived '^    memory         DERIVED from AWS Neuron docs, Trainium3' "$t/text"
has trn3-text-efa-derived '^    EFA bandwidth  DERIVED from AWS Neuron docs, Amazon EC2 Trn3' "$t/text"
hasnt trn3-text-peak-not-derived 'peak BF16      DERIVED' "$t/text"
# a confirmed type marks nothing
"$TF" plan -v examples/jobs/moe-176b-trn2.yaml >"$t/text" 2>/dev/null
hasnt trn2-nothing-derived 'DERIVED\|provisional' "$t/text"
