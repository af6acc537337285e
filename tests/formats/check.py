"""Checks one output of `trainforge lint --format X` against the `json`
output of the same run (itself checked against `concise`). Usage:

  check.py json     JSON CONCISE           json and concise agree
  check.py sarif    SARIF JSON RULES       RULES: `trainforge rules` output
  check.py github   GITHUB JSON
  check.py checkstyle XML JSON
  check.py gitlab   REPORT JSON          GitLab Code Quality
  check.py jsonl    JSONL JSON
  check.py schema   SARIF SCHEMA           JSON Schema check (python jsonschema)
  check.py validator-log LOG               the multitool's own SARIF log

Exits 0 when the output is right; otherwise prints why and exits 1.
"""
import json
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
GITHUB_CMD = {"error": "error", "warning": "warning", "info": "notice"}


def fail(why):
    print(why)
    sys.exit(1)


def check(cond, why):
    if not cond:
        fail(why)


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def diagnostics(path):
    d = load_json(path)
    check(d.get("schemaVersion") == 1, "json: schemaVersion is not 1")
    return d["diagnostics"]


def concise_of(d):
    return "%s:%d:%d: %s: %s [%s]\n" % (d["path"], d["line"], d["column"],
                                        d["severity"], d["message"], d["rule"])


def check_json(json_path, concise_path):
    diags = diagnostics(json_path)
    with open(concise_path, "rb") as f:
        concise = f.read().decode("utf-8", "replace")
    want = "".join(concise_of(d) for d in diags)
    check(concise == want, "json and concise disagree:\n%r\n%r" % (concise[:300], want[:300]))


def uri_of(path):
    """What the SARIF writer must produce for a path: RFC 3986 escaping of
    everything but unreserved characters and '/', file: for absolute."""
    p = path
    while p.startswith("./"):
        p = p[2:].lstrip("/")
    quoted = urllib.parse.quote(p, safe="/-._~")
    return ("file://" + quoted, None) if p.startswith("/") else (quoted, "%SRCROOT%")


def region_of(d):
    return {"startLine": d["line"], "startColumn": d["column"],
            "endLine": d["endLine"], "endColumn": d["endColumn"]}


def parse_rules(path):
    rules = {}
    with open(path, encoding="utf-8") as f:
        for line in f.readlines()[1:]:
            m = re.match(r"^(\S+)\s+(\S+)\s+(error|warning|info)\s+(-|safe|unsafe)\s+(.*)$", line.rstrip("\n"))
            check(m, "cannot read `trainforge rules` line %r" % line)
            rules[m.group(1)] = {"name": m.group(2), "level": m.group(3), "summary": m.group(5)}
    return rules


def check_location(loc, d, where):
    art = loc["artifactLocation"]
    uri, base = uri_of(d["path"])
    check(art.get("uri") == uri, "%s: uri %r, expected %r" % (where, art.get("uri"), uri))
    check(art.get("uriBaseId") == base, "%s: uriBaseId %r" % (where, art.get("uriBaseId")))
    path = d["path"]
    while path.startswith("./"):
        path = path[2:].lstrip("/")
    un = urllib.parse.unquote(art["uri"].removeprefix("file://"))
    check(un == path, "%s: uri %r does not decode to the path" % (where, art["uri"]))


