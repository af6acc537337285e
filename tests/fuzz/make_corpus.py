#!/usr/bin/env python3
"""Builds the seed corpora (tests/fuzz/corpus/<target>/) and dictionaries
(tests/fuzz/dict/<target>.dict) from the repo's own inputs: rule cases,
examples, templates and schemas. Seeds are named by content hash, so a
rerun adds new inputs and keeps old ones; files over MAX_SEED bytes are
left out. Run from anywhere: python3 tests/fuzz/make_corpus.py"""
import glob
import hashlib
import json
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FUZZ = os.path.join(ROOT, "tests", "fuzz")
MAX_SEED = 16384


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def files(*patterns):
    out = []
    for p in patterns:
        out += sorted(glob.glob(os.path.join(ROOT, p), recursive=True))
    return [os.path.relpath(f, ROOT) for f in out
            if os.path.isfile(f) and not f.endswith((".expect", ".args"))
            and os.path.getsize(f) <= MAX_SEED]


def put(target, data):
    d = os.path.join(FUZZ, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


YAML = files("tests/cases/*/*.yaml", "examples/**/*.yaml")
CLUSTERS = [f for f in YAML if b"HeadNode" in read(f)]
JOBS = [f for f in YAML if re.search(rb"^trainforge:", read(f), re.M)]
TEMPLATES = files("templates/*.mustache")
TEMPLATED = [f for f in YAML if re.search(rb"\$\{|\{\{|\{%|<[A-Z]", read(f))]
SMALL_JSON = files("schemas/*.json")  # the big schema is left out by size
SCRIPTS = files("examples/**/*.sbatch", "tests/cases/*/*.sbatch", "tests/cases/*/*.sh",
                "tests/cases/SB*/*", "templates/batch.sbatch.mustache")

# Hand-written Mustache seeds: one per feature of the spec's modules
# (the spec's own tests stay in ../shared, outside the project).
MUSTACHE = [
    b"Hello, {{name}}!\n",
    b"{{&raw}} {{{raw}}} {{! a comment }}{{a.b.c}}\n",
    b"{{#list}}- {{.}}\n{{/list}}{{^list}}none\n{{/list}}",
    b"{{#m}}{{k}}={{v}}\n{{/m}}",
    b"{{=<% %>=}}<% name %><%={{ }}=%>{{name}}",
    b"begin\n  {{>a}}\nend\n",
    b"{{#a}}\n  {{#b}}\n    {{c}}\n  {{/b}}\n{{/a}}\n",
    b"| {{#bool}}yes{{/bool}}{{^bool}}no{{/bool}} |",
    b"{{>self}}",
]
MUSTACHE_DATA = [
    b"name: world\nraw: <b>&\"'\na: {b: {c: deep}}\nlist: [1, two, 3.5, true, null]\n"
    b"m: [{k: x, v: 1}, {k: y, v: 2}]\nbool: false\nb: [1, 2]\nc: text\n",
    b"{}",
]
CONFIGS = [
    b"# the project's settings\nignore: [PC1004]\nper-file-ignores:\n  \"clusters/test-*.yaml\": [PC2101]\n"
    b"exclude: [\"build/**\", generated]\n",
    b"extends: b.yaml\nseverity:\n  PC2101: info\nfail-level: error\n",
    b"severity: {PC1004: warning, efa-without-placement-group: error}\n",
    b"select: [PC, SB3]\nignore: [LN0001]\ncluster: clusters/trn2.yaml\nshellcheck: off\n",
    b"select: [ALL]\nfail-level: never\nshellcheck: ./no-such-shellcheck\n",
    b"exclude: [\"**/x/*.yaml\", \"[a-c]?.yaml\", \"{a,b}/**\"]\n",
    b"# nothing but a comment\n",
    b"target:\n  parallelcluster: \"3.13\"\n",
    b"extends: b.yaml\ntarget: {slurm: 22.05}\n",
    b"target:\n  parallelcluster: 3.10\n  slurm: \"25.11.8\"\n",
]
TARGETS = [
    b"parallelcluster=3.13\nslurm=22.05\n",
    b"parallelcluster=3.16.0\nslurm=26.05\nparallelcluster=3.14.2\n",
    b"slurm=25.11.7\n3.9\npc=3.13\nparallelcluster=\n",
]
PARTIALS = [b"partial {{name}}\n  second line\n", b"{{#list}}{{>b}}{{/list}}", b"[{{.}}]"]


def rpc_line(obj):
    return json.dumps(obj).encode() + b"\n"


def rpc_seeds():
    """Message streams for the JSON-RPC target: MCP lines (the target sends
    initialize first) and the same messages in Content-Length frames."""
    broken = [{"path": f, "content": read(f).decode("utf-8", "replace")}
              for f in ("examples/broken/cluster.yaml", "examples/broken/train.sbatch")]
    job = {"path": "job.yaml", "content": read("examples/jobs/moe-176b-trn2.yaml").decode()}
    calls = [
        ("lint", {"files": broken, "shellcheck": "off"}),
        ("lint", {"files": [{"path": "cluster.yaml"}], "select": ["PC"], "target": {"slurm": "22.05"}}),
        ("fix", {"files": broken, "unsafe": True}),
        ("gen", {"spec": job, "directory": "out"}),
        ("gen_write", {"spec": job, "directory": "out", "force": True}),
        ("plan", {"spec": job, "compare": ["p5.48xlarge"], "hours": 10}),
        ("explain", {"rule": "PC2101"}),
        ("diff", {"old": {"path": "cluster.yaml"}, "new": {"path": "new.yaml", "content": "a: 1\n"}}),
        ("instances", {"family": "trn2", "efa": True}),
        ("lint", {"files": [{"pathz": 1}], "kind": "docker"}),
    ]
    msgs = [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(calls, 1)]
    msgs += [{"jsonrpc": "2.0", "id": 20, "method": m} for m in
             ("tools/list", "resources/list", "resources/templates/list", "prompts/list", "ping")]
    msgs += [{"jsonrpc": "2.0", "id": 30, "method": "resources/read", "params": {"uri": u}} for u in
             ("trainforge://rules/PC2101", "trainforge://schema/tco", "trainforge://instances")]
    msgs.append({"jsonrpc": "2.0", "id": 40, "method": "prompts/get",
                 "params": {"name": "review-cluster", "arguments": {"cluster": "cluster.yaml"}}})
    msgs.append({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    for m in msgs:
        put("rpc", rpc_line(m))
    put("rpc", b"".join(rpc_line(m) for m in msgs[-8:]))
    put("rpc", json.dumps(msgs[-8:-4]).encode() + b"\n")  # a batch
    put("rpc", b"not json\n{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}\n\r\n")
    for m in msgs[-8:]:
        body = json.dumps(m).encode()
        put("rpc", b"Content-Length: %d\r\n\r\n" % len(body) + body)


def build_corpora():
    rpc_seeds()
    for f in YAML + SMALL_JSON:
        put("yamldoc", read(f))
    for f in YAML:
        put("schema", read(f))
        put("lint", read(f))
    for f in TEMPLATED:
        put("tmpl", read(f))
    for f in JOBS:
        put("jobspec", read(f))
        put("gen", read(f))
    for f in CLUSTERS:
        put("jobspec", read(f))  # the wrong kind, forced: a cheap path
    for c in CONFIGS:
        put("config", c)
    for f in files("examples/tco/*.yaml"):
        put("tco", read(f))
    # the change review: OLD \0 NEW, from the change cases; a config alone
    # is compared with itself
    for f in files("tests/cases/*/*.yaml"):
        if os.path.exists(os.path.join(ROOT, f + ".base")):
            put("diff", read(f + ".base") + b"\0" + read(f))
    for f in CLUSTERS[:20]:
        put("diff", read(f))
    for c in TARGETS:
        put("target", c)
    for f in SCRIPTS:
        put("sbatch", read(f))
        put("lint", read(f))
    for i, t in enumerate(MUSTACHE):
        put("mustache", t)
        put("mustache", t + b"\0" + MUSTACHE_DATA[i % 2] + b"\0" + b"\0".join(PARTIALS))
    for f in TEMPLATES:
        t = read(f)
        put("mustache", t)
        for job in JOBS[:3]:
            put("mustache", t + b"\0" + read(job) + b"\0" + read("templates/env-neuron.mustache")
                + b"\0" + read("templates/env-gpu.mustache"))


def schema_words(path):
    """Property names and enum values of a JSON Schema."""
    words = set()

    def walk(n):
        if isinstance(n, dict):
            for k, v in n.items():
                if k == "properties" and isinstance(v, dict):
                    words.update(v.keys())
                if k == "enum" and isinstance(v, list):
                    words.update(str(x) for x in v if isinstance(x, (str, int)))
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)
    with open(os.path.join(ROOT, path)) as f:
        walk(json.load(f))
    return sorted(w for w in words if 0 < len(w) <= 40)


YAML_TOKENS = [
    "---", "...", ": ", "- ", "? ", "{", "}", "[", "]", ", ", "&a ", "*a", "!!str ",
    "!!int ", "!!map", "!!seq", "!tag ", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n",
    "|\n", "|-\n", ">+\n", "|2\n", "'", "\"", "\\u00e9", "\\x41", "#", "\n  ", "\n- ", "<<: ",
    "~", "null", "true", "false", "yes", "No", "on", "OFF", "0x1F", "0o17", "017",
    "1_000", "1:30", "0b101", ".inf", "-.Inf", ".nan", "1e3", "-0", "+12", "\t", "\r\n",
    "\ufeff", "\u2010", "\u00a0",
]
MUSTACHE_TOKENS = [
    "{{", "}}", "{{{", "}}}", "{{#", "{{/", "{{^", "{{>", "{{!", "{{&", "{{=", "=}}",
    "{{.}}", "{{a.b}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{>a}}", "{{>b}}", "{{>self}}",
    "{{=<% %>=}}", "<%", "%>", "\n", "  ", "\r\n",
]
DIRECTIVES = [
    "# trainforge disable=", "# trainforge disable-file=", " # reason", "PC2101", "LN0001",
    "JS2001", "ALL", "# yaml-language-server: $schema=",
]


def quote(w):
    out = ""
    for ch in w.encode():
        c = chr(ch)
        out += c if 32 <= ch < 127 and c not in "\"\\" else "\\x%02x" % ch
    return '"' + out + '"'


def write_dict(target, words):
    d = os.path.join(FUZZ, "dict")
    os.makedirs(d, exist_ok=True)
    seen = []
    for w in words:
        if w not in seen:
            seen.append(w)
    with open(os.path.join(d, target + ".dict"), "w") as f:
        f.write("# generated by tests/fuzz/make_corpus.py\n")
        for w in seen:
            f.write(quote(w) + "\n")


def instance_names():
    text = read("schemas/instances.yaml").decode()
    return sorted(set(re.findall(r"^\s*- name: ([a-z0-9.-]+)", text, re.M)))[:60]


SHELL_TOKENS = [
    "#!/bin/bash\n", "#SBATCH ", "#SLURM ", "--nodes=", "-N ", "--ntasks-per-node=",
    "--partition=", "--output=%x-%j.out", "--time=", "--gpus=", "--exclusive", "hetjob",
    "srun ", "torchrun ", "mpirun ", "python -m torch.distributed.run ", "neuron_parallel_compile ",
    "--nnodes", "--nproc_per_node", "--rdzv_endpoint", "--rdzv-backend=c10d", " train.py",
    "bash -c '", "sh -c \"", "$SLURM_JOB_NUM_NODES", "$SLURM_NNODES", "${NNODES}", "${A:=1}",
    "${ARGS[@]}", "$(", ")", "`", "$((", "))", "<<EOF\n", "<<'EOF'\n", "<<-EOF\n", "EOF\n",
    "\\\n", "\\ \n", "export ", "declare -x ", "local ", "readonly ", "unset ", "read ",
    "for i in 1 2; do ", "done", "if [ -n \"$A\" ]; then ", "fi", "case $A in a) ", ";;", "esac",
    "while :; do ", "f() { ", "}", "| ", "&& ", "|| ", " &", "; ", "=(", "time ", "env ",
    "exec ", "NEURON_CC_FLAGS=", "FI_PROVIDER=efa", "NCCL_DEBUG=INFO",
]


def sbatch_options():
    text = read("lint/slurm/options.c").decode()
    return sorted(set(re.findall(r'^\s*OPT\("([a-z0-9-]+)"', text, re.M)))


def build_dicts():
    pc = schema_words("schemas/parallelcluster.schema.json")
    js = schema_words("schemas/jobspec.schema.json")
    write_dict("yamldoc", YAML_TOKENS)
    write_dict("schema", YAML_TOKENS + pc + js)
    write_dict("lint", YAML_TOKENS + DIRECTIVES + pc + js + instance_names() + SHELL_TOKENS[:30])
    write_dict("jobspec", YAML_TOKENS + ["trainforge: 1"] + js + instance_names())
    write_dict("diff", YAML_TOKENS + ["\0", "QueueUpdateStrategy: ", "DRAIN", "TERMINATE",
                                      "DeletionPolicy: ", "Retain", "Snapshot", "Delete"] + pc)
    write_dict("gen", YAML_TOKENS + ["trainforge: 1"] + js + instance_names())
    write_dict("tco", YAML_TOKENS + ["trainforge_tco: 1"] + schema_words("schemas/tco.schema.json")
               + instance_names())
    opts = ["--" + o for o in sbatch_options()] if os.path.exists(os.path.join(ROOT, "lint/slurm/options.c")) else []
    write_dict("config", YAML_TOKENS + [
        "select: ", "ignore: ", "per-file-ignores:", "exclude: ", "severity: ", "fail-level: ",
        "extends: ", "extends: b.yaml", "cluster: ", "shellcheck: ", "info", "warning", "error",
        "never", "off", "auto", "required", "ALL", "PC", "PC2101", "SB3", "LN0001",
        "efa-without-placement-group", "**", "*", "?", "[a-z]", "{a,b}", "../", "./", "/",
        "*.yaml", "build/**", "clusters/test-*.yaml", "target:", "parallelcluster: ", "slurm: ",
        "\"3.13\"", "22.05", "3.16.0"])
    write_dict("rpc", ["{", "}", "[", "]", ":", ",", "\\n", "\\u0000", "\\ud83d\\ude00", "null", "true",
                       "false", "1e400", "-0", "\"jsonrpc\"", "\"2.0\"", "\"id\"", "\"method\"",
                       "\"params\"", "\"result\"", "\"error\"", "\"arguments\"", "\"name\"",
                       "\"files\"", "\"path\"", "\"content\"", "\"spec\"", "\"uri\"",
                       "\"tools/call\"", "\"tools/list\"", "\"resources/read\"", "\"prompts/get\"",
                       "\"initialize\"", "\"notifications/cancelled\"", "\"lint\"", "\"fix\"",
                       "\"gen\"", "\"gen_write\"", "\"plan\"", "\"explain\"", "\"diff\"",
                       "\"instances\"", "Content-Length: ", "\r\n\r\n"])
    write_dict("target", ["parallelcluster=", "slurm=", "3.", "22.", "25.11", "3.16", ".0", "\n"])
    write_dict("sbatch", SHELL_TOKENS + opts)
    write_dict("mustache", MUSTACHE_TOKENS + YAML_TOKENS[:24] + ["\x00"])
    write_dict("tmpl", YAML_TOKENS + [
        "${", "}", "${SUBNET}", "${NODES:-4}", "${X-y}", "$NODES", "{{", "}}", "{{ instance }}",
        "{%", "%}", "{% if a %}", "{% elif b %}", "{% else %}", "{% endif %}", "{%- if x -%}",
        "{% for q in queues %}", "{% endfor %}", "{#", "#}", "<YOUR SUBNET>", "<ID>", "subnet-<ID>",
        "|", ">-", "# ", "\xe2\x80\x91", "\xc2\xad", "\xef\xbb\xbf", "export ", "=", "\"", "'"])


# The price import targets: one small file of each format AWS documents,
# quirks included (prices as strings, a reserved offer as a fee row and
# an hourly row, or as two price dimensions; terms before products).
PRICE_CSV_HEADER = ('"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate",'
                    '"StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo",'
                    '"LeaseContractLength","PurchaseOption","OfferingClass","Product Family","serviceCode",'
                    '"Location","Location Type","Instance Type","Tenancy","Operating System","usageType",'
                    '"operation","CapacityStatus","MarketOption","Pre Installed S/W","Region Code"\n')
PRICE_CSV_PRE = ('"FormatVersion","v1.0"\n"Disclaimer","For information only."\n'
                 '"Publication Date","2026-09-01T22:53:08Z"\n"Version","20260901225308"\n"OfferCode","AmazonEC2"\n')


def price_row(sku, term, termtype, unit, price, lease="", purchase="", cls="", typ="trn2.48xlarge",
              os_="Linux", region="us-east-2"):
    q = lambda v: '"%s"' % v if v else ""
    return ",".join([q(sku), q(term), q(sku + "." + term + ".6YS6EN2CT7"), q(termtype), q("desc, \"\"x\"\""),
                     q("2026-08-01"), "", "", q(unit), q(price), q("USD"), "", q(lease), q(purchase), q(cls),
                     q("Compute Instance"), q("AmazonEC2"), q("US East (Ohio)"), q("AWS Region"), q(typ),
                     q("Shared"), q(os_), q("USE2-BoxUsage:" + typ), q("RunInstances"), q("Used"),
                     q("OnDemand"), q("NA"), q(region)]) + "\n"


PRICE_CSV = [
    PRICE_CSV_PRE + PRICE_CSV_HEADER
    + price_row("A", "JRTCKXETXF", "OnDemand", "Hrs", "44.7000000000")
    + price_row("A", "4NA7Y494T4", "Reserved", "Hrs", "15.0", "1yr", "Partial Upfront", "standard")
    + price_row("A", "4NA7Y494T4", "Reserved", "Quantity", "131400", "1yr", "Partial Upfront", "standard")
    + price_row("B", "JRTCKXETXF", "OnDemand", "Hrs", "99", os_="Windows")
    + price_row("C", "JRTCKXETXF", "OnDemand", "Hrs", "5", region="us-east-1-dfw-2"),
    ('"FormatVersion","v1.0"\n"Disclaimer","x"\n"Publication Date","2026-09-01T00:00:00Z"\n'
     '"Version","1"\n"OfferCode","AWSComputeSavingsPlan"\n'
     '"SKU","RateCode","Unit","EffectiveDate","DiscountedRate","Currency","DiscountedSKU",'
     '"DiscountedServiceCode","DiscountedUsageType","DiscountedOperation","PurchaseOption",'
     '"LeaseContractLength","LeaseContractLengthUnit","ServiceCode","UsageType","Operation",'
     '"Description","Instance Family","Location","Location Type","Granularity","Product Family",'
     '"DiscountedRegionCode","DiscountedInstanceType"\r\n'
     '"SP1","SP1.X","Hrs","2026-08-01","30.1","USD","Y","AmazonEC2","USE2-BoxUsage:trn2.48xlarge",'
     '"RunInstances","No Upfront","1","year","ComputeSavingsPlans","ComputeSP:1yrNoUpfront","",'
     '"1 year No Upfront Compute Savings Plan","","Any","AWS Region","hourly","ComputeSavingsPlans",'
     '"us-east-2","trn2.48xlarge"\r\n'),
]

PRICE_JSON = [
    json.dumps({
        "formatVersion": "v1.0", "offerCode": "AmazonEC2", "publicationDate": "2026-10-01T00:00:00Z",
        "products": {"A": {"sku": "A", "productFamily": "Compute Instance", "attributes": {
            "locationType": "AWS Region", "instanceType": "trn2.48xlarge", "tenancy": "Shared",
            "operatingSystem": "Linux", "capacitystatus": "Used", "preInstalledSw": "NA",
            "regionCode": "us-east-2", "operation": "RunInstances"}}},
        "terms": {
            "OnDemand": {"A": {"A.JRTCKXETXF": {"offerTermCode": "JRTCKXETXF", "sku": "A",
                                               "effectiveDate": "2026-09-15T00:00:00Z", "priceDimensions": {
                "A.JRTCKXETXF.6YS6EN2CT7": {"unit": "Hrs", "pricePerUnit": {"USD": "42.5000000000"}}},
                "termAttributes": {}}}},
            "Reserved": {"A": {"A.4NA7Y494T4": {"offerTermCode": "4NA7Y494T4", "sku": "A",
                                               "effectiveDate": "2026-09-15T00:00:00Z", "priceDimensions": {
                "A.4NA7Y494T4.2TG2D8R56U": {"unit": "Quantity", "pricePerUnit": {"USD": "122640"}},
                "A.4NA7Y494T4.6YS6EN2CT7": {"unit": "Hrs", "pricePerUnit": {"USD": "14.0000000000"}}},
                "termAttributes": {"LeaseContractLength": "1yr", "OfferingClass": "standard",
                                   "PurchaseOption": "Partial Upfront"}}}}}}, indent=1),
]
# terms first: the reader goes over the file twice
_doc = json.loads(PRICE_JSON[0])
PRICE_JSON.append(json.dumps({"terms": _doc["terms"], "offerCode": "AmazonEC2",
                               "publicationDate": "2026-10-01T00:00:00Z", "products": _doc["products"]}))
PRICE_JSON.append(json.dumps({
    "version": "1", "publicationDate": "2026-09-01T00:00:00Z", "regionCode": "us-east-2",
    "products": [{"sku": "SP1", "productFamily": "ComputeSavingsPlans", "serviceCode": "ComputeSavingsPlans",
                  "usageType": "ComputeSP:1yrNoUpfront", "operation": "",
                  "attributes": {"purchaseOption": "No Upfront", "purchaseTerm": "1yr", "locationType": "AWS Region"}}],
    "terms": {"savingsPlan": [{"sku": "SP1", "description": "1 year No Upfront", "effectiveDate": "2026-08-01T00:00:00Z",
                               "leaseContractLength": {"duration": 1, "unit": "year"},
                               "rates": [{"discountedSku": "Y", "discountedUsageType": "USE2-BoxUsage:trn2.48xlarge",
                                          "discountedOperation": "RunInstances", "discountedServiceCode": "AmazonEC2",
                                          "rateCode": "SP1.Y", "unit": "Hrs",
                                          "discountedRate": {"price": "30.1", "currency": "USD"},
                                          "discountedInstanceType": "trn2.48xlarge"}]}]}}))

PRICE_PRODUCT = json.dumps({
    "product": {"productFamily": "Compute Instance", "attributes": {
        "instanceType": "p5.48xlarge", "locationType": "AWS Region", "tenancy": "Shared",
        "operatingSystem": "Linux", "capacitystatus": "Used", "preInstalledSw": "NA",
        "regionCode": "us-west-2", "operation": "RunInstances"}, "sku": "P5"},
    "serviceCode": "AmazonEC2", "publicationDate": "2026-10-20T00:00:00Z",
    "terms": {"OnDemand": {"P5.JRTCKXETXF": {"priceDimensions": {"P5.JRTCKXETXF.6YS6EN2CT7": {
        "unit": "Hrs", "pricePerUnit": {"USD": "55.0400000000"}}}, "sku": "P5",
        "effectiveDate": "2026-10-01T00:00:00Z", "offerTermCode": "JRTCKXETXF", "termAttributes": {}}}}})

PRICE_SPOT = json.dumps([
    {"AvailabilityZone": "us-east-1a", "InstanceType": "p5.48xlarge", "ProductDescription": "Linux/UNIX",
     "SpotPrice": "21.500000", "Timestamp": "2026-11-30T10:00:00+00:00"},
    {"AvailabilityZone": "us-east-1b", "InstanceType": "p5.48xlarge", "ProductDescription": "Linux/UNIX",
     "SpotPrice": "19.000000", "Timestamp": "2026-11-30T12:00:00-05:00"},
    {"AvailabilityZone": "us-east-1b", "InstanceType": "p5.48xlarge", "ProductDescription": "Windows",
     "SpotPrice": "40.000000", "Timestamp": "2026-11-30T12:00:00Z"}], indent=1)

PRICE_TYPES = json.dumps([
    {"InstanceType": "trn2.48xlarge", "VCpuInfo": {"DefaultVCpus": 192}, "MemoryInfo": {"SizeInMiB": 2097152},
     "ProcessorInfo": {"SupportedArchitectures": ["x86_64"]},
     "NetworkInfo": {"EfaSupported": True, "MaximumNetworkCards": 16, "EfaInfo": {"MaximumEfaInterfaces": 16},
                     "NetworkCards": [{"PeakBandwidthInGbps": 200.0}]},
     "NeuronInfo": {"NeuronDevices": [{"Count": 16, "Name": "Trainium2", "CoreInfo": {"Count": 8},
                                       "MemoryInfo": {"SizeInMiB": 98304}}]}},
    {"InstanceType": "zz9.2xlarge", "VCpuInfo": {"DefaultVCpus": 8}, "MemoryInfo": {"SizeInMiB": 32768},
     "GpuInfo": {"Gpus": [{"Name": "H200", "Manufacturer": "NVIDIA", "Count": 1,
                           "MemoryInfo": {"SizeInMiB": 143771}}]}}], indent=1)

PRICE_STORE = ("trainforge-prices 1\n"
               "source\t1\tprice-list-csv\t2026-09-12\t2026-11-20\t/data/index.csv\n"
               "source\t2\tinstance-types\t-\t2026-11-21\t/data/types.json\n"
               "m5.large\tus-east-1\ton-demand\t-\t2026-09-01\t0.096\t0.096\t-\t2026-09-01\t1\n"
               "p5.48xlarge\tus-east-1\tspot\tus-east-1a\t2026-11-10T00:00:00Z\t22\t22\t-\t-\t1\n"
               "zz9.2xlarge\t-\tfigures\t-\t2026-11-21\t-\t-\t-\t-\t2\tvcpus=8;memory_mib=32768\n")


def build_price_corpora():
    for c in PRICE_CSV:
        put("prices_csv", c.encode())
    for c in PRICE_JSON:
        put("prices_json", c.encode())
    put("prices_products", PRICE_PRODUCT.encode())
    put("prices_spot", PRICE_SPOT.encode())
    put("prices_types", PRICE_TYPES.encode())
    put("price_store", PRICE_STORE.encode())


def build_price_dicts():
    json_tokens = ["{", "}", "[", "]", ":", ",", "\"", "\\u00", "null", "true", "false", "1e-05", "0.0000000000"]
    write_dict("prices_csv", ['","', '""', ",,", "\r\n", "\n", '"Hrs"', '"Quantity"', '"OnDemand"', '"Reserved"',
                              '"1yr"', '"3yr"', '"No Upfront"', '"All Upfront"', '"convertible"', '"Linux"',
                              '"Shared"', '"Used"', '"NA"', '"us-east-1"', '"Region Code"', '"SKU"',
                              '"DiscountedRate"', '"DiscountedRegionCode"', "2026-08-01", "p5.48xlarge"])
    words = ["products", "terms", "OnDemand", "Reserved", "savingsPlan", "priceDimensions", "pricePerUnit",
             "USD", "unit", "Hrs", "Quantity", "termAttributes", "LeaseContractLength", "PurchaseOption",
             "OfferingClass", "attributes", "instanceType", "regionCode", "locationType", "tenancy",
             "operatingSystem", "capacitystatus", "preInstalledSw", "sku", "effectiveDate",
             "publicationDate", "rates", "discountedRate", "discountedRegionCode", "discountedInstanceType",
             "PriceList", "SpotPriceHistory", "InstanceTypes", "AvailabilityZone", "SpotPrice", "Timestamp",
             "ProductDescription", "Linux/UNIX", "VCpuInfo", "DefaultVCpus", "MemoryInfo", "SizeInMiB",
             "GpuInfo", "Gpus", "NeuronInfo", "NeuronDevices", "NetworkInfo", "EfaSupported",
             "2026-11-30T10:00:00+00:00"]
    quoted = ['"%s"' % w for w in words]
    write_dict("prices_json", json_tokens + quoted)
    write_dict("prices_products", json_tokens + quoted)
    write_dict("prices_spot", json_tokens + quoted)
    write_dict("prices_types", json_tokens + quoted)
    write_dict("price_store", ["\t", "\n", "trainforge-prices 1\n", "source\t", "on-demand", "reserved",
                               "spot", "savings-plan", "capacity-block", "figures", "1yr/no-upfront/standard",
                               "2026-09-01", "-", "us-east-1", "p5.48xlarge", "vcpus=", ";"])


if __name__ == "__main__":
    build_corpora()
    build_dicts()
    build_price_corpora()
    build_price_dicts()
    total = 0
    for dirpath, _, names in os.walk(os.path.join(FUZZ, "corpus")):
        for n in names:
            total += os.path.getsize(os.path.join(dirpath, n))
    print("seed corpora: %d bytes" % total)
