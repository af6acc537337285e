"""trainforge's review against ParallelCluster's own: for each pair of
files (OLD NEW...), the vendored 3.11 package's ConfigPatch compares the
two loaded configs and checks each change, as `pcluster update-cluster`
does, against a stand-in for the running cluster that answers as
trainforge assumes (the compute fleet runs; a login pool runs when the
old config gives it a Count above zero). Every change ParallelCluster
would refuse or hold for an action must be a blocking finding of
`trainforge diff --target parallelcluster=3.11` at the same key (PC5001,
PC5002, PC5005, or PC5006 for a storage deleted with its data), and every
blocking finding must be such a change (but PC5006, which trainforge
reports where ParallelCluster lets the deletion pass too). A template
case (its NAME.args gives --define NAME=VALUE) is compared as rendered
with those values, which trainforge gets too: ParallelCluster only ever
reads a rendered config. Usage: configpatch_agree.py TF OLD NEW [OLD NEW...]. Prints
RESULT lines."""
import io
import json
import os
import re
from collections import Counter
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vendor import use_vendored, skip_unimportable  # noqa: E402

use_vendored("update/configpatch")
try:
    from pcluster.config.config_patch import ConfigPatch
    from pcluster.utils import yaml_load
except ImportError as err:
    skip_unimportable("update/configpatch", err)

BLOCKING = {"PC5001", "PC5002", "PC5005", "PC5006"}
FINDINGS = BLOCKING | {"PC5003", "PC5004", "PC5007"}


class Stack:
    def __init__(self, scheduler):
        self.scheduler = scheduler


class RunningCluster:
    """The cluster as trainforge imagines it: every compute node running."""

    name = "review"

    def __init__(self, old):
        self.stack = Stack(old.get("Scheduling", {}).get("Scheduler"))
        pools = (old.get("LoginNodes") or {}).get("Pools") or []
        self.running_pools = {p.get("Name") for p in pools
                              if isinstance(p, dict) and not (isinstance(p.get("Count"), int) and p["Count"] <= 0)}

    def has_running_capacity(self):
        return True

    def get_running_capacity(self):
        return 0

    def has_running_login_nodes(self, pool_name=None):
        return pool_name in self.running_pools if pool_name else bool(self.running_pools)


def key_path(change):
    return ".".join(list(change.path) + [change.key])


def theirs(old, new):
    """(key path, blocked) for each change ParallelCluster shows."""
    patch = ConfigPatch(RunningCluster(old), old, new)
    out = []
    for change in patch.changes:
        try:
            result, _reason, _action, print_change = change.update_policy.check(change, patch)
        except (AttributeError, TypeError):
            # 3.11's checker fails on this change (a changed MountDir with
            # nodes running): update-cluster stops with an error
            out.append((key_path(change), True))
            continue
        if print_change:
            out.append((key_path(change), result.value != "SUCCEEDED"))
    return out


def defines_of(*paths):
    """The --define values of the case the files belong to (NAME.args)."""
    for path in paths:
        args = re.sub(r"\.base$", "", path) + ".args"
        if os.path.exists(args):
            with open(args, encoding="utf-8") as f:
                return dict(re.findall(r"--define ([A-Za-z_][A-Za-z0-9_]*)=(\S*)", f.read()))
    return {}


def rendered(path, defines):
    """The file as envsubst writes it with the case's values."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: defines.get(m.group(1), m.group(0)), text)


def ours(tf, old_path, new_path, defines):
    """(key path, blocking) for each PC5 finding of trainforge diff."""
    flags = [a for name, value in defines.items() for a in ("--define", "%s=%s" % (name, value))]
    run = subprocess.run([tf, "diff", "--target", "parallelcluster=3.11", "--format", "json",
                          "--fail-level", "never", "--select", "PC5"] + flags +
                         [old_path, new_path], capture_output=True, text=True)
    out = []
    for d in json.loads(run.stdout)["diagnostics"]:
        if d["rule"] not in FINDINGS:
            continue
        subject = d["message"].split(" ", 1)[0].rstrip(":")
        if subject.endswith("]"):  # an item: ParallelCluster names the list
            subject = subject[:subject.rindex("[")]
        out.append((subject, d["rule"] in BLOCKING, d["rule"]))
    return out


tf = sys.argv[1]
pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
failed = 0
for old_path, new_path in pairs:
    name = os.path.relpath(new_path)
    defines = defines_of(new_path, old_path)
    try:
        old = yaml_load(io.StringIO(rendered(old_path, defines)))
        new = yaml_load(io.StringIO(rendered(new_path, defines)))
    except Exception as err:  # not YAML, or a duplicate key: pcluster stops there
        print("RESULT pass update/configpatch/%s: ParallelCluster cannot load it (%s)" % (name, type(err).__name__))
        continue
    if not all(isinstance(c, dict) and "HeadNode" in c and "Scheduling" in c for c in (old, new)):
        print("RESULT pass update/configpatch/%s: not a pair of configs, nothing to compare" % name)
        continue
    try:
        pc = theirs(old, new)
    except (AttributeError, TypeError) as err:
        # 3.11's comparison itself fails (a storage whose StorageType
        # changes under the same Name): the update is refused, so
        # trainforge must block something
        mine = [r for _, blocking, r in ours(tf, old_path, new_path, defines) if blocking]
        print("RESULT %s update/configpatch/%s: ParallelCluster's comparison fails (%s), trainforge blocks %s" %
              ("pass" if mine else "fail", name, type(err).__name__, ", ".join(mine) or "nothing"))
        failed += not mine
        continue
    tfs = ours(tf, old_path, new_path, defines)
    # per key path, as many blocked changes as blocking findings (a
    # renamed item is a removal and an addition at the same path)
    held = Counter(path for path, blocked in pc if blocked)
    # PC5006 is stricter than ParallelCluster: a storage deleted with its
    # data is an error even where QueueUpdateStrategy lets the change pass,
    # so it may stand for a held change or for none
    blocks = Counter(path for path, blocking, rule in tfs if blocking and rule != "PC5006")
    deletes = Counter(path for path, _, rule in tfs if rule == "PC5006")
    problems = []
    for path in sorted(set(held) | set(blocks) | set(deletes)):
        if not blocks[path] <= held[path] <= blocks[path] + deletes[path]:
            problems.append("%s: ParallelCluster holds %d change(s), trainforge blocks %d (%s)" %
                            (path, held[path], blocks[path],
                             ", ".join(r for p, _, r in tfs if p == path) or "no finding"))
    if problems:
        failed += 1
        print("RESULT fail update/configpatch/%s: %s" % (name, "; ".join(problems)))
    else:
        print("RESULT pass update/configpatch/%s" % name)
sys.exit(1 if failed else 0)
