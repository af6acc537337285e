#!/usr/bin/python3
"""The version tables against the sourced facts.

docs/versions-data.tsv holds one row per fact with its source;
docs/versions-table.md is what `trainforge docs versions` prints from the
tables the code checks against. Every fact of a kind the tables encode
must be in them with its release, every table row must have a fact, each
row's addition must come before its removal, and every fact the tables do
not encode is listed below with the reason. Prints RESULT lines.

Usage: check.py versions-data.tsv versions-table.md parallelcluster.schema.json
"""
import json
import re
import sys

TSV, TABLE, SCHEMA = sys.argv[1:4]
failed = []


def result(ok, name, why=""):
    print("RESULT %s versions/%s%s" % ("pass" if ok else "fail", name, ": " + why if why and not ok else ""))


def ver(s):
    """'3.15.0' or '24.05' as a tuple; None when it is not a version."""
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?", s.strip())
    return tuple(int(x) for x in m.groups(default="0")) if m else None


def same_release(fact, table):
    """A fact's '23.11' matches the table's 23.11.4 (the fact's detail has
    the patch); otherwise the two must be equal."""
    a, b = ver(fact), ver(table)
    if not a or not b:
        return False
    if re.fullmatch(r"\d+\.\d+", fact.strip()):
        return a[:2] == b[:2]
    return a == b


# ---- the inputs -------------------------------------------------------------

facts = []
with open(TSV) as f:
    header = f.readline().rstrip("\n").split("\t")
    for n, line in enumerate(f, 2):
        cells = line.rstrip("\n").split("\t")
        if len(cells) != len(header):
            result(False, "tsv-line-%d" % n, "%d cells, not %d" % (len(cells), len(header)))
            continue
        facts.append(dict(zip(header, cells), line=n))

