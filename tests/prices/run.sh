#!/bin/sh
# trainforge prices import and the prices it gives plan, lint and
# instances (docs/prices.md). Every input is written here, in the formats
# AWS documents and its tools write, quirks included: prices as strings,
# a reserved offer as two rows (its upfront fee and its hourly rate) or
# two price dimensions, empty unquoted CSV fields, CRLF lines, Local
# Zones, other systems and tenancies to leave out. Nothing is downloaded.
# Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built prices || exit 1
F=$t/files
mkdir -p "$F"
store=$t/store.tsv

# ---- the Price List bulk offer file, CSV -------------------------------------
H='"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate","StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo","LeaseContractLength","PurchaseOption","OfferingClass","Product Family","serviceCode","Location","Location Type","Instance Type","Current Generation","Tenancy","Operating System","License Model","usageType","operation","CapacityStatus","MarketOption","Pre Installed S/W","Region Code"'
pre() { # publication date
	printf '"FormatVersion","v1.0"\n"Disclaimer","This pricing list is for informational purposes only. All prices are subject to the additional terms included in the pricing pages on http://aws.amazon.com."\n"Publication Date","%sT22:53:08Z"\n"Version","20260901225308"\n"OfferCode","AmazonEC2"\n%s\n' "$1" "$H"
}
row() { # sku term-code rate termtype desc unit price lease purchase class family type tenancy os sw capacity region
	printf '"%s","%s","%s.%s.%s","%s","%s","2026-08-01",,,"%s","%s","USD",,%s,%s,%s,"%s","AmazonEC2","US East (Ohio)","AWS Region","%s","Yes","%s","%s","No License required","USE2-BoxUsage:%s","RunInstances","%s","OnDemand","%s","%s"\n' \
		"$1" "$2" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13}" "${14}" "${12}" "${16}" "${15}" "${17}"
}
{
	pre 2026-09-01
	# on demand, with a comma and a doubled quote in its description
	row TRN2OD JRTCKXETXF 6YS6EN2CT7 OnDemand '$44.70 per On Demand Linux trn2.48xlarge Instance Hour, ""as listed""' Hrs 44.7000000000 '' '' '' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	# 1-year partial upfront standard: two rows, the fee and the hourly rate
	row TRN2OD 4NA7Y494T4 6YS6EN2CT7 Reserved 'USD 15.0 per Linux trn2.48xlarge instance-hour' Hrs 15.0000000000 '"1yr"' '"Partial Upfront"' '"standard"' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	row TRN2OD 4NA7Y494T4 2TG2D8R56U Reserved 'Upfront Fee' Quantity 131400 '"1yr"' '"Partial Upfront"' '"standard"' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	# 1-year no upfront standard: the hourly rate alone
	row TRN2OD 38NPMPTW36 6YS6EN2CT7 Reserved 'USD 28.0 per Linux trn2.48xlarge instance-hour' Hrs 28.0000000000 '"1yr"' '"No Upfront"' '"standard"' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	# 3-year all upfront convertible: the fee and an hourly rate of zero
	row TRN2OD 7NE97W5U4E 2TG2D8R56U Reserved 'Upfront Fee' Quantity 525600 '"3yr"' '"All Upfront"' '"convertible"' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	row TRN2OD 7NE97W5U4E 6YS6EN2CT7 Reserved 'USD 0.0 per Linux trn2.48xlarge instance-hour' Hrs 0.0000000000 '"3yr"' '"All Upfront"' '"convertible"' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-2
	# bare metal is a product family of its own
	row C6IMETAL JRTCKXETXF 6YS6EN2CT7 OnDemand 'metal' Hrs 5.4400000000 '' '' '' 'Compute Instance (bare metal)' c6i.metal Shared Linux NA Used us-east-2
	# left out: another system, a dedicated tenancy, software, unused capacity, a Local Zone
	row WIN JRTCKXETXF 6YS6EN2CT7 OnDemand 'Windows' Hrs 99.0000000000 '' '' '' 'Compute Instance' trn2.48xlarge Shared Windows NA Used us-east-2
	row DED JRTCKXETXF 6YS6EN2CT7 OnDemand 'Dedicated' Hrs 88.0000000000 '' '' '' 'Compute Instance' trn2.48xlarge Dedicated Linux NA Used us-east-2
	row SQL JRTCKXETXF 6YS6EN2CT7 OnDemand 'SQL' Hrs 77.0000000000 '' '' '' 'Compute Instance' trn2.48xlarge Shared Linux 'SQL Web' Used us-east-2
	row UNUSED JRTCKXETXF 6YS6EN2CT7 OnDemand 'Unused' Hrs 66.0000000000 '' '' '' 'Compute Instance' trn2.48xlarge Shared Linux NA UnusedCapacityReservation us-east-2
	row LZ JRTCKXETXF 6YS6EN2CT7 OnDemand 'Local Zone' Hrs 55.0000000000 '' '' '' 'Compute Instance' trn2.48xlarge Shared Linux NA Used us-east-1-dfw-2
} >"$F/index.csv"
# the same with CRLF line ends, as a file saved on Windows has
sed 's/$/\r/' "$F/index.csv" >"$F/index-crlf.csv"

