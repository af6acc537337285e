#!/bin/sh
# trainforge plan --tco: the owned cluster against the spec's cloud fleet,
# on the example file, against a spreadsheet of the same inputs written
# out here as numbers (break-even utilization included); the output
# repeats every assumption; JSON and SVG carry the same figures; a bad
# file stops the plan with a positioned message. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015,SC2016 # SC2016: a $ in a pattern is the output's, not a variable
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh
SPEC=examples/jobs/moe-176b-trn2-mixed.yaml
TCO=examples/tco/owned-h100-vs-trn2.yaml

# The spreadsheet. Inputs: the example file (the scenario's 32 servers
# of 4 H100 at 62%); the catalog's per-chip peaks (H100 SXM 989.4,
# Trainium2 667 TFLOPS) and trn2.48xlarge's Capacity Block rate in
# us-east-2 (35.7608; the catalog has no on-demand price for it, so the
# file's 45.00 is used); the spec's 64 nodes, 0.4 of peak, its spot
# discount 0.6 (the spec's, not the file's), its tokens at the model
# FLOPs per token its plan counts (torchtitan's convention, attention
# included), 4/3 of them with full recomputation. A run's cost on the
# cloud is the bill's: each way of buying for its own expected finish
# (d["bill"]), a commitment's share of the year at the file's
# cloud.utilization.
sheet='
H = 8760.0
servers, per_server, purchase, dep, kw, idle, pue, kwh, net, ops, u = 32, 4, 150000.0, 3, 5.1, 1.8, 1.3, 0.10, 1.2e6, 6e5, 0.62
mfu, nodes, cu = 0.4, 64, 0.62
own_flops = servers * per_server * 989.4e12 * mfu
cloud_flops = nodes * 16 * 667e12 * mfu
od, cb = 45.00, 35.7608                 # on demand from the file, Capacity Block from the catalog (us-east-2)
res, spot = od * (1 - 0.40), od * (1 - 0.6)
energy_kwh = servers * pue * kwh * H    # dollars per kW of draw over a year
F = (servers * purchase + net) / dep + ops + energy_kwh * idle   # fixed a year
E = energy_kwh * (kw - idle)                                     # a year per unit utilization
owned_year = F + E * u
hours_per_u = H * own_flops / cloud_flops
hours = hours_per_u * u
work = own_flops / 1e15 * H * u         # PFLOP-hours a year
run = d["model"]["flopsPerToken"] * 4 / 3 * d["model"]["tokens"] / 1e15 / 3600   # PFLOP-hours of one run
B_od, B_cb, B_spot = nodes * od * hours_per_u, nodes * cb * hours_per_u, nodes * spot * hours_per_u
year = {"owned": owned_year, "on-demand": B_od * u, "capacity-block": B_cb * u, "reserved": nodes * res * H,
        "spot": B_spot * u, "mix": 48 * res * H + 16 * spot * hours_per_u * u}
breakeven = {"on-demand": F / (B_od - E), "capacity-block": F / (B_cb - E), "reserved": (nodes * res * H - F) / E,
             "spot": F / (B_spot - E), "mix": (F - 48 * res * H) / (16 * spot * hours_per_u - E)}
bc, bm = d["bill"]["compute"], d["bill"]["mixed"]
rh = {k: bc[key]["runSeconds"] / 3600 for k, key in (("on-demand", "onDemand"), ("capacity-block", "capacityBlock"),
                                                     ("reserved", "reserved"), ("spot", "spot"))}
rh["mix"] = d["bill"]["runSeconds"] / 3600
per_run = {"on-demand": nodes * od * rh["on-demand"], "capacity-block": nodes * cb * rh["capacity-block"],
           "reserved": nodes * res * rh["reserved"] / cu, "spot": nodes * spot * rh["spot"],
           "mix": 48 * res * rh["mix"] / cu + spot * (16 * rh["mix"] - bm["spotLostNodeHours"]),
           "owned": owned_year / work * run}
close = lambda a, b: abs(a - b) <= 1e-6 * max(abs(b), 1)
'

