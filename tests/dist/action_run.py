#!/usr/bin/env python3
"""Runs a composite GitHub Action's steps as the Actions runner does, here.

    action_run.py ACTION_DIR [--with NAME=VALUE]... [--base-sha SHA]
                  [--runner-temp DIR] [--tool-cache DIR] [--outputs FILE]

ACTION_DIR holds action.yml. The working directory is the workspace. Each
step's `env` and `run` have their ${{ }} expressions replaced (only
context lookups: inputs.X, steps.ID.outputs.X, github.X, runner.X; any
other expression is an error, so that the action uses nothing this runner
does not do), then `run` goes to `bash --noprofile --norc -eo pipefail`
(shell: bash) with GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_PATH,
GITHUB_WORKSPACE, RUNNER_* set as the runner sets them. Lines a step adds
to GITHUB_PATH go before PATH in the steps after it; what it writes to
GITHUB_OUTPUT (NAME=VALUE or NAME<<DELIMITER) becomes
steps.ID.outputs.NAME. The first step that fails ends the run with its
exit status. The action's outputs are written as JSON to --outputs.
Inputs left out take their defaults; an input the action does not declare
is an error, as on GitHub.
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
LOOKUP = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*")


def evaluate(text, context):
    """Replaces each ${{ a.b.c }} in text with its value ('' when unset)."""

    def one(match):
        expr = match.group(1)
        if not LOOKUP.fullmatch(expr):
            raise SystemExit(f"action_run: unsupported expression ${{{{ {expr} }}}}")
        value = context
        for part in expr.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return "" if value is None else str(value)

    return EXPR.sub(one, str(text))


def read_outputs(path):
    """NAME=VALUE and NAME<<DELIMITER ... DELIMITER lines of a GITHUB_OUTPUT file."""
    outputs = {}
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            value = []
            i += 1
            while lines[i] != delim:
                value.append(lines[i])
                i += 1
            outputs[name] = "\n".join(value)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        i += 1
    return outputs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("action_dir")
    ap.add_argument("--with", dest="with_", action="append", default=[])
    ap.add_argument("--base-sha", default=None)
    ap.add_argument("--runner-temp", default=None)
    ap.add_argument("--tool-cache", default=None)
    ap.add_argument("--outputs", default=None)
    args = ap.parse_args()

    action_dir = os.path.abspath(args.action_dir)
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
    runs = action["runs"]
    if runs.get("using") != "composite":
        raise SystemExit("action_run: only composite actions run here")
    workspace = os.getcwd()
    temp = args.runner_temp or tempfile.mkdtemp()
    os.makedirs(temp, exist_ok=True)
    tool_cache = args.tool_cache or os.path.join(temp, "tool-cache")
    arch = {"x86_64": "X64", "aarch64": "ARM64"}.get(platform.machine(), platform.machine())
    event = {"pull_request": {"base": {"sha": args.base_sha}}} if args.base_sha else {}
    github = {"action_path": action_dir, "workspace": workspace, "event": event}
    runner = {"os": "Linux", "arch": arch, "temp": temp, "tool_cache": tool_cache}

    given = dict(kv.split("=", 1) for kv in args.with_)
    declared = action.get("inputs", {})
    unknown = set(given) - set(declared)
    if unknown:
        raise SystemExit(f"action_run: inputs the action does not declare: {sorted(unknown)}")
    inputs = {}
    for name, spec in declared.items():
        if name in given:
            inputs[name] = given[name]
        else:
            inputs[name] = evaluate(spec.get("default", ""), {"github": github, "runner": runner})

    steps = {}
    path_prepend = []
    rc = 0
    for number, step in enumerate(runs["steps"]):
        if "uses" in step or "if" in step:
            raise SystemExit("action_run: steps with uses: or if: do not run here")
        if step.get("shell") != "bash":
            raise SystemExit("action_run: only shell: bash runs here")
        context = {"inputs": inputs, "steps": steps, "github": github, "runner": runner}
        output_file = os.path.join(temp, f"output-{number}")
        path_file = os.path.join(temp, f"path-{number}")
        open(output_file, "w").close()
        open(path_file, "w").close()
        env = dict(os.environ)
        env.update({
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_ACTION_PATH": action_dir,
            "GITHUB_WORKSPACE": workspace,
            "GITHUB_OUTPUT": output_file,
            "GITHUB_PATH": path_file,
            "RUNNER_OS": "Linux",
            "RUNNER_ARCH": arch,
            "RUNNER_TEMP": temp,
            "RUNNER_TOOL_CACHE": tool_cache,
        })
        env["PATH"] = os.pathsep.join(path_prepend + [env.get("PATH", "")])
        for name, value in (step.get("env") or {}).items():
            env[name] = evaluate(value, context)
        script = os.path.join(temp, f"step-{number}.sh")
        with open(script, "w") as f:
            f.write(evaluate(step["run"], context))
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], env=env)
        steps[step.get("id", f"step{number}")] = {"outputs": read_outputs(output_file), "rc": rc}
        path_prepend = [p for p in reversed(open(path_file).read().splitlines()) if p] + path_prepend
        if rc != 0:
            print(f"action_run: step {step.get('id', number)} exited {rc}", file=sys.stderr)
            break

    context = {"inputs": inputs, "steps": steps, "github": github, "runner": runner}
    outputs = {name: evaluate(spec["value"], context) for name, spec in action.get("outputs", {}).items()}
    if args.outputs:
        with open(args.outputs, "w") as f:
            json.dump({"outputs": outputs, "path": path_prepend,
                       "steps": {k: v["rc"] for k, v in steps.items()}}, f, indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