expect_rc import-csv 0 "$TF" prices import --prices "$store" "$F/index.csv"
has import-csv-report 'index.csv: price-list-csv, published 2026-09-01: 12 rows read, 7 prices kept' "$t/out"
expect_rc list-json 0 "$TF" prices list --prices "$store" --format json
json_check csv-facts "$t/out" '
f = {(x["type"], x["region"], x["term"], x["variant"]): x for x in d["facts"]}
od = f[("trn2.48xlarge", "us-east-2", "on-demand", "-")]
assert float(od["usdPerHour"]) == 44.7 and od["asOf"] == "2026-09-01" and od["effective"] == "2026-08-01", od
assert od["source"]["format"] == "price-list-csv" and od["source"]["file"].endswith("/index.csv"), od
pu = f[("trn2.48xlarge", "us-east-2", "reserved", "1yr/partial-upfront/standard")]
assert abs(float(pu["usdPerHour"]) - (15 + 131400 / 8760)) < 1e-9, pu
assert float(pu["hourly"]) == 15 and float(pu["upfront"]) == 131400, pu
nu = f[("trn2.48xlarge", "us-east-2", "reserved", "1yr/no-upfront/standard")]
assert float(nu["usdPerHour"]) == 28 and float(nu["upfront"]) == 0, nu
au = f[("trn2.48xlarge", "us-east-2", "reserved", "3yr/all-upfront/convertible")]
assert abs(float(au["usdPerHour"]) - 525600 / (3 * 8760)) < 1e-9 and float(au["hourly"]) == 0, au
assert ("c6i.metal", "us-east-2", "on-demand", "-") in f
# nothing of the rows to leave out, nothing of a Local Zone
assert not any(x["region"].count("-") > 2 for x in d["facts"]), d
assert len(d["facts"]) == 5, len(d["facts"])'
rm -f "$store"
expect_rc import-csv-crlf 0 "$TF" prices import --prices "$store" "$F/index-crlf.csv"
has import-csv-crlf-report 'published 2026-09-01: 12 rows read, 7 prices kept' "$t/out"
rm -f "$store"

# ---- the same offer file as JSON, terms and price dimensions ----------------
cat >"$F/index.json" <<'EOF'
{
  "formatVersion" : "v1.0",
  "disclaimer" : "This pricing list is for informational purposes only.",
  "offerCode" : "AmazonEC2",
  "version" : "20261001000000",
  "publicationDate" : "2026-10-01T00:00:00Z",
  "products" : {
    "TRN2OD" : { "sku" : "TRN2OD", "productFamily" : "Compute Instance",
      "attributes" : { "servicecode" : "AmazonEC2", "location" : "US East (Ohio)", "locationType" : "AWS Region",
        "instanceType" : "trn2.48xlarge", "tenancy" : "Shared", "operatingSystem" : "Linux",
        "licenseModel" : "No License required", "usagetype" : "USE2-BoxUsage:trn2.48xlarge",
        "operation" : "RunInstances", "capacitystatus" : "Used", "marketoption" : "OnDemand",
        "preInstalledSw" : "NA", "regionCode" : "us-east-2", "vcpu" : "192" } },
    "TRN2WIN" : { "sku" : "TRN2WIN", "productFamily" : "Compute Instance",
      "attributes" : { "locationType" : "AWS Region", "instanceType" : "trn2.48xlarge", "tenancy" : "Shared",
        "operatingSystem" : "Windows", "capacitystatus" : "Used", "preInstalledSw" : "NA", "regionCode" : "us-east-2" } }
  },
  "terms" : {
    "OnDemand" : {
      "TRN2OD" : { "TRN2OD.JRTCKXETXF" : { "offerTermCode" : "JRTCKXETXF", "sku" : "TRN2OD",
        "effectiveDate" : "2026-09-15T00:00:00Z",
        "priceDimensions" : { "TRN2OD.JRTCKXETXF.6YS6EN2CT7" : { "rateCode" : "TRN2OD.JRTCKXETXF.6YS6EN2CT7",
          "description" : "$42.50 per On Demand Linux trn2.48xlarge Instance Hour", "beginRange" : "0", "endRange" : "Inf",
          "unit" : "Hrs", "pricePerUnit" : { "USD" : "42.5000000000" }, "appliesTo" : [ ] } },
        "termAttributes" : { } } },
      "TRN2WIN" : { "TRN2WIN.JRTCKXETXF" : { "priceDimensions" : { "X" : { "unit" : "Hrs", "pricePerUnit" : { "USD" : "99.0" } } } } }
    },
    "Reserved" : {
      "TRN2OD" : { "TRN2OD.4NA7Y494T4" : { "offerTermCode" : "4NA7Y494T4", "sku" : "TRN2OD",
        "effectiveDate" : "2026-09-15T00:00:00Z",
        "priceDimensions" : {
          "TRN2OD.4NA7Y494T4.2TG2D8R56U" : { "rateCode" : "TRN2OD.4NA7Y494T4.2TG2D8R56U", "description" : "Upfront Fee",
            "unit" : "Quantity", "pricePerUnit" : { "USD" : "122640" }, "appliesTo" : [ ] },
          "TRN2OD.4NA7Y494T4.6YS6EN2CT7" : { "rateCode" : "TRN2OD.4NA7Y494T4.6YS6EN2CT7", "description" : "Linux hourly",
            "beginRange" : "0", "endRange" : "Inf", "unit" : "Hrs", "pricePerUnit" : { "USD" : "14.0000000000" }, "appliesTo" : [ ] } },
        "termAttributes" : { "LeaseContractLength" : "1yr", "OfferingClass" : "standard", "PurchaseOption" : "Partial Upfront" } } }
    }
  }
}
EOF
expect_rc import-json 0 "$TF" prices import --prices "$store" "$F/index.json"
has import-json-report 'index.json: price-list-json, published 2026-10-01: 2 records read, 3 prices kept' "$t/out"
"$TF" prices list --prices "$store" --format json >"$t/list" 2>/dev/null
json_check json-facts "$t/list" '
f = {(x["type"], x["term"], x["variant"]): x for x in d["facts"]}
assert float(f[("trn2.48xlarge", "on-demand", "-")]["usdPerHour"]) == 42.5
pu = f[("trn2.48xlarge", "reserved", "1yr/partial-upfront/standard")]
assert abs(float(pu["usdPerHour"]) - (14 + 122640 / 8760)) < 1e-9 and pu["effective"] == "2026-09-15", pu
assert len(d["facts"]) == 2'
# terms before products: read twice, the same facts
python3 - "$F/index.json" "$F/terms-first.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
out = {"terms": d["terms"], "publicationDate": d["publicationDate"], "products": d["products"]}
json.dump(out, open(sys.argv[2], "w"))
PY
expect_rc import-terms-first 0 "$TF" prices import --prices "$t/tf.tsv" "$F/terms-first.json"
has import-terms-first-report 'terms-first.json: price-list-json, published 2026-10-01: 2 records read, 3 prices kept' "$t/out"