expect_rc tco-plans 0 "$TF" plan --format json --tco $TCO $SPEC
json_check tco-years-and-totals "$t/out" "$sheet"'
tco = d["tco"]
by = {o["option"]: o for o in tco["options"]}
assert tco["years"] == 3
for name, want in year.items():
    o = by[name]
    print(name, o["usdPerYear"], want)
    assert o["known"] and len(o["usdPerYear"]) == 3
    assert all(close(y, want) for y in o["usdPerYear"]), (name, o["usdPerYear"], want)
    assert close(o["usdTotal"], 3 * want)
rates = {r["from"]: r for r in by["on-demand"]["rates"]}
assert rates["user"]["assumption"] == "cloud.on_demand_usd_per_node_hour" and rates["user"]["usdPerNodeHour"] == 45
cb_rate = by["capacity-block"]["rates"][0]
assert cb_rate["from"] == "catalog" and cb_rate["region"] == "us-east-2" and cb_rate["usdPerNodeHour"] == 35.7608
assert cb_rate["source"].startswith("koyakimu/ec2-capacity-blocks-for-ml-pricing-json") and cb_rate["date"]'
json_check tco-per-pflop-hour-and-per-run "$t/out" "$sheet"'
by = {o["option"]: o for o in d["tco"]["options"]}
w = d["tco"]["work"]
assert close(w["ownedAchievedFlops"], own_flops) and close(w["cloudAchievedFlops"], cloud_flops)
assert close(w["pflopHoursPerYear"], work) and close(w["pflopHoursPerRun"], run)
for name, want in per_run.items():
    print(name, "per run", by[name]["usdPerRun"], want)
    assert close(by[name]["usdPerRun"], want), name
    assert close(by[name]["usdPerPflopHour"], want / run), name
    if name != "owned":
        assert close(by[name]["runHours"], rh[name]), name
# a commitment: its year over the runs its own utilization holds
assert close(by["reserved"]["runsPerYear"], H * cu / rh["reserved"])
assert close(by["reserved"]["usdPerRun"] * by["reserved"]["runsPerYear"], by["reserved"]["usdPerYear"][0])
assert close(by["on-demand"]["hoursNeededPerYear"], hours) and by["on-demand"]["feasible"]'
json_check tco-break-even-utilization "$t/out" "$sheet"'
by = {o["option"]: o for o in d["tco"]["options"]}
for name, want in breakeven.items():
    print(name, "break-even", by[name]["breakEvenUtilization"], "sheet", want, by[name]["owningCheaper"])
    assert close(by[name]["breakEvenUtilization"], want), name
# pay-per-use options grow with the work, so owning wins above; a
# reserved fleet is paid every hour, so owning (whose energy grows) wins below
assert by["on-demand"]["owningCheaper"] == "above" and by["spot"]["owningCheaper"] == "above"
assert by["capacity-block"]["owningCheaper"] == "above"
assert by["reserved"]["owningCheaper"] == "below"
# at the break-even utilization the two cost the same
for name in ("on-demand", "capacity-block", "spot"):
    b = by[name]["breakEvenUtilization"]
    assert close(F + E * b, by[name]["usdPerYearPerUtilization"] * b)'
json_check tco-assumptions-repeated "$t/out" '
a = d["tco"]["assumptions"]
want = {"servers": 32, "acceleratorsPerServer": 4, "likeInstance": "p5.48xlarge", "purchaseUsdPerServer": 150000,
        "depreciationYears": 3, "powerKwPerServer": 5.1, "idlePowerKwPerServer": 1.8, "pue": 1.3, "usdPerKwh": 0.1,
        "networkingStorageUsd": 1.2e6, "operationsUsdPerYear": 6e5, "utilization": 0.62, "cloudUtilization": 0.62,
        "reservedDiscount": 0.4, "spotDiscount": 0.6, "spotFrom": "the spec", "spotInterruptionRate": 0.2,
        "spotInterruptionRateGiven": False, "mixReserved": 48, "mixSpot": 16, "mixFrom": "the spec"}
