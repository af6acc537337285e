#!/usr/bin/python3
"""A schema with release tags as one release has it, written apart from
trainforge's C printer so that each checks the other: keys (properties)
whose x-since is later than the release or whose x-until is at or before
it are left out, and with them their names in `required`; enum values by
the x-since/x-until maps beside the enum; the tags themselves go.
Usage: for_release.py SCHEMA VERSION  (3.13 is the line, above 3.13.x)."""
import json
import sys


def parse(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [10**6] * (3 - len(parts)))  # a line is above its releases


def tag(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    schema = json.load(open(sys.argv[1]))
    release = parse(sys.argv[2])

    def lacks(t, since):
        return release < tag(t) if since else release >= tag(t)

    def gone(s):
        return isinstance(s, dict) and (
            (isinstance(s.get("x-since"), str) and lacks(s["x-since"], True))
            or (isinstance(s.get("x-until"), str) and lacks(s["x-until"], False)))

    def value_gone(holder, v):
        since, until = holder.get("x-since"), holder.get("x-until")
        return (isinstance(since, dict) and v in since and lacks(since[v], True)) or (
            isinstance(until, dict) and v in until and lacks(until[v], False))

    def walk(n, key=None):
        if isinstance(n, list):
            return [walk(x) for x in n]
        if not isinstance(n, dict):
            return n
        out = {}
        for k, v in n.items():
            if key != "properties" and k in ("x-since", "x-until"):
                continue
            if key == "properties" and gone(v):
                continue
            if k == "enum" and isinstance(v, list):
                out[k] = [walk(x) for x in v if not value_gone(n, x)]
            elif k == "required" and isinstance(v, list):
                props = n.get("properties", {})
                out[k] = [x for x in v if not (x in props and gone(props[x]))]
            else:
                out[k] = walk(v, k)
        return out

    sys.stdout.write(json.dumps(walk(schema), indent=2) + "\n")


main()