# ---- a newer price replaces an older one; an older one does not ----------
expect_rc import-older 0 "$TF" prices import --prices "$store" "$F/index.csv"
has import-older-kept-newer '5 facts, 3 of them new or newer' "$t/out"
"$TF" prices list --prices "$store" --format json >"$t/list" 2>/dev/null
json_check newer-wins "$t/list" '
od = [x for x in d["facts"] if x["term"] == "on-demand" and x["type"] == "trn2.48xlarge"]
assert len(od) == 1 and float(od[0]["usdPerHour"]) == 42.5 and od[0]["asOf"] == "2026-10-01", od'

# ---- Savings Plans offer files ----------------------------------------------
{
	printf 'FormatVersion,v1.0\nDisclaimer,This pricing list is for informational purposes only.\nPublication Date,2026-10-02T18:44:47Z\nVersion,20261002184447\nOfferCode,AmazonComputeSavingsPlan\n'
	printf 'SKU,RateCode,Unit,EffectiveDate,DiscountedRate,Currency,DiscountedSKU,DiscountedServiceCode,DiscountedUsageType,DiscountedOperation,PurchaseOption,LeaseContractLength,LeaseContractLengthUnit,ServiceCode,UsageType,Operation,Description,Instance Family,Location,Location Type,Granularity,Product Family,DiscountedRegionCode,DiscountedInstanceType\n'
	printf 'SPC1,SPC1.A,Hrs,2026-06-05T18:51:13Z,31.2,USD,A,AmazonEC2,USE2-BoxUsage:trn2.48xlarge,RunInstances,No Upfront,1,year,ComputeSavingsPlans,ComputeSP:1yrNoUpfront,,1 year No Upfront Compute Savings Plan,,Any,AWS Region,hourly,ComputeSavingsPlans,us-east-2,trn2.48xlarge\n'
	printf 'SPC1,SPC1.B,Hrs,2026-06-05T18:51:13Z,35.0,USD,B,AmazonEC2,USE2-DedicatedUsage:trn2.48xlarge,RunInstances,No Upfront,1,year,ComputeSavingsPlans,ComputeSP:1yrNoUpfront,,dedicated,,Any,AWS Region,hourly,ComputeSavingsPlans,us-east-2,trn2.48xlarge\n'
	printf 'SPE3,SPE3.C,Hrs,2026-06-05T18:51:13Z,19.8,USD,C,AmazonEC2,USE2-BoxUsage:trn2.48xlarge,RunInstances,All Upfront,3,year,ComputeSavingsPlans,USE2-EC2SP:trn2.3yrAllUpfront,,"3 year All Upfront trn2 EC2 Instance Savings Plan, in us-east-2",trn2,US East (Ohio),AWS Region,hourly,EC2InstanceSavingsPlans,us-east-2,trn2.48xlarge\n'
	printf 'SPE3,SPE3.D,Hrs,2026-06-05T18:51:13Z,0.1,USD,D,AmazonEC2,USE2-BoxUsage:trn2.48xlarge,RunInstances:0002,All Upfront,3,year,ComputeSavingsPlans,x,,windows,trn2,US East (Ohio),AWS Region,hourly,EC2InstanceSavingsPlans,us-east-2,trn2.48xlarge\n'
} >"$F/sp.csv"
expect_rc import-sp-csv 0 "$TF" prices import --prices "$t/sp.tsv" "$F/sp.csv"
has import-sp-csv-report 'sp.csv: savings-plans-csv, published 2026-10-02: 4 rows read, 2 prices kept' "$t/out"
"$TF" prices list --prices "$t/sp.tsv" --format json >"$t/list" 2>/dev/null
json_check sp-csv-facts "$t/list" '
f = {x["variant"]: float(x["usdPerHour"]) for x in d["facts"] if x["term"] == "savings-plan"}
assert f == {"1yr/no-upfront/compute": 31.2, "3yr/all-upfront/ec2-instance": 19.8}, f'
cat >"$F/sp.json" <<'EOF'
{ "version" : "20261002184447", "publicationDate" : "2026-10-02T18:44:47Z",
  "products" : [
    { "sku" : "SPC1", "productFamily" : "ComputeSavingsPlans", "serviceCode" : "ComputeSavingsPlans",
      "usageType" : "ComputeSP:1yrNoUpfront", "operation" : "",
      "attributes" : { "purchaseOption" : "No Upfront", "granularity" : "hourly", "locationType" : "AWS Region",
                       "purchaseTerm" : "1yr", "location" : "Any" } } ],
  "terms" : { "savingsPlan" : [
    { "sku" : "SPC1", "description" : "1 year No Upfront Compute Savings Plan", "effectiveDate" : "2026-06-05T18:51:13Z",
      "leaseContractLength" : { "duration" : 1, "unit" : "year" },
      "rates" : [
        { "discountedSku" : "A", "discountedUsageType" : "USE2-BoxUsage:trn2.48xlarge", "discountedOperation" : "RunInstances",
          "discountedServiceCode" : "AmazonEC2", "rateCode" : "SPC1.A", "unit" : "Hrs",
          "discountedRate" : { "price" : "30.9", "currency" : "USD" }, "discountedRegionCode" : "us-east-2" },
        { "discountedSku" : "F", "discountedUsageType" : "USE2-Fargate-vCPU-Hours:perCPU", "discountedOperation" : "",
          "discountedServiceCode" : "AmazonECS", "rateCode" : "SPC1.F", "unit" : "Hrs",
          "discountedRate" : { "price" : "0.03", "currency" : "USD" } } ] } ] } }