for k, v in want.items():
    assert a[k] == v, (k, a[k], v)
assert d["schemaVersion"] == 1'

"$TF" plan --tco $TCO $SPEC >"$t/text" 2>"$t/err"
for want in '32 servers of 4 x H100 (like p5.48xlarge; owned.accelerators_per_server) at $150000 each, depreciated over 3 years; networking and storage $1200000; operations $600000 a year' \
	'power 5.1 kW per server training, 1.8 kW idle; PUE 1.3; $0.1 per kWh' \
	'in use 62% of the hours; 0.4 of peak while training' \
	'reserved at on demand less 40% (cloud.reserved_discount); mix 48 reserved + 16 spot (the spec)' \
	'in use 62% of the committed hours (cloud.utilization)' \
	"the spec's, one assumption for the bill and this comparison: on demand less 60% (capacity.spot_discount); 0.2 reclaims per spot node-month (the plan's default, an assumption)" \
	'the file.s, every one (trainforge has no figures for owned hardware)'; do
	has "tco-text-repeats/$want" "$want" "$t/text"
done
has tco-text-cloud-run 'a cloud run      the bill.s expected finish at the spec.s interruption rate: on-demand 307.5 h; capacity-block 307.5 h; reserved 307.5 h (its commitment.s year holds 17.7 runs at 62% of the hours); spot 324.6 h; mix 314.3 h (its commitment.s year holds 17.3 runs at 62% of the hours)$' "$t/text"
has tco-text-break-even 'owning is cheaper above [0-9.]*% of hours' "$t/text"
has tco-text-sources 'owned peak       989.4 TFLOPS per H100: ' "$t/text"
json_check tco-text-and-json-agree "$t/out" '
import re
text = open("'"$t/text"'").read()
by = {o["option"]: o for o in d["tco"]["options"]}
row = re.search(r"^  48 reserved \+ 16 spot +(\d+) +(\d+) +(\d+) +(\d+) ", text, re.M)
assert row, "no mix row"
assert abs(int(row.group(4)) - by["mix"]["usdTotal"]) <= 1'

# docs/plan.md's worked comparison quotes these figures: each is the plan's.
json_check tco-docs-figures-are-the-plans "$t/out" '
import re
doc = open("docs/plan.md").read()
doc = doc[doc.index("### The reference scenario\x27s comparison"):]
by = {o["option"]: o for o in d["tco"]["options"]}
w = d["tco"]["work"]
def quoted(v):
    s = "${:,.0f}".format(v)
    assert s in doc, (s, "not in docs/plan.md")
quoted(by["owned"]["usdPerYear"][0]); quoted(by["owned"]["usdPerRun"])
for name in ("mix", "reserved", "on-demand", "capacity-block", "spot"):
    quoted(by[name]["usdPerRun"])
quoted(by["reserved"]["usdPerYear"][0]); quoted(w["ownedDepreciationPerYear"])
quoted(w["ownedEnergyBusyPerYear"] + w["ownedEnergyIdlePerYear"])
assert "{:.1f} runs".format(by["reserved"]["runsPerYear"]) in doc
assert "{:.1f} h expected".format(by["mix"]["runHours"]) in doc and "{:.1f} h for".format(by["reserved"]["runHours"]) in doc
assert "{:.1f} (every node".format(by["spot"]["runHours"]) in doc'

# The cloud's figures are the cloud fleet's own: twice the owned servers
# move the owned cluster's figures, never a cloud option's cost per run
# or a commitment's year.
sed 's/servers: 32 /servers: 64 /' $TCO >"$t/twice.yaml"
cp "$t/out" "$t/small.json"
expect_rc tco-twice-plans 0 "$TF" plan --format json --tco "$t/twice.yaml" $SPEC
json_check tco-cloud-independent-of-owned-size "$t/out" '
small = {o["option"]: o for o in json.load(open("'"$t/small.json"'"))["tco"]["options"]}
big = {o["option"]: o for o in d["tco"]["options"]}
for name in ("on-demand", "capacity-block", "reserved", "spot", "mix"):
    print(name, small[name]["usdPerRun"], big[name]["usdPerRun"])
    assert small[name]["usdPerRun"] > 0 and small[name]["usdPerRun"] == big[name]["usdPerRun"], name
    assert small[name]["usdPerPflopHour"] == big[name]["usdPerPflopHour"], name
