#!/usr/bin/env python3
"""Writes a Price List bulk offer file for AmazonEC2 (index.csv) of about
SIZE bytes, in the shape AWS publishes it: the five preamble lines, the
header of the 2025 files (95 columns, every value quoted, empty ones
bare), and for each instance type and Region every product AWS lists
(six operating systems, three tenancies, three capacity states, SQL
Server editions on Windows), each with its on-demand row and its twelve
reserved offers (a partial or all upfront offer is two rows: the fee and
the hourly rate). About one row in fifty is Linux on shared tenancy with
capacity used, as in the real file.

    python3 tests/bench/make_price_list.py OUT.csv SIZE_BYTES

The instance types and their figures are the catalog's
(schemas/ec2-types.tsv); prices are made up but plausible. Used by
tests/bench/prices.sh; the file is never kept in the repository."""
import hashlib
import sys

HEADER = ("SKU,OfferTermCode,RateCode,TermType,PriceDescription,EffectiveDate,StartingRange,"
          "EndingRange,Unit,PricePerUnit,Currency,RelatedTo,LeaseContractLength,PurchaseOption,"
          "OfferingClass,Product Family,serviceCode,Location,Location Type,Instance Type,"
          "Current Generation,Instance Family,vCPU,Physical Processor,Clock Speed,Memory,Storage,"
          "Network Performance,Processor Architecture,Storage Media,Volume Type,Max Volume Size,"
          "Max IOPS/volume,Max IOPS Burst Performance,Max throughput/volume,Provisioned,Tenancy,"
          "EBS Optimized,Operating System,License Model,Group,Group Description,Transfer Type,"
          "From Location,From Location Type,To Location,To Location Type,usageType,operation,"
          "AvailabilityZone,CapacityStatus,ClassicNetworkingSupport,Dedicated EBS Throughput,ECU,"
          "Elastic Graphics Type,Enhanced Networking Supported,From Region Code,GPU,GPU Memory,"
          "Instance,Instance Capacity - 10xlarge,Instance Capacity - 12xlarge,"
          "Instance Capacity - 16xlarge,Instance Capacity - 18xlarge,Instance Capacity - 24xlarge,"
          "Instance Capacity - 2xlarge,Instance Capacity - 32xlarge,Instance Capacity - 4xlarge,"
          "Instance Capacity - 8xlarge,Instance Capacity - 9xlarge,Instance Capacity - large,"
          "Instance Capacity - medium,Instance Capacity - metal,Instance Capacity - xlarge,"
          "instanceSKU,Intel AVX2 Available,Intel AVX Available,Intel Turbo Available,MarketOption,"
          "Normalization Size Factor,Physical Cores,Pre Installed S/W,Processor Features,"
          "Product Type,Region Code,Resource Type,serviceName,SnapshotArchiveFeeType,To Region Code,"
          "Volume API Name,VPCNetworkingSupport").split(",")

REGIONS = [
    ("us-east-1", "US East (N. Virginia)", "USE1"), ("us-east-2", "US East (Ohio)", "USE2"),
    ("us-west-1", "US West (N. California)", "USW1"), ("us-west-2", "US West (Oregon)", "USW2"),
    ("eu-west-1", "EU (Ireland)", "EUW1"), ("eu-west-2", "EU (London)", "EUW2"),
    ("eu-west-3", "EU (Paris)", "EUW3"), ("eu-central-1", "EU (Frankfurt)", "EUC1"),
    ("eu-north-1", "EU (Stockholm)", "EUN1"), ("eu-south-1", "EU (Milan)", "EUS1"),
    ("ap-northeast-1", "Asia Pacific (Tokyo)", "APN1"), ("ap-northeast-2", "Asia Pacific (Seoul)", "APN2"),
    ("ap-northeast-3", "Asia Pacific (Osaka)", "APN3"), ("ap-southeast-1", "Asia Pacific (Singapore)", "APS1"),
    ("ap-southeast-2", "Asia Pacific (Sydney)", "APS2"), ("ap-south-1", "Asia Pacific (Mumbai)", "APS3"),
    ("ca-central-1", "Canada (Central)", "CAN1"), ("sa-east-1", "South America (Sao Paulo)", "SAE1"),
    ("me-south-1", "Middle East (Bahrain)", "MES1"), ("af-south-1", "Africa (Cape Town)", "AFS1"),
]
SYSTEMS = [  # operating system, license model, operation code, price factor
    ("Linux", "No License required", "RunInstances", 1.0),
    ("Windows", "License Included", "RunInstances:0002", 1.45),
    ("RHEL", "No License required", "RunInstances:0010", 1.12),
    ("SUSE", "No License required", "RunInstances:000g", 1.2),
    ("Red Hat Enterprise Linux with HA", "No License required", "RunInstances:1010", 1.3),
    ("Ubuntu Pro", "No License required", "RunInstances:0g00", 1.03),
]
TENANCIES = [("Shared", "BoxUsage"), ("Dedicated", "DedicatedUsage"), ("Host", "HostBoxUsage")]
CAPACITIES = ["Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"]
RESERVED = [(y, p, c) for y in ("1yr", "3yr") for p in ("No Upfront", "Partial Upfront", "All Upfront")
            for c in ("standard", "convertible")]


def code(*parts, n=16):
    h = hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest().upper()
    return h[:n]


def q(v):
    return '"' + v.replace('"', '""') + '"' if v else ""