EOF
expect_rc import-sp-json 0 "$TF" prices import --prices "$t/spj.tsv" "$F/sp.json"
has import-sp-json-report 'sp.json: savings-plans-json, published 2026-10-02: 1 record read, 1 price kept' "$t/out"
# a file of one Region names it once at its top (regionCode), its rates not
# at all: theirs is the file's
sed -e 's/"publicationDate" : "2026-10-02T18:44:47Z",/&\n  "regionCode" : "eu-west-1",/' \
	-e 's/, "discountedRegionCode" : "us-east-2"//' "$F/sp.json" >"$F/sp-region.json"
expect_rc import-sp-json-region 0 "$TF" prices import --prices "$t/spr.tsv" "$F/sp-region.json"
"$TF" prices list --prices "$t/spr.tsv" --format json >"$t/list" 2>/dev/null
json_check sp-json-file-region "$t/list" '
f = [(x["type"], x["region"], x["variant"], float(x["usdPerHour"])) for x in d["facts"]]
assert f == [("trn2.48xlarge", "eu-west-1", "1yr/no-upfront/compute", 30.9)], f'

# ---- aws pricing get-products: a JSON document in each string -----------------
python3 - "$F/get-products.json" <<'PY'
import json, sys
def item(sku, os_, od, ri_fee=None, ri_hourly=None):
    terms = {"OnDemand": {sku + ".JRTCKXETXF": {"offerTermCode": "JRTCKXETXF", "sku": sku,
        "effectiveDate": "2026-11-01T00:00:00Z", "priceDimensions": {sku + ".JRTCKXETXF.6YS6EN2CT7": {
        "unit": "Hrs", "pricePerUnit": {"USD": od}, "description": "od"}}, "termAttributes": {}}}}
    if ri_fee:
        terms["Reserved"] = {sku + ".4NA7Y494T4": {"offerTermCode": "4NA7Y494T4", "sku": sku,
            "effectiveDate": "2026-11-01T00:00:00Z", "priceDimensions": {
                "a": {"unit": "Quantity", "pricePerUnit": {"USD": ri_fee}, "description": "Upfront Fee"},
                "b": {"unit": "Hrs", "pricePerUnit": {"USD": ri_hourly}, "description": "hourly"}},
            "termAttributes": {"LeaseContractLength": "1yr", "OfferingClass": "standard", "PurchaseOption": "Partial Upfront"}}}
    return json.dumps({"product": {"productFamily": "Compute Instance", "attributes": {
        "instanceType": "p5.48xlarge", "regionCode": "us-west-2", "operatingSystem": os_, "tenancy": "Shared",
        "locationType": "AWS Region", "capacitystatus": "Used", "preInstalledSw": "NA", "marketoption": "OnDemand"},
        "sku": sku}, "serviceCode": "AmazonEC2", "terms": terms, "version": "20261101", "publicationDate": "2026-11-02T00:00:00Z"})
json.dump({"FormatVersion": "aws_v1", "PriceList": [item("P5LIN", "Linux", "55.0400000000", "219000", "30.0000000000"),
                                                     item("P5WIN", "Windows", "61.0")]}, open(sys.argv[1], "w"), indent=4)
PY
expect_rc import-get-products 0 "$TF" prices import --prices "$t/gp.tsv" "$F/get-products.json"
has import-get-products-report 'get-products.json: get-products: 2 records read, 3 prices kept' "$t/out"
"$TF" prices list --prices "$t/gp.tsv" --format json >"$t/list" 2>/dev/null
json_check get-products-facts "$t/list" '
f = {(x["term"], x["variant"]): x for x in d["facts"]}
assert float(f[("on-demand", "-")]["usdPerHour"]) == 55.04 and f[("on-demand", "-")]["asOf"] == "2026-11-02"
assert abs(float(f[("reserved", "1yr/partial-upfront/standard")]["usdPerHour"]) - (30 + 219000 / 8760)) < 1e-9'

# ---- Capacity Block products: listed at $0.00 an hour, never a price --------
# The Price List lists each Capacity Block type a second time, at $0.00 (a
# block's price is set when it is bought), told apart only by MarketOption.
{
	pre 2026-09-01
	row P5OD JRTCKXETXF 6YS6EN2CT7 OnDemand 'od' Hrs 55.0400000000 '' '' '' 'Compute Instance' p5.48xlarge Shared Linux NA Used us-east-1
	row P5CB JRTCKXETXF 6YS6EN2CT7 OnDemand '$0.00 per Capacity Block Linux p5.48xlarge Instance Hour' Hrs 0.0000000000 '' '' '' 'Compute Instance' p5.48xlarge Shared Linux NA Used us-east-1 |
		sed 's/"OnDemand","NA"/"CapacityBlock","NA"/'
} >"$F/cb.csv"
grep -q '"CapacityBlock"' "$F/cb.csv" && ok cb-csv-written || no cb-csv-written
expect_rc import-cb-csv 0 "$TF" prices import --prices "$t/cb.tsv" "$F/cb.csv"
python3 - "$F/cb.json" <<'PY'
import json, sys
def item(sku, market, usd):
    return json.dumps({"product": {"productFamily": "Compute Instance", "sku": sku, "attributes": {
        "instanceType": "p5.48xlarge", "regionCode": "us-east-2", "operatingSystem": "Linux", "tenancy": "Shared",
        "locationType": "AWS Region", "capacitystatus": "Used", "preInstalledSw": "NA", "marketoption": market,
        "operation": "RunInstances:CB" if market == "CapacityBlock" else "RunInstances"}},
        "serviceCode": "AmazonEC2", "publicationDate": "2026-11-02T00:00:00Z", "terms": {"OnDemand": {
        sku + ".JRTCKXETXF": {"sku": sku, "effectiveDate": "2026-11-01T00:00:00Z", "priceDimensions": {
            sku + ".JRTCKXETXF.6YS6EN2CT7": {"unit": "Hrs", "pricePerUnit": {"USD": usd}}}, "termAttributes": {}}}}})