sections = {}
section = None
for line in open(TABLE):
    if line.startswith("## "):
        section = line[3:].strip()
        sections[section] = []
    elif section and line.startswith("| ") and not line.startswith("|---"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        sections[section].append([c.replace("`", "") for c in cells])
for s in sections.values():
    if s:
        s.pop(0)  # the header row

releases = {r[0]: r[1] for r in sections.get("ParallelCluster releases", [])}
keys = {r[0]: (r[1], r[2]) for r in sections.get("Cluster-config keys and values", [])}
sbatch = {r[0]: (r[1], r[2], r[3]) for r in sections.get("sbatch options", [])}
changes = {}
for r in sections.get("srun options, and values of both commands", []):
    name = r[1]
    m = re.fullmatch(r"(--\S+) \((.*)\)", name)
    if m:
        name = m.group(1) + "=<" + m.group(2) + ">"
    for cmd in r[0].split(", "):
        changes[(cmd, name)] = (r[2], r[3], r[4])

schema = json.load(open(SCHEMA))


def deref(s):
    for _ in range(8):
        if isinstance(s, dict) and "$ref" in s:
            s = schema["$defs"][s["$ref"].split("/")[-1]]
    return s


def key_schema(path):
    """The schema of a key path (Scheduling/SlurmQueues[]/Name), and the
    release tags met on the way (the nearest tagged ancestor counts)."""
    s, tags = deref(schema), []
    for part in path.split("/"):
        items = part.endswith("[]")
        name = part[:-2] if items else part
        props = s.get("properties", {})
        if name not in props:
            return None, tags
        s = props[name]
        tags.append((s.get("x-since"), s.get("x-until")))
        s = deref(s)
        if items:
            s = deref(s.get("items", {}))
    return s, tags


used = set()  # table rows a fact accounts for

# ---- ParallelCluster releases ----------------------------------------------

for fact in [f for f in facts if f["kind"] == "pc-release"]:
    pc, slurm = fact["subject"], fact["version"]
    name = "release-" + pc
    if slurm == "UNCONFIRMED":
        result(pc not in releases, name, "listed, though no source gives its Slurm")
    else:
        want = slurm.split("-")[0]  # 21.08.8-2 is 21.08.8 with a packaging revision
        result(releases.get(pc) == want, name, "table has %s, the fact %s" % (releases.get(pc), want))
for pc in releases:
    result(any(f["kind"] == "pc-release" and f["subject"] == pc for f in facts), "release-sourced-" + pc,
           "no fact for it")

# ---- cluster-config keys and values -----------------------------------------

BASELINE = (3, 11, 0)  # the schema is 3.11's; earlier changes are in it already
for fact in [f for f in facts if f["kind"] in ("pc-key", "pc-value")]:
    subject, change, version = fact["subject"], fact["change"], fact["version"]
    path, _, value = subject.partition("=")
    name = "%s-%s-%s" % (fact["kind"], change, subject)
    if change == "deprecated":
        # deprecation warns, it does not reject: the removal is the fact that counts
        result(any(f["subject"] == subject and f["change"] == "removed" for f in facts), name,
               "a deprecation without a removal row")
        continue
    v = ver(version)
    s, tags = key_schema(path)
    if s is None and not (change == "removed" and v and v <= BASELINE):
        result(False, name, "no such key in the schema")
        continue
    if v and v <= BASELINE:
        enum = s.get("enum", []) if s else []
        has = value in enum if value else s is not None
        result(has == (change == "added"), name + "-in-3.11-baseline",
               "%s in the 3.11 schema" % ("missing" if change == "added" else "still"))
        continue
    row = keys.get(subject)
    col = 0 if change == "added" else 1
    if row is None and not value:
        # a key under a tagged key (LaunchTemplateOverrides/Version) has its parent's release
        parent = [t[col] for t in tags[:-1] if t[col]]
        result(bool(parent) and same_release(version, parent[-1]), name,
               "neither it nor a parent is tagged %s" % version)
        continue
    result(row is not None and same_release(version, row[col]), name,
           "table has %s" % (row,))
    used.add(("key", subject))
for subject, (added, removed) in keys.items():
    result(("key", subject) in used, "key-row-sourced-" + subject, "a tag no fact gives")
    if added and removed:
        result(ver(added) < ver(removed), "key-order-" + subject, "added %s, removed %s" % (added, removed))

# ---- Slurm --------------------------------------------------------------------

# Facts whose release the sources leave open, as docs/versions.md,
# "targets-slurm", decides them.
DECIDED = {
    ("sbatch", "--power", "removed"): "24.05",
    ("srun", "--power", "removed"): "24.05",
    ("sbatch", "--resources", "added"): "25.05",
    ("srun", "--resources", "added"): "25.05",
}
# Facts that are not the existence of an option or value in a release,
# with what the tables do with them instead.
NOT_ENCODED = {
    "--exclusive with --oversubscribe": "a combination both releases parse; sbatch decides at submission",
    "--hint with --cores-per-socket or --sockets-per-node": "a combination, not an option",
    "%b filename pattern": "a pattern inside --output's value, which is free text",
    "--output/--error directories": "what sbatch does with a path, not an option: SB2009 holds below 23.02",
    "SBATCH_SEGMENT_SIZE": "an input variable, not an option",
    "--uid,--gid": "sbatch keeps them (present); their values are site facts",
    "--cluster": "present in 22.05 (the table's baseline)",
    "--context": "present in 22.05 (the table's baseline)",
    "--hold": "present in 22.05 (the table's baseline)",
    "--ntasks-per-tres": "present in 22.05 (the table's baseline)",
    "--tasks-per-node": "present in 22.05 (the table's baseline)",
    "--accel-bind": "still parsed by 25.11.7's srun: in every release",
}


def slurm_row(cmd, subject):
    if cmd == "sbatch" and "=" not in subject:
        return sbatch.get(subject)
    if subject.startswith("--nodes=<"):
        subject = "--nodes=<a size list or step>"  # the fact's words for the form
    return changes.get((cmd, subject))


for fact in [f for f in facts if f["kind"] in ("slurm-option", "srun-option")]:
    cmd = "sbatch" if fact["kind"] == "slurm-option" else "srun"
    subject, change, version = fact["subject"], fact["change"], fact["version"]
    for one in (subject.split(",") if subject == "--uid,--gid" and cmd == "srun" else [subject]):
        name = "%s-%s-%s" % (cmd, change, one)
        if one in NOT_ENCODED and not (one == "--uid,--gid" and cmd == "srun"):
            result(True, name)
            continue
        row = slurm_row(cmd, one)
        if change == "invalid":
            result(row is None, name, "an sbatch row for a value only srun takes")
            continue
        if change == "present":
            ok = row is None or (not row[1] and (row[2].startswith("first known") or version == "UNCONFIRMED"))
            result(ok and (row is None or row[2].startswith("first known") or row[0]), name,
                   "the table has %s" % (row,))
            continue
        col = 0 if change in ("added", "changed") else 1
        if row is None:
            result(False, name, "not in the tables")
            continue
        used.add((cmd, one if not one.startswith("--nodes=<") else "--nodes=<a size list or step>"))
        if version == "UNCONFIRMED":
            decided = DECIDED.get((cmd, one, change))
            ok = (decided and same_release(decided, row[col])) or row[2].startswith("first known")
            result(bool(ok), name + "-open", "the table says %s without a decision" % (row,))
        else:
            result(same_release(version, row[col]), name, "table has %s, the fact %s" % (row[col], version))
for one, row in sbatch.items():
    result(("sbatch", one) in used or row[2].startswith("first known"), "sbatch-row-sourced-" + one,
           "a release no fact gives")
for (cmd, one), row in changes.items():
    result((cmd, one) in used or row[2].startswith("first known"), "%s-row-sourced-%s" % (cmd, one),
           "a release no fact gives")
for table in (sbatch, {k[1]: v for k, v in changes.items()}):
    for one, row in table.items():
        if row[0] and row[1]:
            result(ver(row[0]) < ver(row[1]), "order-" + one, "added %s, removed %s" % row[:2])