def types():
    out = []
    with open("schemas/ec2-types.tsv", encoding="utf-8") as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if len(c) < 13 or c[0] in ("name", "source", "column") or line.startswith("#"):
                continue
            out.append((c[0], c[1], c[2], c[3], c[12]))
    return out


def rows(typ, vcpus, mem, arch, price, region, loc, prefix):
    base = float(price) if price not in ("-", "") else 0.05 * max(int(vcpus) if vcpus.isdigit() else 2, 1)
    family = typ.split(".")[0]
    mem_gib = "%g GiB" % (int(mem) / 1024) if mem.isdigit() else ""
    arch_txt = "64-bit" if arch == "x86_64" else "64-bit Arm"
    for os_, lic, op, factor in SYSTEMS:
        softwares = ["NA", "SQL Web", "SQL Std"] if os_ == "Windows" else ["NA"]
        for sw in softwares:
            for ten, usage in TENANCIES:
                for cap in CAPACITIES:
                    sku = code(typ, region, os_, sw, ten, cap)
                    od = base * factor * (1.1 if ten != "Shared" else 1.0) * (1.6 if sw != "NA" else 1.0)
                    attrs = {
                        "Product Family": "Compute Instance", "serviceCode": "AmazonEC2", "Location": loc,
                        "Location Type": "AWS Region", "Instance Type": typ, "Current Generation": "Yes",
                        "Instance Family": "General purpose", "vCPU": vcpus,
                        "Physical Processor": "Intel Xeon Platinum 8375C (Ice Lake)", "Clock Speed": "3.5 GHz",
                        "Memory": mem_gib, "Storage": "EBS only", "Network Performance": "Up to 12500 Megabit",
                        "Processor Architecture": arch_txt, "Tenancy": ten, "EBS Optimized": "Yes",
                        "Operating System": os_, "License Model": lic,
                        "usageType": "%s-%s:%s" % (prefix, usage, typ), "operation": op,
                        "AvailabilityZone": "NA", "CapacityStatus": cap, "ClassicNetworkingSupport": "false",
                        "Dedicated EBS Throughput": "Up to 10000 Mbps", "ECU": "NA",
                        "Enhanced Networking Supported": "Yes", "GPU": "", "instanceSKU": "",
                        "Intel AVX2 Available": "Yes", "Intel AVX Available": "Yes",
                        "Intel Turbo Available": "Yes", "MarketOption": "OnDemand",
                        "Normalization Size Factor": "4", "Pre Installed S/W": sw,
                        "Processor Features": "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo",
                        "Region Code": region, "serviceName": "Amazon Elastic Compute Cloud",
                        "VPCNetworkingSupport": "true",
                    }
                    tail = [q(attrs.get(h, "")) for h in HEADER[15:]]
                    desc = "$%.3f per On Demand %s %s Instance Hour" % (od, os_, typ)
                    yield [q(sku), q("JRTCKXETXF"), q(sku + ".JRTCKXETXF.6YS6EN2CT7"), q("OnDemand"),
                           q(desc), q("2025-09-01"), q("0"), q("Inf"), q("Hrs"), q("%.10f" % od), q("USD"),
                           "", "", "", ""] + tail
                    if cap != "Used":
                        continue
                    for years, purchase, cls in RESERVED:
                        term = code(sku, years, purchase, cls, n=10)
                        n = 1 if years == "1yr" else 3
                        disc = (0.62 if n == 1 else 0.42) * (1.1 if cls == "convertible" else 1.0)
                        share = {"No Upfront": 0, "Partial Upfront": 0.5, "All Upfront": 1}[purchase]
                        hourly = od * disc * (1 - share)
                        fee = od * disc * share * 8760 * n
                        lease = [q(years), q(purchase), q(cls)]
                        if share:
                            yield [q(sku), q(term), q(sku + "." + term + ".2TG2D8R56U"), q("Reserved"),
                                   q("Upfront Fee"), q("2025-09-01"), "", "", q("Quantity"), q("%.0f" % fee),
                                   q("USD"), ""] + lease + tail
                        yield [q(sku), q(term), q(sku + "." + term + ".6YS6EN2CT7"), q("Reserved"),
                               q("USD %.4f per %s (Amazon VPC), %s reserved instance applied" % (hourly, os_, typ)),
                               q("2025-09-01"), q("0"), q("Inf"), q("Hrs"), q("%.10f" % hourly), q("USD"), ""] + \
                            lease + tail


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_price_list.py OUT.csv SIZE_BYTES")
    target = int(sys.argv[2])
    written = 0
    catalog = types()
    with open(sys.argv[1], "w", encoding="utf-8", newline="") as out:
        pre = ('"FormatVersion","v1.0"\n"Disclaimer","This pricing list is for informational purposes only. '
               'All prices are subject to the additional terms included in the pricing pages on http://aws.amazon.com."\n'
               '"Publication Date","2025-09-12T22:53:08Z"\n"Version","20250912225308"\n"OfferCode","AmazonEC2"\n')
        out.write(pre)
        out.write(",".join(q(h) for h in HEADER) + "\n")
        written = len(pre)
        for region, loc, prefix in REGIONS:
            for typ, vcpus, mem, arch, price in catalog:
                chunk = "\n".join(",".join(r) for r in rows(typ, vcpus, mem, arch, price, region, loc, prefix)) + "\n"
                out.write(chunk)
                written += len(chunk)
                if written >= target:
                    return
    sys.exit("make_price_list.py: ran out of types and regions at %d bytes" % written)


if __name__ == "__main__":
    main()