json.dump({"PriceList": [item("CB", "CapacityBlock", "0.0000000000"), item("OD", "OnDemand", "55.0400000000")]},
          open(sys.argv[1], "w"))
PY
expect_rc import-cb-get-products 0 "$TF" prices import --prices "$t/cb.tsv" "$F/cb.json"
"$TF" prices list --prices "$t/cb.tsv" --format json >"$t/list" 2>/dev/null
json_check cb-never-a-price "$t/list" '
f = sorted((x["region"], x["term"], float(x["usdPerHour"])) for x in d["facts"])
assert f == [("us-east-1", "on-demand", 55.04), ("us-east-2", "on-demand", 55.04)], f'

# ---- aws ec2 describe-spot-price-history ---------------------------------------
cat >"$F/spot.json" <<'EOF'
{
    "SpotPriceHistory": [
        { "AvailabilityZone": "us-east-2a", "InstanceType": "trn2.48xlarge", "ProductDescription": "Linux/UNIX",
          "SpotPrice": "13.410000", "Timestamp": "2026-11-30T10:00:00+00:00" },
        { "AvailabilityZone": "us-east-2b", "InstanceType": "trn2.48xlarge", "ProductDescription": "Linux/UNIX",
          "SpotPrice": "14.020000", "Timestamp": "2026-11-30T06:00:00-05:00" },
        { "AvailabilityZone": "us-east-2a", "InstanceType": "trn2.48xlarge", "ProductDescription": "Linux/UNIX",
          "SpotPrice": "12.900000", "Timestamp": "2026-11-29T09:00:00.000Z" },
        { "AvailabilityZone": "us-east-2a", "InstanceType": "trn2.48xlarge", "ProductDescription": "Windows",
          "SpotPrice": "19.900000", "Timestamp": "2026-11-30T09:00:00+00:00" },
        { "AvailabilityZone": "us-east-1-bos-1a", "InstanceType": "trn2.48xlarge", "ProductDescription": "Linux/UNIX",
          "SpotPrice": "9.0", "Timestamp": "2026-11-30T09:00:00+00:00" }
    ],
    "NextToken": ""
}
EOF
expect_rc import-spot 0 "$TF" prices import --prices "$t/spot.tsv" "$F/spot.json"
has import-spot-report 'spot.json: spot-price-history: 5 records read, 3 prices kept' "$t/out"
"$TF" prices list --prices "$t/spot.tsv" --format json >"$t/list" 2>/dev/null
json_check spot-history-kept "$t/list" '
h = sorted((x["variant"], x["asOf"], float(x["usdPerHour"])) for x in d["facts"])
assert h == [("us-east-2a", "2026-11-29T09:00:00Z", 12.9), ("us-east-2a", "2026-11-30T10:00:00Z", 13.41),
             ("us-east-2b", "2026-11-30T11:00:00Z", 14.02)], h'

