"""The update-policy table against ParallelCluster's own schema. Walks the
`update_policy` metadata of every field of the vendored 3.11 ClusterSchema
(loaded as ../shared/tools/pcluster_offline_validate.py loads it: the
unmodified package, Debian's python3-marshmallow) and checks that
docs/update-policy.md (what `trainforge docs update-policy` prints) has
the same rows at 3.11 (rows of later releases are docs/updates.md's,
"Per release"): each key path with its policy, how it is compared (a
value, a section, a list and the key its items are matched by), and no
row the schema lacks but the NOT_COMPARED ones, which must sit under a
custom action. Usage: policy_agree.py TABLE.md. Prints RESULT lines."""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vendor import use_vendored, skip_unimportable  # noqa: E402

use_vendored("update/policy-agree")
try:
    from pcluster.config.update_policy import UpdatePolicy
    from pcluster.schemas.cluster_schema import ClusterSchema
except ImportError as err:
    skip_unimportable("update/policy-agree", err)


def walk(schema, prefix, out, depth=0):
    """Every field of schema as path -> (compared, policy), as ConfigPatch reads them."""
    if depth > 16:
        raise RuntimeError("schema nests deeper than 16 at " + prefix)
    for name, field in schema.declared_fields.items():
        key = field.data_key or name
        path = prefix + key
        # ConfigPatch's default for a field without metadata
        policy = field.metadata.get("update_policy", UpdatePolicy.UNSUPPORTED).name
        nested = hasattr(field, "nested")
        many = nested and getattr(field, "many", False)
        if many:
            compared = "items by `%s`" % field.metadata.get("update_key")
        else:
            compared = "key by key" if nested else "as a value"
        out[path] = (compared, policy)
        if nested:
            walk(field.schema, path + ("[]." if many else "."), out, depth + 1)


schema = {}
walk(ClusterSchema(cluster_name="policycheck"), "", schema)
row = re.compile(r"^\| `([^`]+)` \| (as a value|key by key|items by `[A-Za-z]+`) \| `([A-Z_]+)` \| "
                 r"3\.(\d+) to 3\.(\d+) \|$")
table = {}
later = 0
for line in open(sys.argv[1], encoding="utf-8"):
    m = row.match(line)
    if m and int(m.group(4)) <= 11 <= int(m.group(5)):  # the rows that hold at 3.11
        table[m.group(1)] = (m.group(2), m.group(3))
    elif m:
        later += 1
failed = 0


def result(ok, name, detail=""):
    global failed
    print("RESULT %s update/policy/%s%s" % ("pass" if ok else "fail", name, "" if ok else ": " + detail))
    failed += not ok


result(len(schema) > 300, "schema-walked", "only %d fields" % len(schema))
result(later > 0, "later-rows-read", "no row of a release after 3.11 was read from the table")
for path in sorted(schema):
    want = schema[path]
    got = table.get(path)
    result(got == want, path, "ParallelCluster says %s, the table %s" % (want, got))
for path in sorted(set(table) - set(schema)):
    compared, policy = table[path]
    parent = path.rsplit(".", 1)[0]
    ok = policy == "NOT_COMPARED" and parent in schema and ".CustomActions.On" in path
    result(ok, path, "not a key of ParallelCluster 3.11's schema")
sys.exit(1 if failed else 0)
