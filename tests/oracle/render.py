#!/usr/bin/python3
"""Renders the templates of templates.tsv as a deployment would before
`pcluster create-cluster`: Jinja (jinja2, StrictUndefined) where the
template has {{ }} or {% %}, then envsubst's ${VAR} and $VAR (with the
shell's ${VAR:-default} and ${VAR-default}), then <NAME> placeholders.

Usage: render.py TEMPLATES.TSV OUTDIR > LIST
Writes OUTDIR/N.yaml (the rendered file) and OUTDIR/N.defines (one
NAME=VALUE a line, the values `trainforge lint --define` gets) for each
row, and prints "name<TAB>rendered<TAB>template<TAB>defines" lines."""
import json
import os
import re
import sys

import jinja2


def render(text, defines, jinja_vars):
    if "{{" in text or "{%" in text:
        env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
        text = env.from_string(text).render(**(jinja_vars if jinja_vars is not None else defines))

    def braced(m):
        name, op, default = m.group(1), m.group(2), m.group(3)
        if name in defines and (op != ":-" or defines[name] != ""):
            return defines[name]
        if op:
            return default
        raise KeyError(name)

    text = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-)([^}]*))?\}", braced, text)
    text = re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)", lambda m: defines[m.group(1)], text)
    return re.sub(r"<([A-Za-z0-9_ .:/-]*[A-Za-z][A-Za-z0-9_ .:/-]*)>",
                  lambda m: defines.get(m.group(1), m.group(0)), text)


def main():
    table, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for n, line in enumerate(open(table)):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.rstrip("\n").split("\t")
        path, defines = cols[0], json.loads(cols[1])
        jinja_vars = json.loads(cols[2]) if len(cols) > 2 and cols[2] else None
        rendered = os.path.join(out, "%d.yaml" % n)
        with open(path) as f, open(rendered, "w") as r:
            r.write(render(f.read(), defines, jinja_vars))
        defs = os.path.join(out, "%d.defines" % n)
        with open(defs, "w") as d:
            for k, v in defines.items():
                d.write("%s=%s\n" % (k, v))
        print("rendered/%s\t%s\t%s\t%s" % (path, rendered, path, defs))


main()