# ---- aws ec2 describe-instance-types: figures that correct and extend --------
cat >"$F/types.json" <<'EOF'
{
    "InstanceTypes": [
        {
            "InstanceType": "trn3.48xlarge",
            "ProcessorInfo": { "SupportedArchitectures": [ "x86_64" ] },
            "VCpuInfo": { "DefaultVCpus": 192 },
            "MemoryInfo": { "SizeInMiB": 2097152 },
            "NetworkInfo": { "NetworkPerformance": "3200 Gigabit", "EfaSupported": true,
                "EfaInfo": { "MaximumEfaInterfaces": 16 },
                "NetworkCards": [ { "NetworkCardIndex": 0, "PeakBandwidthInGbps": 200.0 },
                                  { "NetworkCardIndex": 1, "PeakBandwidthInGbps": 3000.0 } ] },
            "NeuronInfo": { "NeuronDevices": [ { "Count": 16, "Name": "Trainium3",
                "CoreInfo": { "Count": 8, "Version": 4 }, "MemoryInfo": { "SizeInMiB": 147456 } } ] }
        },
        {
            "InstanceType": "p9.48xlarge",
            "ProcessorInfo": { "SupportedArchitectures": [ "x86_64" ] },
            "VCpuInfo": { "DefaultVCpus": 192 },
            "MemoryInfo": { "SizeInMiB": 4194304 },
            "GpuInfo": { "Gpus": [ { "Name": "R100", "Manufacturer": "NVIDIA", "Count": 8,
                "MemoryInfo": { "SizeInMiB": 294912 } } ] },
            "NetworkInfo": { "NetworkPerformance": "6400 Gigabit", "EfaSupported": true,
                "EfaInfo": { "MaximumEfaInterfaces": 16 } }
        }
    ]
}
EOF
expect_rc import-types 0 "$TF" prices import --prices "$t/types.tsv" "$F/types.json"
has import-types-report 'types.json: instance-types: 2 records read, 2 types kept' "$t/out"
expect_rc types-instances 0 "$TF" instances --prices "$t/types.tsv" --family p9 --format json
json_check types-new-type-listed "$t/out" '
(p9,) = d["instances"]
assert p9["name"] == "p9.48xlarge" and p9["accelerators"]["count"] == 8 and p9["accelerators"]["model"] == "R100"
assert p9["accelerators"]["perGpuMemoryMiB"] == 294912 and p9["efa"]["interfaces"] == 16 and p9["networkMbps"] == 6400000
assert "types.json" in p9["source"] and p9["accelerators"]["peakBf16Tflops"] is None'
expect_rc types-trn3-confirmed 0 "$TF" instances --prices "$t/types.tsv" --family trn3 --format json
json_check types-trn3-corrected "$t/out" '
(t3,) = d["instances"]
assert t3["provisional"] is None, t3["provisional"]
assert t3["accelerators"]["kind"] == "trainium3" and t3["accelerators"]["neuronCores"] == 128
assert t3["accelerators"]["memoryGiB"] == 2304 and t3["efa"]["interfaces"] == 16
# what EC2 did not say stays the catalog'"'"'s: the chip'"'"'s peak
assert t3["accelerators"]["peakBf16Tflops"] == 671'
printf 'Region: us-east-2\nImage: {Os: ubuntu2204}\nHeadNode:\n  InstanceType: c6i.large\n  Networking: {SubnetId: subnet-0123456789abcdef0}\n  Ssh: {KeyName: k}\nScheduling:\n  Scheduler: slurm\n  SlurmQueues:\n  - Name: q\n    JobExclusiveAllocation: true\n    ComputeResources:\n    - {Name: c, InstanceType: p9.48xlarge, MinCount: 0, MaxCount: 1}\n    Networking: {SubnetIds: [subnet-0123456789abcdef0]}\n' >"$t/p9.yaml"
expect_rc types-lint-before 0 "$TF" lint --isolated --format concise --fail-level error "$t/p9.yaml"
has types-lint-unknown-before "instance type 'p9.48xlarge' is not in the catalog" "$t/out"
expect_rc types-lint-after 0 "$TF" lint --prices "$t/types.tsv" --format concise --fail-level error "$t/p9.yaml"
hasnt types-lint-known-after "PC1001" "$t/out"

# ---- all or nothing: a malformed file leaves the store as it was --------------
"$TF" prices import --prices "$store" "$F/index.csv" >/dev/null 2>&1
cp "$store" "$t/before.tsv"
bad() { # name, file content (printf format), expected message
	printf "$2" >"$F/$1"
	expect_rc "malformed-$1" 1 "$TF" prices import --prices "$store" "$F/index.json" "$F/$1"
	has "malformed-$1-message" "$3" "$t/err"
	has "malformed-$1-nothing" 'nothing imported' "$t/err"
	cmp -s "$store" "$t/before.tsv" && ok "malformed-$1-store-unchanged" || no "malformed-$1-store-unchanged"
}
P=$(pre 2026-09-01 | sed 's/%/%%/g')
bad bad-price.csv "$P\n\"A\",\"JRTCKXETXF\",\"A.B.C\",\"OnDemand\",\"d\",\"2026-08-01\",,,\"Hrs\",\"abc\",\"USD\",,,,,\"Compute Instance\",\"AmazonEC2\",\"US\",\"AWS Region\",\"c5.large\",\"Yes\",\"Shared\",\"Linux\",\"No License required\",\"u\",\"RunInstances\",\"Used\",\"OnDemand\",\"NA\",\"us-east-1\"\n" \
	"bad-price.csv:7:1: record 7: PricePerUnit 'abc' is not a price"
bad short-row.csv "$P\n\"A\",\"JRTCKXETXF\",\"A.B.C\"\n" "short-row.csv:7:1: record 7 has 3 fields where the header has 30"
bad open-quote.csv "$P\n\"A\",\"JRTCKXETXF\n" "open-quote.csv:7:1: a quoted field is not closed"
bad stray-quote.csv "$P\n\"A\",\"JRTCKXETXF,\"A.B.C\n" "stray-quote.csv:7:1: a character after a closing quote"
bad no-region.csv '"FormatVersion","v1.0"\n"OfferCode","AmazonEC2"\n"SKU","OfferTermCode","TermType","EffectiveDate","Unit","PricePerUnit","Currency","LeaseContractLength","PurchaseOption","OfferingClass","Product Family","Location Type","Instance Type","Tenancy","Operating System"\n' \
	"no-region.csv:3:1: the header has no 'Region Code' column"
bad rds.csv '"FormatVersion","v1.0"\n"OfferCode","AmazonRDS"\n"SKU","X"\n' "the offer is 'AmazonRDS', not AmazonEC2"
bad not-csv.csv 'hello world\nthis is not a price list\n' "not a Price List or Savings Plans CSV file"
bad trailing-comma.json '{"SpotPriceHistory": [{"AvailabilityZone": "us-east-1a", "InstanceType": "p5.48xlarge", "ProductDescription": "Linux/UNIX", "SpotPrice": "12.0", "Timestamp": "2026-11-30T10:00:00+00:00"},]}\n' \
	"trailing-comma.json:1:188: '\]' where a value was expected"
bad number-price.json '{"SpotPriceHistory": [{"AvailabilityZone": "us-east-1a", "InstanceType": "p5.48xlarge", "ProductDescription": "Linux/UNIX", "SpotPrice": 12.0, "Timestamp": "2026-11-30T10:00:00+00:00"}]}\n' \
	"number-price.json:1:23: SpotPrice is not a string"
bad bad-time.json '{"SpotPriceHistory": [\n {"AvailabilityZone": "us-east-1a", "InstanceType": "p5.48xlarge", "ProductDescription": "Linux/UNIX", "SpotPrice": "12.0", "Timestamp": "yesterday"}]}\n' \
	"bad-time.json:2:2: Timestamp 'yesterday' is not an ISO 8601 time with its zone"