def check_sarif(sarif_path, json_path, rules_path):
    diags = diagnostics(json_path)
    table = parse_rules(rules_path)
    log = load_json(sarif_path)
    check(log.get("version") == "2.1.0", "version is not 2.1.0")
    check(log.get("$schema", "").startswith("https://"), "no $schema")
    check(len(log.get("runs", [])) == 1, "not exactly one run")
    run = log["runs"][0]
    check(run.get("columnKind") == "unicodeCodePoints", "columnKind")
    drv = run["tool"]["driver"]
    check(drv.get("name") == "trainforge" and drv.get("version") and drv.get("informationUri"),
          "driver name, version or informationUri")
    check("results" in run and isinstance(run["results"], list), "no results array")
    rules = drv.get("rules")
    check(isinstance(rules, list), "no rules array")
    fired = sorted({d["rule"] for d in diags})
    check(sorted(r["id"] for r in rules) == fired,
          "rules %s, fired %s" % ([r["id"] for r in rules], fired))
    for r in rules:
        rid = r["id"]
        # A shellcheck code passes through under SC0000, documented on
        # shellcheck's wiki; every other ID is a rule of the table.
        sc = rid not in table and re.fullmatch(r"SC\d{4}", rid)
        t = table["SC0000"] if sc else table[rid]
        name = "shellcheck-" + rid.lower() if sc else t["name"]
        # a rule's page is its heading in docs/rules.md under the build's
        # docs URL (tests/wiring checks that each anchor is there)
        url = ("https://www.shellcheck.net/wiki/" + rid if sc else
               r.get("helpUri", "").rsplit("/docs/rules.md#", 1)[0] +
               "/docs/rules.md#%s-%s" % (rid.lower(), name))
        check(r.get("name") == name, "%s: name" % rid)
        check(r.get("shortDescription", {}).get("text") == t["summary"], "%s: shortDescription" % rid)
        check(r.get("fullDescription", {}).get("text"), "%s: fullDescription" % rid)
        check(r.get("help", {}).get("text"), "%s: help.text" % rid)
        check(r["help"].get("markdown", "").startswith("ShellCheck's" if sc else "## " + rid),
              "%s: help.markdown" % rid)
        check(r.get("helpUri") == url, "%s: helpUri" % rid)
        check(r.get("defaultConfiguration", {}).get("level") == LEVEL[t["level"]],
              "%s: defaultConfiguration.level" % rid)
    res = run["results"]
    check(len(res) == len(diags), "%d results, %d diagnostics" % (len(res), len(diags)))
    for i, (r, d) in enumerate(zip(res, diags)):
        w = "results[%d]" % i
        check(r.get("ruleId") == d["rule"], "%s: ruleId %s, expected %s" % (w, r.get("ruleId"), d["rule"]))
        check(rules[r["ruleIndex"]]["id"] == d["rule"], "%s: ruleIndex points elsewhere" % w)
        check(r.get("level") == LEVEL[d["severity"]], "%s: level %s for %s" % (w, r.get("level"), d["severity"]))
        check(r["message"].get("text") == d["message"], "%s: message" % w)
        check(len(r.get("locations", [])) == 1, "%s: locations" % w)
        pl = r["locations"][0]["physicalLocation"]
        check_location(pl, d, w)
        check(pl["region"] == region_of(d), "%s: region %s, expected %s" % (w, pl["region"], region_of(d)))
        if d["fix"] is None:
            check("fixes" not in r, "%s: fixes without a fix" % w)
            continue
        fx = r.get("fixes")
        # the finding's fix, then the unsafe one beside a safe one
        fixes = [d["fix"]] + ([d["unsafeFix"]] if d.get("unsafeFix") else [])
        check(fx and len(fx) == len(fixes), "%s: no fixes" % w)
        for k, fix in enumerate(fixes):
            ch = fx[k]["artifactChanges"]
            check(len(ch) == 1, "%s: artifactChanges" % w)
            check_location(ch[0], d, w + ".fix")
            edit = fix["edits"][0]
            rep = ch[0]["replacements"]
            check(len(rep) == 1 and rep[0]["insertedContent"]["text"] == edit["content"],
                  "%s: insertedContent" % w)
            want = {"startLine": edit["line"], "startColumn": edit["column"],
                    "endLine": edit["endLine"], "endColumn": edit["endColumn"]}
            check(rep[0]["deletedRegion"] == want, "%s: deletedRegion" % w)


# The grammar of a workflow command, with the property order we promise.
GITHUB_LINE = re.compile(
    r"^::(error|warning|notice) file=([^,:\r\n]*),line=(\d+)(?:,col=(\d+))?,endLine=(\d+)"
    r"(?:,endColumn=(\d+))?,title=trainforge ([A-Z]{2}\d{4})::([^\r\n]*)$")


GH_ESCAPES = {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}


def gh_unescape(s, prop):
    """Undoes @actions/core's escapeProperty (prop) or escapeData."""
    codes = "25|0D|0A|3A|2C" if prop else "25|0D|0A"
    check(not re.search(r"%%(?!%s)" % codes, s), "bad escape in %r" % s)
    if prop:
        check("," not in s and ":" not in s, "unescaped , or : in property %r" % s)
    return re.sub(r"%%(%s)" % codes, lambda m: GH_ESCAPES[m.group(1)], s)


def check_github(gh_path, json_path):
    diags = diagnostics(json_path)
    with open(gh_path, "rb") as f:
        text = f.read().decode("utf-8")
    lines = text.split("\n")
    check(lines[-1] == "", "output does not end with a newline")
    lines = lines[:-1]
    check(len(lines) == len(diags), "%d lines, %d diagnostics" % (len(lines), len(diags)))
    for line, d in zip(lines, diags):
        m = GITHUB_LINE.match(line)
        check(m, "does not match the grammar: %r" % line)
        cmd, path, ln, col, eln, ecol, rid, data = m.groups()
        check(cmd == GITHUB_CMD[d["severity"]], "command %s for %s" % (cmd, d["severity"]))
        check(gh_unescape(path, True) == d["path"], "file= %r" % path)
        check(int(ln) == d["line"] and int(eln) == d["endLine"], "lines in %r" % line)
        if d["endLine"] == d["line"]:
            check(col is not None and int(col) == d["column"] and int(ecol) == d["endColumn"],
                  "columns in %r" % line)
        else:
            check(col is None and ecol is None, "col/endColumn on a multi-line range: %r" % line)
        check(rid == d["rule"], "title %r" % rid)
        # Data escapes only % CR LF; ':' and ',' stay as they are.
        dec = gh_unescape(data, False)
        want = "%s:%d:%d: %s [%s]" % (d["path"], d["line"], d["column"], d["message"], d["rule"])
        check(dec == want, "data %r, expected %r" % (dec, want))


XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_clean(s):
    return XML_BAD.sub("\ufffd", s)


def check_checkstyle(xml_path, json_path):
    diags = diagnostics(json_path)
    with open(xml_path, "rb") as f:
        raw = f.read()
    check(raw.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n'), "XML declaration")
    root = ET.fromstring(raw)
    check(root.tag == "checkstyle" and root.get("version") == "4.3", "root element")
    paths = []
    for d in diags:
        if not paths or paths[-1] != d["path"]:
            paths.append(d["path"])
    files = root.findall("file")
    check([f.get("name") for f in files] == [xml_clean(p) for p in paths],
          "files %s, expected %s" % ([f.get("name") for f in files], paths))
    errors = [(f.get("name"), e) for f in files for e in f]
    check(len(errors) == len(diags), "%d errors, %d diagnostics" % (len(errors), len(diags)))
    for (name, e), d in zip(errors, diags):
        check(e.tag == "error", "element %s" % e.tag)
        want = {"line": str(d["line"]), "column": str(d["column"]), "severity": d["severity"],
                "message": xml_clean(d["message"]), "source": "trainforge." + d["rule"]}
        check(e.attrib == want, "%s, expected %s" % (e.attrib, want))


GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def check_gitlab(report_path, json_path):
    """GitLab's Code Quality report: a JSON array of issues, each with the
    fields GitLab reads (docs.gitlab.com/ci/testing/code_quality/, "Code
    Quality report format"), a fingerprint unique in the report, and a
    path relative to the repository."""
    diags = diagnostics(json_path)
    issues = load_json(report_path)
    check(isinstance(issues, list), "not an array")
    check(len(issues) == len(diags), "%d issues, %d diagnostics" % (len(issues), len(diags)))
    seen = set()
    for i, d in zip(issues, diags):
        check(set(i) == {"description", "check_name", "fingerprint", "severity", "location"},
              "keys %s" % sorted(i))
        check(i["check_name"] == d["rule"], "check_name %r" % i["check_name"])
        check(i["description"] == "%s [%s]" % (d["message"], d["rule"]), "description %r" % i["description"])
        check(i["severity"] == GITLAB_SEVERITY[d["severity"]], "severity %r" % i["severity"])
        fp = i["fingerprint"]
        check(isinstance(fp, str) and re.fullmatch(r"[0-9a-f]{24}", fp) and fp not in seen, "fingerprint %r" % fp)
        seen.add(fp)
        loc = i["location"]
        check(set(loc) == {"path", "lines"} and set(loc["lines"]) == {"begin"}, "location %s" % loc)
        check(loc["path"] == re.sub(r"^(\./)+", "", d["path"]), "path %r" % loc["path"])
        check(loc["lines"]["begin"] == max(d["line"], 1), "line %r" % loc["lines"])


def check_jsonl(jsonl_path, json_path):
    diags = diagnostics(json_path)
    with open(jsonl_path, "rb") as f:
        text = f.read().decode("utf-8")
    check(text == "" or text.endswith("\n"), "no final newline")
    lines = text.split("\n")[:-1] if text else []
    check(len(lines) == len(diags), "%d lines, %d diagnostics" % (len(lines), len(diags)))
    for i, (line, d) in enumerate(zip(lines, diags)):
        check(json.loads(line) == d, "line %d differs from diagnostics[%d]" % (i + 1, i))


def check_schema(sarif_path, schema_path):
    import jsonschema
    schema = load_json(schema_path)
    cls = jsonschema.validators.validator_for(schema)
    errs = sorted(cls(schema).iter_errors(load_json(sarif_path)), key=lambda e: list(e.path))
    check(not errs, "; ".join("%s: %s" % ("/".join(map(str, e.path)), e.message) for e in errs[:5]))


def check_validator_log(log_path):
    """The multitool exits 0 even when it reports errors: read its log.
    Notes (suggestions such as snippets or Pascal-case rule names) pass;
    errors and warnings fail."""
    log = load_json(log_path)
    bad = [r for run in log["runs"] for r in run.get("results", [])
           if r.get("level", "warning") in ("error", "warning")]
    check(not bad, "; ".join("%s %s" % (r["ruleId"], r["message"].get("arguments")) for r in bad[:5]))
    inv = log["runs"][0].get("invocations", [{}])[0]
    check(inv.get("executionSuccessful") is True, "validator execution not successful")
    check(not inv.get("toolExecutionNotifications"), "validator notifications: %s"
          % inv.get("toolExecutionNotifications"))


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    {"json": check_json, "sarif": check_sarif, "github": check_github,
     "checkstyle": check_checkstyle, "gitlab": check_gitlab, "jsonl": check_jsonl, "schema": check_schema,
     "validator-log": check_validator_log}[kind](*args)


if __name__ == "__main__":
    main()
