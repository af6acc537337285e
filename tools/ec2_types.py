#!/usr/bin/env python3
"""Converts the EC2 instance-type tables that aws/karpenter-provider-aws
generates from the EC2 and Pricing APIs into schemas/ec2-types.tsv, the
catalog's own table of every EC2 instance type:

    python3 tools/ec2_types.py ../shared/vendor/karpenter-1d92708 > schemas/ec2-types.tsv

Run once per new copy of the tables; tests/catalog checks that the
committed file is what this program writes from ../shared/vendor. The
figures carry over (one row per type, one column per figure, each column
naming its source); the generated files themselves stay where they are.
catalog_gen (tools/catalog_gen.c) reads the result beside
schemas/instances.yaml, whose hand-checked entries win field by field.

Reads, from DIR:
  instance-types.md          for each type: vCPUs, memory MiB, architecture,
                             GPU or accelerator maker, name, count and memory,
                             Neuron devices and cores, EFA interfaces,
                             network bandwidth (Mbps)
  zz_generated.bandwidth.go  network bandwidth of the types the page lacks it for
  zz_generated.pricing_aws.go  us-east-1 on-demand prices (and their date)
"""
import os
import re
import sys

COMMIT = "1d927085dd81a9df9301e613f371dac5b4d16bfe"
COMMIT_DATE = "2026-08-21"
REPO = "https://github.com/aws/karpenter-provider-aws/blob/" + COMMIT

# The accelerator names Karpenter writes (from DescribeInstanceTypes'
# GpuInfo and InferenceAcceleratorInfo/NeuronInfo), as the catalog spells
# the model and which kind of accelerator it is.
MODELS = {
    "a100": ("nvidia-gpu", "A100"), "a10g": ("nvidia-gpu", "A10G"),
    "b200": ("nvidia-gpu", "B200"), "b300": ("nvidia-gpu", "B300"),
    "h100": ("nvidia-gpu", "H100"), "h200": ("nvidia-gpu", "H200"),
    "l4": ("nvidia-gpu", "L4"), "l40s": ("nvidia-gpu", "L40S"),
    "t4": ("nvidia-gpu", "T4"), "t4g": ("nvidia-gpu", "T4g"),
    "v100": ("nvidia-gpu", "V100"),
    "rtx-pro-4500": ("nvidia-gpu", "RTX PRO 4500"),
    "rtx-pro-server-6000": ("nvidia-gpu", "RTX PRO 6000 Server"),
    "radeon-pro-v520": ("amd-gpu", "Radeon Pro V520"),
    "trainium": ("trainium", "Trainium"), "trainium2": ("trainium2", "Trainium2"),
    "inferentia": ("inferentia", "Inferentia"),
    "inferentia2": ("inferentia2", "Inferentia2"),
    "qualcomm-ai100": ("other", "Qualcomm AI 100"),
}

SOURCES = [
    ("karpenter-ec2-types", "aws-api-derived", COMMIT_DATE,
     REPO + "/website/content/en/preview/reference/instance-types.md",
     "aws/karpenter-provider-aws website/content/en/preview/reference/instance-types.md "
     "(generated from EC2 DescribeInstanceTypes)"),
    ("karpenter-ec2-bandwidth", "aws-api-derived", COMMIT_DATE,
     REPO + "/pkg/providers/instancetype/zz_generated.bandwidth.go",
     "aws/karpenter-provider-aws pkg/providers/instancetype/zz_generated.bandwidth.go "
     "(InstanceTypeBandwidthMegabits)"),
    ("karpenter-ec2-pricing", "aws-api-derived", None,
     REPO + "/pkg/providers/pricing/zz_generated.pricing_aws.go",
     "aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go "
     "(InitialOnDemandPricesAWS, us-east-1, from the AWS Pricing API)"),
]

# column, source id, what the source calls it
COLUMNS = [
    ("name", "karpenter-ec2-types", "node.kubernetes.io/instance-type"),
    ("vcpus", "karpenter-ec2-types", "karpenter.k8s.aws/instance-cpu"),
    ("memory_mib", "karpenter-ec2-types", "karpenter.k8s.aws/instance-memory (MiB)"),
    ("arch", "karpenter-ec2-types", "kubernetes.io/arch (amd64 is x86_64)"),
    ("accel", "karpenter-ec2-types",
     "instance-gpu-manufacturer and -name, instance-accelerator-manufacturer and -name; none when neither"),
    ("accel_model", "karpenter-ec2-types", "instance-gpu-name or instance-accelerator-name"),
    ("accel_count", "karpenter-ec2-types",
     "instance-gpu-count, aws.amazon.com/neuron (Neuron devices) or instance-accelerator-count"),
    ("gpu_memory_mib", "karpenter-ec2-types", "karpenter.k8s.aws/instance-gpu-memory (MiB per GPU)"),
    ("neuron_cores", "karpenter-ec2-types", "aws.amazon.com/neuroncore"),
    ("efa_interfaces", "karpenter-ec2-types",
     "vpc.amazonaws.com/efa (0: the type has no EFA; the page lists it for every type that has)"),
    ("network_mbps", "karpenter-ec2-types", "karpenter.k8s.aws/instance-network-bandwidth (Mbps)"),
    ("network_mbps_table", "karpenter-ec2-bandwidth",
     "InstanceTypeBandwidthMegabits (Mbps), for the types the page gives none"),
    ("usd_per_hour_us_east_1", "karpenter-ec2-pricing", "InitialOnDemandPricesAWS[\"us-east-1\"]"),
]