bad truncated.json '{"InstanceTypes": [{"InstanceType": "c5.large", "VCpuInfo": {"DefaultVCpus": 2' \
	"truncated.json:1:79: the input ends before the JSON value does"
bad bad-type.json '{"InstanceTypes": [{"InstanceType": "Not A Type", "VCpuInfo": {"DefaultVCpus": 2}}]}' \
	"bad-type.json:1:1: 'Not A Type' is not an EC2 instance type"
bad number-usd.json '{"products": {"S": {"productFamily": "Compute Instance", "attributes": {"instanceType": "c5.large", "regionCode": "us-east-1", "operatingSystem": "Linux", "tenancy": "Shared", "locationType": "AWS Region"}}}, "terms": {"OnDemand": {"S": {"S.T": {"priceDimensions": {"S.T.R": {"unit": "Hrs", "pricePerUnit": {"USD": 0.085}}}}}}}}' \
	"pricePerUnit USD is not a string (AWS writes prices as strings)"
bad unknown.json '{"Reservations": []}' "not a file trainforge imports"
bad empty.json '' "the file is empty"
# unreadable: trouble, not a malformed file
expect_rc missing-file-exit-2 2 "$TF" prices import --prices "$store" "$F/no-such-file.csv"
has missing-file-message 'no-such-file.csv: cannot be read' "$t/err"
cmp -s "$store" "$t/before.tsv" && ok missing-file-store-unchanged || no missing-file-store-unchanged
expect_rc import-no-files 2 "$TF" prices import --prices "$store"
expect_rc prices-no-verb 2 "$TF" prices --prices "$store"

# ---- where the store is -------------------------------------------------------
expect_rc where-xdg 0 "$TF" prices where
[ "$(cat "$t/out")" = "$XDG_DATA_HOME/trainforge/prices.tsv" ] && ok where-xdg-data-home || no where-xdg-data-home
expect_rc where-home 0 env -u XDG_DATA_HOME HOME=/home/somebody "$TF" prices where
[ "$(cat "$t/out")" = "/home/somebody/.local/share/trainforge/prices.tsv" ] && ok where-home-default || no where-home-default
expect_rc where-relative-xdg 0 env XDG_DATA_HOME=relative/dir HOME=/home/somebody "$TF" prices where
[ "$(cat "$t/out")" = "/home/somebody/.local/share/trainforge/prices.tsv" ] && ok where-relative-xdg-ignored || no where-relative-xdg-ignored
expect_rc default-store-import 0 "$TF" prices import "$F/spot.json"
[ -s "$XDG_DATA_HOME/trainforge/prices.tsv" ] && ok default-store-written || no default-store-written
rm -f "$XDG_DATA_HOME/trainforge/prices.tsv"
expect_rc prices-missing-store 2 "$TF" plan -v --prices "$t/no-such-store.tsv" examples/jobs/moe-176b-trn2-mixed.yaml
has prices-missing-store-message 'no-such-store.tsv: no such file' "$t/err"
printf 'not a store\n' >"$t/junk.tsv"
expect_rc prices-not-a-store 2 "$TF" plan -v --prices "$t/junk.tsv" examples/jobs/moe-176b-trn2-mixed.yaml
has prices-not-a-store-message 'is not a trainforge price store' "$t/err"

# ---- the reference mixed job: on demand, reserved and spot, each with its origin
M=examples/jobs/moe-176b-trn2-mixed.yaml
"$TF" prices import --prices "$t/ref.tsv" "$F/index.csv" "$F/spot.json" >/dev/null 2>&1
expect_rc ref-plan 0 "$TF" plan -v --prices "$t/ref.tsv" $M
has ref-on-demand '^  on-demand        \$2861/h, run \$[0-9]*, .*(imported, us-east-2, as of 2026-09-01 (91 days old); .*index.csv, price-list-csv, imported 2026-12-01)' "$t/out"
has ref-reserved '^  reserved         \$1792/h, run \$[0-9]*, .*(imported, us-east-2, as of 2026-09-01 (91 days old), 1-year no-upfront standard Reserved Instance; ' "$t/out"
has ref-spot '^  spot             \$897.28/h, run \$[0-9]*, .*(imported, us-east-2, as of 2026-11-30 (1 day old), the highest of 2 zones.* latest (lowest \$13.41); .*spot.json, spot-price-history' "$t/out"
has ref-fleet '^  fleet cost       reserved \$1344/h (reserved, imported price); spot \$224.32/h (imported spot price history); together \$1568/h' "$t/out"
expect_rc ref-plan-json 0 "$TF" plan -v --prices "$t/ref.tsv" --format json $M
json_check ref-plan-json-prices "$t/out" '
c = d["estimates"][0]["cost"]
for k in ("onDemand", "reserved", "spot"):
    assert c[k]["from"] == "imported" and c[k]["usdPerNodeHour"] > 0 and c[k]["ageDays"] >= 0, c[k]