for name in ("reserved", "mix"):
    assert small[name]["fixedUsdFirstYear"] == big[name]["fixedUsdFirstYear"] > 0, name
assert small["reserved"]["usdPerYear"] == big["reserved"]["usdPerYear"]
assert big["owned"]["usdPerYear"][0] > small["owned"]["usdPerYear"][0]
assert big["on-demand"]["usdPerYear"][0] > small["on-demand"]["usdPerYear"][0]   # the same work costs more'

# A mix the file gives that is not the spec's has its years, but no run
# time to price a run by: unknown, never a figure from another fleet.
sed 's/^cloud:$/cloud:\n  reserved: 32\n  spot: 32/' $TCO >"$t/mix.yaml"
expect_rc tco-file-mix-plans 0 "$TF" plan --format json --tco "$t/mix.yaml" $SPEC
json_check tco-file-mix-has-no-run-cost "$t/out" "$sheet"'
mix = [o for o in d["tco"]["options"] if o["option"] == "mix"][0]
assert d["tco"]["assumptions"]["mixFrom"] == "the file" and mix["reserved"] == 32 and mix["spot"] == 32
assert mix["known"] and close(mix["usdPerYear"][0], 32 * res * H + 32 * spot * hours_per_u * u)
assert mix["usdPerRun"] is None and mix["runHours"] is None and mix["usdPerPflopHour"] is None'

# One spot assumption: the spec's discount and interruption rate move the
# comparison's spot figures; the TCO file has none of its own.
sed 's/^  spot_discount: 0.6$/  spot_discount: 0.66\n  spot_interruption_rate: 0.05/' $SPEC >"$t/spot.yaml"
expect_rc tco-spec-spot-plans 0 "$TF" plan --format json --tco $TCO "$t/spot.yaml"
json_check tco-spot-is-the-specs "$t/out" "$sheet"'
by = {o["option"]: o for o in d["tco"]["options"]}
a = d["tco"]["assumptions"]
assert a["spotDiscount"] == 0.66 and a["spotInterruptionRate"] == 0.05 and a["spotInterruptionRateGiven"] is True
rate = [r for r in by["spot"]["rates"] if r["usdPerNodeHour"]][0]
assert close(rate["usdPerNodeHour"], 45 * 0.34), rate
assert close(by["spot"]["usdPerRun"], nodes * 45 * 0.34 * d["bill"]["compute"]["spot"]["runSeconds"] / 3600)'
"$TF" plan --tco $TCO "$t/spot.yaml" >"$t/text" 2>/dev/null
has tco-spot-text 'on demand less 66% (capacity.spot_discount); 0.05 reclaims per spot node-month (capacity.spot_interruption_rate)' "$t/text"

# Without the idle draw, idle hours count at the training draw, and say so.
sed '/idle_power_kw_per_server/d' $TCO >"$t/no-idle.yaml"
expect_rc tco-no-idle-plans 0 "$TF" plan --format json --tco "$t/no-idle.yaml" $SPEC
json_check tco-no-idle-counts-training-draw "$t/out" "$sheet"'
own = [o for o in d["tco"]["options"] if o["option"] == "owned"][0]
full = (servers * purchase + net) / dep + ops + energy_kwh * kw
assert close(own["usdPerYear"][0], full) and d["tco"]["assumptions"]["idlePowerKwPerServer"] is None'
"$TF" plan --tco "$t/no-idle.yaml" $SPEC >"$t/text" 2>/dev/null
has tco-no-idle-said 'idle not given: idle hours counted at the training draw' "$t/text"

