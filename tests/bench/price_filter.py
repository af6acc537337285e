#!/usr/bin/env python3
"""What people do today with the Price List bulk offer file: filter the
rows of Linux instances on shared tenancy with Python's csv module, and
write what they keep. The same rows trainforge keeps (docs/prices.md),
so `make bench` compares like with like.

    python3 tests/bench/price_filter.py index.csv kept.csv"""
import csv
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, newline="", encoding="utf-8") as f, open(dst, "w", newline="", encoding="utf-8") as out:
        r = csv.reader(f)
        for row in r:
            if row and row[0] == "SKU":
                header = row
                break
        else:
            sys.exit("no header")
        ix = {name: i for i, name in enumerate(header)}
        term, os_, ten, fam = ix["TermType"], ix["Operating System"], ix["Tenancy"], ix["Product Family"]
        loc, sw, cap, mkt = ix["Location Type"], ix["Pre Installed S/W"], ix["CapacityStatus"], ix["MarketOption"]
        cur, typ, reg, unit = ix["Currency"], ix["Instance Type"], ix["Region Code"], ix["Unit"]
        price, eff = ix["PricePerUnit"], ix["EffectiveDate"]
        lease, po, oc, sku, code = ix["LeaseContractLength"], ix["PurchaseOption"], ix["OfferingClass"], ix["SKU"], ix["OfferTermCode"]
        w = csv.writer(out)
        w.writerow(["sku", "term", "type", "region", "term_type", "lease", "purchase", "class", "unit", "price", "effective"])
        for row in r:
            if (row[term] in ("OnDemand", "Reserved") and row[os_] == "Linux" and row[ten] == "Shared"
                    and row[fam] in ("Compute Instance", "Compute Instance (bare metal)")
                    and row[loc] == "AWS Region" and row[sw] == "NA" and row[cap] == "Used"
                    and row[mkt] in ("", "OnDemand") and row[cur] == "USD"):
                w.writerow([row[sku], row[code], row[typ], row[reg], row[term], row[lease], row[po], row[oc],
                            row[unit], row[price], row[eff]])


if __name__ == "__main__":
    main()