assert c["reserved"]["offer"] == "1-year no-upfront standard Reserved Instance"
assert c["spot"]["zones"] == 2 and c["spot"]["lowUsdPerNodeHour"] == 13.41
assert d["fleet"]["usdPerHour"] > 0'
# the reserved offer the spec names
sed 's/^  max_restarts: 32$/  max_restarts: 32\n  reserved_offer: {years: 3, purchase: all-upfront, class: convertible}/' $M >"$t/offer.yaml"
expect_rc ref-offer 0 "$TF" plan -v --prices "$t/ref.tsv" "$t/offer.yaml"
has ref-offer-3yr '^  reserved         \$1280/h, .*3-year all-upfront convertible Reserved Instance' "$t/out"
# none of it without the store
expect_rc ref-isolated 0 "$TF" plan -v --isolated $M
has ref-isolated-unknown '^  reserved         unknown' "$t/out"
# the spec's own prices, without any store, labelled as the user's
sed 's/^  spot_discount: 0.6$/  prices: {on_demand: 44.7, reserved: 27.5, spot: 14.5}/' $M >"$t/own.yaml"
expect_rc ref-own-prices 0 "$TF" plan -v --isolated "$t/own.yaml"
has ref-own-on-demand '^  on-demand        \$2861/h, .*(your own price, capacity.prices.on_demand)' "$t/out"
has ref-own-reserved '^  reserved         \$1760/h, .*(your own price, capacity.prices.reserved)' "$t/out"
has ref-own-spot '^  spot             \$928.00/h, .*(your own price, capacity.prices.spot)' "$t/out"
has ref-own-fleet '^  fleet cost       reserved \$1320/h (reserved, your own price); spot \$232.00/h (your own price)' "$t/out"
# the spec's prices win over the store's, and apply to its own type only
expect_rc ref-own-over-store 0 "$TF" plan -v --prices "$t/ref.tsv" --compare p5.48xlarge "$t/own.yaml"
has ref-own-wins '^  spot             \$928.00/h, .*(your own price, capacity.prices.spot)' "$t/out"
grep -A40 '^p5.48xlarge:' "$t/out" | grep -q 'your own price' && no ref-own-not-other-types || ok ref-own-not-other-types

# ---- built-in against imported: the newer wins --------------------------------
mk_c5() { # publication date, price
	{ pre "$1"; row C5 JRTCKXETXF 6YS6EN2CT7 OnDemand c5 Hrs "$2" '' '' '' 'Compute Instance' c5.large Shared Linux NA Used us-east-1; } >"$F/c5-$1.csv"
}
mk_c5 2026-01-05 0.0700000000
mk_c5 2026-11-20 0.0810000000
"$TF" prices import --prices "$t/c5.tsv" "$F/c5-2026-01-05.csv" >/dev/null 2>&1
expect_rc builtin-newer 0 "$TF" instances --prices "$t/c5.tsv" --format json --family c5
json_check builtin-newer-wins "$t/out" '
od = [i for i in d["instances"] if i["name"] == "c5.large"][0]["price"]["onDemand"]
assert od["from"] == "built-in" and od["usdPerHour"] == 0.085 and od["date"] == "2026-07-20", od'
"$TF" prices import --prices "$t/c5.tsv" "$F/c5-2026-11-20.csv" >/dev/null 2>&1
expect_rc imported-newer 0 "$TF" instances --prices "$t/c5.tsv" --format json --family c5
json_check imported-newer-wins "$t/out" '
od = [i for i in d["instances"] if i["name"] == "c5.large"][0]["price"]["onDemand"]
assert od["from"] == "imported" and od["usdPerHour"] == 0.081 and od["date"] == "2026-11-20" and od["ageDays"] == 11, od'
expect_rc instances-text 0 "$TF" instances --prices "$t/c5.tsv" --family c5
has instances-text-origin '^c5.large .* 0.0810 (imported 2026-11-20, 11d)' "$t/out"
has instances-text-legend '^  [0-9]*  aws/karpenter-provider-aws website/content/en/preview/reference/instance-types.md' "$t/out"
# lint's cost rule reads the config region's imported price
printf 'Region: us-east-1\nImage: {Os: alinux2023}\nHeadNode:\n  InstanceType: c5.large\n  Networking: {SubnetId: subnet-0123456789abcdef0}\n  Ssh: {KeyName: k}\nScheduling:\n  Scheduler: slurm\n  SlurmQueues:\n  - Name: q\n    ComputeResources:\n    - {Name: c, InstanceType: c5.large, MinCount: 4, MaxCount: 4}\n    Networking: {SubnetIds: [subnet-0123456789abcdef0]}\n' >"$t/c5.yaml"
expect_rc lint-imported 0 "$TF" lint --prices "$t/c5.tsv" --format concise "$t/c5.yaml"
has lint-imported-price 'MinCount 4 x c5.large: \$0.32/h while idle (\$236.52 a month), us-east-1 imported on-demand price of 2026-11-20, 11 days old' "$t/out"
expect_rc lint-isolated-builtin 0 "$TF" lint --isolated --format concise "$t/c5.yaml"
has lint-builtin-price 'MinCount 4 x c5.large: \$0.34/h while idle (\$248.20 a month), us-east-1 on-demand price of 2026-07-20, 134 days old' "$t/out"

# ---- the catalog's EC2 table is the converter's output of the vendored data ---
vendor=../shared/vendor/karpenter-1d92708
if [ -d "$vendor" ]; then
	python3 tools/ec2_types.py "$vendor" >"$t/ec2-types.tsv" 2>"$t/err" &&
		cmp -s "$t/ec2-types.tsv" schemas/ec2-types.tsv && ok ec2-types-converted || no ec2-types-converted
	# every type there is in the catalog, by name
	cut -f1 schemas/ec2-types.tsv | grep -E '^[a-z0-9-]+\.[a-z0-9-]+$' | sort -u >"$t/names"
	"$TF" instances --isolated --format json >"$t/all.json" 2>/dev/null
	python3 - "$t/all.json" "$t/names" >"$t/err" 2>&1 <<'PY' && ok ec2-types-all-listed || no ec2-types-all-listed
import json, sys
listed = {i["name"] for i in json.load(open(sys.argv[1]))["instances"]}
want = set(open(sys.argv[2]).read().split())
assert len(want) > 1000 and want <= listed, sorted(want - listed)[:10]
PY
else
	skip "ec2-types-converted $vendor is absent"
	skip "ec2-types-all-listed $vendor is absent"
fi