# Depreciated before the horizon ends: later years pay running costs only.
sed 's/depreciation_years: 3 /depreciation_years: 2 /' $TCO >"$t/dep2.yaml"
expect_rc tco-dep2-plans 0 "$TF" plan --format json --tco "$t/dep2.yaml" $SPEC
json_check tco-paid-off-servers "$t/out" "$sheet"'
own = [o for o in d["tco"]["options"] if o["option"] == "owned"][0]
capex = (servers * purchase + net) / 2
run_cost = ops + energy_kwh * (idle + (kw - idle) * u)
assert close(own["usdPerYear"][0], capex + run_cost) and close(own["usdPerYear"][2], run_cost)'

# ---- SVG: cumulative cost over months ------------------------------------
expect_rc tco-svg-written 0 "$TF" plan --tco $TCO --svg "$t/tco.svg" $SPEC
py_check tco-svg-lines "$t/tco.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.get("data-schema-version") == "1"
texts = [t.text or "" for t in root.iter(ns + "text")]
for want in ("months", "cumulative cost (USD)", "owned", "on-demand", "capacity-block", "reserved", "spot",
             "48 reserved + 16 spot"):
    assert any(want == x for x in texts), want
lines = root.findall(ns + "polyline")
assert len(lines) == 6, len(lines)      # every option
for pl in lines:
    pts = [tuple(map(float, p.split(","))) for p in pl.get("points").split()]
    assert len(pts) == 37                # months 0..36
    ys = [p[1] for p in pts]
    assert all(a >= b for a, b in zip(ys, ys[1:])), "cumulative cost never falls"
PY

# ---- bad files: a message with a position, exit 2, no plan ---------------
bad() { # name, sed expression, message
	sed "$2" $TCO >"$t/bad.yaml"
	expect_rc "tco-bad/$1" 2 "$TF" plan --tco "$t/bad.yaml" $SPEC
	has "tco-bad/$1-message" "$3" "$t/err"
	[ ! -s "$t/out" ] && ok "tco-bad/$1-no-plan" || no "tco-bad/$1-no-plan"
}
bad wrong-type 's/servers: 32/servers: many/' 'bad.yaml:25:12: error: expected an integer'
bad unknown-key 's/^  pue: 1.3 /  pue: 1.3\n  colour: blue #/' "bad.yaml:33:3: error: unknown key 'colour'"
bad missing-key '/  utilization: 0.62/d' "error: missing required key 'utilization'"
bad out-of-range 's/  utilization: 0.62 /  utilization: 1.62 /' 'bad.yaml:36:16: error: 1.62 is out of range: must be at most 1'
bad not-finite 's/usd_per_kwh: 0.10 /usd_per_kwh: .nan /' 'bad.yaml:33:16: error: not a finite number'
bad unknown-instance 's/like_instance: p5.48xlarge/like_instance: p9.48xlarge/' 'owned.like_instance p9.48xlarge is not in the instance catalog'
bad half-a-mix 's/^cloud:$/cloud:\n  reserved: 48/' "'reserved' needs 'spot'"
bad version 's/trainforge_tco: 1/trainforge_tco: 2/' 'bad.yaml:21:17: error:'
bad no-accelerators 's/accelerators_per_server: 4 /accelerators_per_server: 0 /' 'bad.yaml:27:28: error: 0 is out of range'
# spot is the spec's alone: an older file's spot figures are refused by name
bad spot-discount-moved 's/^cloud:$/cloud:\n  spot_discount: 0.67/' 'bad.yaml:38:3: error: cloud.spot_discount is no longer read from the TCO file'
has tco-bad/spot-discount-moved-help 'help: spot is the job spec.s alone: give capacity.spot_discount (or capacity.prices.spot) in the spec' "$t/err"
bad spot-rate-moved 's/^cloud:$/cloud:\n  spot_interruption_rate: 0.1/' 'bad.yaml:38:3: error: cloud.spot_interruption_rate is no longer read from the TCO file'
expect_rc tco-missing-file 2 "$TF" plan --tco "$t/nope.yaml" $SPEC
has tco-missing-file-message 'nope.yaml: No such file or directory' "$t/err"