def die(msg):
    sys.stderr.write("ec2_types: %s\n" % msg)
    sys.exit(1)


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def parse_types(text):
    """{name: {label or resource: value}} from the generated page."""
    types, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^### `([^`]+)`$", line)
        if m:
            cur = types.setdefault(m.group(1), {})
            continue
        m = re.match(r"^ \|([^|]+)\|([^|]*)\|$", line)
        if m and cur is not None and not m.group(1).startswith("-"):
            cur[m.group(1)] = m.group(2)
    return types


def parse_bandwidth(text):
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^\s*"([a-z0-9.-]+)":\s*(\d+),', text, re.M)}


def parse_pricing(text):
    date = re.search(r"generated at (\d{4}-\d\d-\d\d)T\S+ for us-east-1", text)
    if not date:
        die("zz_generated.pricing_aws.go: no 'generated at DATE for us-east-1' line")
    block = text.split('"us-east-1": {', 1)
    if len(block) != 2:
        die("zz_generated.pricing_aws.go: no us-east-1 table")
    prices = {m.group(1): m.group(2)
              for m in re.finditer(r'"([a-z0-9.-]+)":\s*([0-9.]+)', block[1].split("\n\t},", 1)[0])}
    return date.group(1), prices


def decimal(text):
    """The price as the shortest decimal that is the source's value."""
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def row(name, t, bandwidth, prices):
    def num(key):
        v = t.get(key, "")
        if v and not v.isdigit():
            die("%s: %s is '%s', not a whole number" % (name, key, v))
        return v or "-"

    arch = {"amd64": "x86_64", "arm64": "arm64"}.get(t.get("kubernetes.io/arch"))
    if arch is None:
        die("%s: architecture '%s'" % (name, t.get("kubernetes.io/arch")))
    gpu = t.get("karpenter.k8s.aws/instance-gpu-name")
    acc = t.get("karpenter.k8s.aws/instance-accelerator-name")
    if gpu and acc:
        die("%s: both a GPU and an accelerator" % name)
    accel, model, count, gpu_mem, cores = "none", "-", "0", "0", "0"
    if gpu or acc:
        key = gpu or acc
        if key not in MODELS:
            die("%s: accelerator '%s' has no entry in MODELS" % (name, key))
        accel, model = MODELS[key]
        if gpu:
            # a fraction of a GPU (g6f) has count 0: no whole number is right
            count = num("karpenter.k8s.aws/instance-gpu-count").replace("0", "-") \
                if t.get("karpenter.k8s.aws/instance-gpu-count") == "0" else \
                num("karpenter.k8s.aws/instance-gpu-count")
            gpu_mem = num("karpenter.k8s.aws/instance-gpu-memory") if accel == "nvidia-gpu" else "0"
        else:
            count = t.get("aws.amazon.com/neuron") or num("karpenter.k8s.aws/instance-accelerator-count")
        cores = t.get("aws.amazon.com/neuroncore", "-") if accel in (
            "trainium", "trainium2", "inferentia", "inferentia2") else "0"
    net = num("karpenter.k8s.aws/instance-network-bandwidth")
    table = str(bandwidth[name]) if net == "-" and name in bandwidth else "-"
    price = decimal(prices[name]) if name in prices else "-"
    return [name, num("karpenter.k8s.aws/instance-cpu"), num("karpenter.k8s.aws/instance-memory"),
            arch, accel, model, count, gpu_mem, cores, t.get("vpc.amazonaws.com/efa", "0"), net,
            table, price]


def main():
    if len(sys.argv) != 2:
        die("usage: ec2_types.py DIR > schemas/ec2-types.tsv")
    d = sys.argv[1]
    types = parse_types(read(os.path.join(d, "instance-types.md")))
    bandwidth = parse_bandwidth(read(os.path.join(d, "zz_generated.bandwidth.go")))
    price_date, prices = parse_pricing(read(os.path.join(d, "zz_generated.pricing_aws.go")))
    if len(types) < 1000:
        die("instance-types.md: only %d types" % len(types))
    out = sys.stdout
    out.write("# Every EC2 instance type, as EC2's DescribeInstanceTypes and the AWS\n"
              "# Pricing API describe it, through the tables aws/karpenter-provider-aws\n"
              "# generates from them. Written by tools/ec2_types.py: do not edit; the\n"
              "# hand-checked entries of schemas/instances.yaml win field by field.\n"
              "# A 'source' line names a source (id, kind, date, location, title); a\n"
              "# 'column' line says which source backs a column and what it calls the\n"
              "# figure; '-' is unknown. Then the header row and one row per type.\n")
    for sid, kind, date, loc, title in SOURCES:
        out.write("source\t%s\t%s\t%s\t%s\t%s\n" % (sid, kind, date or price_date, loc, title))
    for col, sid, what in COLUMNS:
        out.write("column\t%s\t%s\t%s\n" % (col, sid, what))
    out.write("\t".join(c[0] for c in COLUMNS) + "\n")
    for name in sorted(types):
        out.write("\t".join(row(name, types[name], bandwidth, prices)) + "\n")


if __name__ == "__main__":
    main()
