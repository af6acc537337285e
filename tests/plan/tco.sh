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

# The spreadsheet. Inputs: the example file; the catalog's per-chip peaks
# (H100 SXM 989.4, Trainium2 667 TFLOPS) and trn2.48xlarge's Capacity
# Block rate in us-east-2 (35.7608; the catalog has no on-demand price for
# it, so the file's 45.00 is used); the spec's 64 nodes, 0.4 of peak, its
# tokens at the model FLOPs per token its plan counts (torchtitan's
# convention, attention included), 4/3 of them with full recomputation.
sheet='
H = 8760.0
servers, purchase, dep, kw, idle, pue, kwh, net, ops, u = 86, 300000.0, 3, 10.2, 3.5, 1.3, 0.10, 4e6, 1.5e6, 0.62
mfu, nodes = 0.4, 64
own_flops = servers * 8 * 989.4e12 * mfu
cloud_flops = nodes * 16 * 667e12 * mfu
od, cb = 45.00, 35.7608                 # on demand from the file, Capacity Block from the catalog (us-east-2)
res, spot = od * (1 - 0.40), od * (1 - 0.67)
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
for name, want in year.items():
    assert close(by[name]["usdPerPflopHour"], want / work), name
    assert close(by[name]["usdPerRun"], want / work * run), name
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
want = {"servers": 86, "likeInstance": "p5.48xlarge", "purchaseUsdPerServer": 300000, "depreciationYears": 3,
        "powerKwPerServer": 10.2, "idlePowerKwPerServer": 3.5, "pue": 1.3, "usdPerKwh": 0.1,
        "networkingStorageUsd": 4e6, "operationsUsdPerYear": 1.5e6, "utilization": 0.62,
        "reservedDiscount": 0.4, "spotDiscount": 0.67, "mixReserved": 48, "mixSpot": 16, "mixFrom": "the file"}
for k, v in want.items():
    assert a[k] == v, (k, a[k], v)
assert d["schemaVersion"] == 1'

"$TF" plan --tco $TCO $SPEC >"$t/text" 2>"$t/err"
for want in '86 servers like p5.48xlarge (8 x H100 each) at $300000 each, depreciated over 3 years; networking and storage $4000000; operations $1500000 a year' \
	'power 10.2 kW per server training, 3.5 kW idle; PUE 1.3; $0.1 per kWh' \
	'in use 62% of the hours; 0.4 of peak while training' \
	'reserved at on demand less 40% (cloud.reserved_discount); spot at on demand less 67% (cloud.spot_discount); mix 48 reserved + 16 spot (the file)' \
	'the file.s, every one (trainforge has no figures for owned hardware)'; do
	has "tco-text-repeats/$want" "$want" "$t/text"
done
has tco-text-break-even 'owning is cheaper above [0-9.]*% of hours' "$t/text"
has tco-text-sources 'owned peak       989.4 TFLOPS per H100: ' "$t/text"
json_check tco-text-and-json-agree "$t/out" '
import re
text = open("'"$t/text"'").read()
by = {o["option"]: o for o in d["tco"]["options"]}
row = re.search(r"^  48 reserved \+ 16 spot +(\d+) +(\d+) +(\d+) +(\d+) ", text, re.M)
assert row, "no mix row"
assert abs(int(row.group(4)) - by["mix"]["usdTotal"]) <= 1'

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
bad wrong-type 's/servers: 86/servers: many/' 'bad.yaml:17:12: error: expected an integer'
bad unknown-key 's/^  pue: 1.3 /  pue: 1.3\n  colour: blue #/' "bad.yaml:24:3: error: unknown key 'colour'"
bad missing-key '/  utilization: 0.62/d' "error: missing required key 'utilization'"
bad out-of-range 's/  utilization: 0.62 /  utilization: 1.62 /' 'bad.yaml:27:16: error: 1.62 is out of range: must be at most 1'
bad not-finite 's/usd_per_kwh: 0.10 /usd_per_kwh: .nan /' 'bad.yaml:24:16: error: not a finite number'
bad unknown-instance 's/like_instance: p5.48xlarge/like_instance: p9.48xlarge/' 'owned.like_instance p9.48xlarge is not in the instance catalog'
bad half-a-mix '/^  spot: 16/d' "'reserved' needs 'spot'"
bad version 's/trainforge_tco: 1/trainforge_tco: 2/' 'bad.yaml:10:17: error:'
expect_rc tco-missing-file 2 "$TF" plan --tco "$t/nope.yaml" $SPEC
has tco-missing-file-message 'nope.yaml: No such file or directory' "$t/err"
