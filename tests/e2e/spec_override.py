#!/usr/bin/python3
"""Writes a modified copy of a trainforge job spec.

    spec_override.py IN OUT [KEY=VALUE | -KEY]...

KEY is a dotted path (storage.mount); VALUE is YAML (2, "a b", [x, y]);
-KEY removes the key. The spec goes through PyYAML's node graph, not its
Python objects, so every scalar keeps the text it had (176e9 stays a
plain 176e9 and is not turned into a string or a float).
"""
import sys

import yaml


def find(mapping, key):
    for i, (k, _) in enumerate(mapping.value):
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return i
    return -1


def edit(root, path, value):
    node = root
    parts = path.split(".")
    for part in parts[:-1]:
        i = find(node, part)
        if i < 0:
            if value is None:
                return
            child = yaml.MappingNode("tag:yaml.org,2002:map", [], flow_style=False)
            node.value.append((yaml.ScalarNode("tag:yaml.org,2002:str", part), child))
            node = child
        else:
            node = node.value[i][1]
            if not isinstance(node, yaml.MappingNode):
                raise SystemExit(f"spec_override.py: {path}: {part} is not a mapping")
    i = find(node, parts[-1])
    if value is None:
        if i >= 0:
            del node.value[i]
        return
    pair = (yaml.ScalarNode("tag:yaml.org,2002:str", parts[-1]), yaml.compose(value))
    if i >= 0:
        node.value[i] = pair
    else:
        node.value.append(pair)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src, dst, edits = argv[0], argv[1], argv[2:]
    with open(src) as f:
        root = yaml.compose(f)
    if not isinstance(root, yaml.MappingNode):
        raise SystemExit(f"spec_override.py: {src}: not a mapping")
    for e in edits:
        if e.startswith("-"):
            edit(root, e[1:], None)
        else:
            key, eq, value = e.partition("=")
            if not eq:
                raise SystemExit(f"spec_override.py: {e}: expected KEY=VALUE or -KEY")
            edit(root, key, value)
    text = yaml.serialize(root, width=1000)
    with open(dst, "w") as f:
        f.write(f"# {src}, modified for the e2e tests: {' '.join(edits)}\n")
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
