#!/bin/sh
# What installers, scripts and hooks trip on: --version on every command;
# no success line after trouble; gen --check's "missing"; colour in the
# human formats and FORCE_COLOR / CLICOLOR_FORCE / NO_COLOR; the zsh and
# fish completions run by real zsh and fish; make install's hint; the
# memory bound on shellcheck; init's settings file and stanza; the hooks'
# --skip-unknown; pairing said (LN3002, LN3003, gen's comment, by
# partition, by git) with paths relative to the working directory;
# .trainforge.yaml checked as settings; --statistics and --add-noqa;
# rule links that resolve to docs/rules.md's headings, docs-url:; the
# schemas' $id and `schema config`. Prints RESULT lines.
# shellcheck disable=SC2015,SC2016
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built wiring || exit 0
export XDG_CONFIG_HOME="$t/xdg"
mkdir "$t/.git" # no settings discovery above the scratch directories

# ---- --version everywhere; nothing reads as success after trouble ----------
sed -nE 's/^COMMAND\([A-Z_]+, "([^"]+)".*/\1/p' cli/cli_options.def >"$t/commands"
while read -r cmd; do
	"$TF" "$cmd" --version >"$t/out" 2>"$t/err"
	rc=$?
	[ "$rc" = 0 ] && grep -q '^trainforge [0-9][0-9.]* (' "$t/out" && [ ! -s "$t/err" ] &&
		ok "version/$cmd" || no "version/$cmd: exit $rc: $(head -1 "$t/err")"
done <"$t/commands"
"$TF" lint --help | grep -q -- '--version' && ok version-in-help || no version-in-help

expect_rc missing-input-exits-2 2 "$TF" lint "$t/nope.yaml"
! grep -q 'No problems found' "$t/err" && grep -q 'nope.yaml: No such file' "$t/err" &&
	ok no-success-after-trouble || { no no-success-after-trouble; cat "$t/err"; }
expect_rc gen-check-missing 1 "$TF" gen --check examples/jobs/bert-g5.yaml -o "$t/nowhere"
grep -q 'bert-large.sbatch: missing (run trainforge gen)$' "$t/err" && ! grep -q differs "$t/err" &&
	ok gen-check-says-missing || { no gen-check-says-missing; cat "$t/err"; }

# ---- colour --------------------------------------------------------------
esc=$(printf '\033\\[')
broken=examples/broken/cluster.yaml
colour() { # name, want (yes|no), env and command...
	name=$1 want=$2
	shift 2
	env "$@" >"$t/out" 2>"$t/err"
	if grep -q "$esc" "$t/out" "$t/err"; then got=yes; else got=no; fi
	[ "$got" = "$want" ] && ok "colour/$name" || no "colour/$name: colour $got, expected $want"
}
colour concise-always yes "$TF" lint -q --color always -f concise "$broken"
colour concise-piped no NO_COLOR= FORCE_COLOR= CLICOLOR_FORCE= "$TF" lint -q -f concise "$broken"
colour force-color-text yes FORCE_COLOR=1 "$TF" lint -q "$broken"
colour force-color-concise yes FORCE_COLOR=1 "$TF" lint -q -f concise "$broken"
colour clicolor-force yes CLICOLOR_FORCE=1 "$TF" lint -q -f concise "$broken"
colour force-color-0 no FORCE_COLOR=0 "$TF" lint -q -f concise "$broken"
colour no-color-wins no NO_COLOR=1 FORCE_COLOR=1 "$TF" lint -q -f concise "$broken"
colour never-wins no FORCE_COLOR=1 "$TF" lint -q --color never -f concise "$broken"
colour json-never no FORCE_COLOR=1 "$TF" lint -q -f json "$broken"
colour gen-findings yes FORCE_COLOR=1 "$TF" gen tests/cases/JS4006/bad.yaml -o "$t/gen-colour"

# ---- completions: zsh and fish, from the same table ------------------------
for shell in zsh fish; do
	f=completions/_trainforge
	[ $shell = fish ] && f=completions/trainforge.fish
	"$TF" completion $shell >"$t/completion.$shell"
	cmp -s "$t/completion.$shell" "$f" && ok "completion-current/$shell" ||
		no "completion-current/$shell: $f is stale; run: trainforge completion $shell > $f"
done
if have zsh; then
	zsh -n "$t/completion.zsh" && ok completion-zsh-parses || no completion-zsh-parses
	# the completion function with zsh's builtins that show candidates
	# standing in for the completion system's: what it offers after words
	cat >"$t/zsh-driver" <<'ZSH'
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; print -l -- "$@"; }
_describe() { local -a c; c=("${(@P)2}"); print -l -- "${c[@]%%:*}"; }
_files() { print -- '<files>'; }
_message() { print -- '<message>'; }
compdef() { :; }
source "$1"
shift
words=("$@")
CURRENT=$#
_trainforge
ZSH
	zc() { PATH="$(dirname "$TF"):$PATH" zsh -f "$t/zsh-driver" "$t/completion.zsh" "$@" 2>&1 | tr '\n' ' '; }
	case $(zc trainforge '') in *" lint "*" completion "*) ok completion-zsh-commands ;; *) no "completion-zsh-commands: $(zc trainforge '')" ;; esac
	case $(zc trainforge lint --form) in *--format*--skip-unknown*) ok completion-zsh-flags ;; *) no "completion-zsh-flags: $(zc trainforge lint --form)" ;; esac
	[ "$(zc trainforge lint --format '')" = "text concise json jsonl sarif github checkstyle gitlab " ] &&
		ok completion-zsh-values || no "completion-zsh-values: $(zc trainforge lint --format '')"
	case $(zc trainforge explain '') in *"PC2101 "*efa-without-placement-group*) ok completion-zsh-rules ;; *) no "completion-zsh-rules: $(zc trainforge explain '' | head -c 200)" ;; esac
else
	skip "completion-zsh: zsh is not installed (apt-get install zsh)"
fi
if have fish; then
	fc() { PATH="$(dirname "$TF"):$PATH" HOME="$t" XDG_CONFIG_HOME="$t/xdg" fish --no-config -c "source $t/completion.fish; complete -C '$1'" 2>&1 | cut -f1 | tr '\n' ' '; }
	case $(fc 'trainforge ') in *"completion "*"lint "*) ok completion-fish-commands ;; *) no "completion-fish-commands: $(fc 'trainforge ')" ;; esac
	case $(fc 'trainforge lint --sk') in "--skip-unknown ") ok completion-fish-flags ;; *) no "completion-fish-flags: $(fc 'trainforge lint --sk')" ;; esac
	case $(fc 'trainforge lint --format ') in *gitlab*) ok completion-fish-values ;; *) no "completion-fish-values: $(fc 'trainforge lint --format ')" ;; esac
	case $(fc 'trainforge explain ') in *"PC2101 "*) ok completion-fish-rules ;; *) no "completion-fish-rules: $(fc 'trainforge explain ' | head -c 200)" ;; esac
else
	skip "completion-fish: fish is not installed (apt-get install fish)"
fi

# ---- make install: the completion-path hint ---------------------------------
if have make; then
	make -s install PREFIX="$t/prefix" >"$t/install.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ -f "$t/prefix/share/zsh/site-functions/_trainforge" ] &&
		[ -f "$t/prefix/share/fish/vendor_completions.d/trainforge.fish" ] &&
		grep -q "fpath=($t/prefix/share/zsh/site-functions" "$t/install.out" &&
		grep -q "source $t/prefix/share/bash-completion/completions/trainforge" "$t/install.out" &&
		ok install-hint || { no "install-hint: exit $rc"; tail -5 "$t/install.out"; }
	sh tools/install-hint.sh /usr/local >"$t/hint" && [ ! -s "$t/hint" ] && ok install-no-hint-in-system-prefix ||
		no install-no-hint-in-system-prefix
fi

# ---- shellcheck's memory is bounded -----------------------------------------
# A stand-in that maps 600 MiB: under the bound of 512 MiB it cannot, and
# ends as GHC's runtime does when its heap is spent (exit 251).
mkdir "$t/sc"
cat >"$t/sc/shellcheck" <<'SH'
#!/bin/sh
for f; do grep -q BIG "$f" 2>/dev/null && { python3 -c 'b = bytearray(600 << 20)' 2>/dev/null || exit 251; }; done
echo '{"comments":[]}'
SH
chmod +x "$t/sc/shellcheck"
printf '#!/bin/bash\n#SBATCH --nodes=1\n# BIG\nsrun hostname\n' >"$t/big.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n' >"$t/small.sbatch"
expect_rc shellcheck-memory 2 "$TF" lint -f concise --ignore LN3002 --shellcheck "$t/sc/shellcheck" "$t/big.sbatch" "$t/small.sbatch"
grep -q 'big.sbatch:1:1: warning: shellcheck ran out of its 512 MiB of memory on this script, so its findings are missing \[LN2001\]$' "$t/out" &&
	! grep -q small.sbatch "$t/out" && grep -q 'within its time or memory bound' "$t/err" && ok shellcheck-memory-bound || { no shellcheck-memory-bound; cat "$t/out" "$t/err"; }
python3 -c 'b = bytearray(600 << 20)' && ok shellcheck-memory-control || no "shellcheck-memory-control: 600 MiB cannot be had here at all"

# ---- init: a settings file that lints clean, a stanza that pairs ------------
mkdir "$t/init" && git -C "$t/init" init -q
expect_rc init 0 "$TF" init "$t/init"
grep -q 'require_serial: true' "$t/err" && grep -q '^  pre-commit install$' "$t/err" &&
	grep -q 'entry: trainforge lint --skip-unknown --pair-tracked' "$t/err" && ok init-stanza || { no init-stanza; cat "$t/err"; }
run_dir=$t/init expect_rc init-files-lint-clean 0 "$TF" lint -f concise .trainforge.yaml job.yaml
# (the starter spec's subnet is a placeholder to replace: one LN1010 info says so)
! grep -v 'job.yaml:[0-9]*:[0-9]*: info: .*\[LN1010\]$' "$t/out" && ok init-files-no-findings || { no init-files-no-findings; cat "$t/out"; }

# ---- the hooks' --skip-unknown; .trainforge.yaml as settings ----------------
printf 'name: release notes\nitems: [a, b]\n' >"$t/notes.yaml"
printf 'import sys\n#SBATCH --nodes=2\n' >"$t/tool.py"
printf '#!/bin/bash\nrsync -a /a /b\n' >"$t/stage.sh"
expect_rc skip-unknown 0 "$TF" lint -f concise --skip-unknown "$t/notes.yaml" "$t/tool.py" "$t/stage.sh"
[ ! -s "$t/out" ] && ok skip-unknown-silent || { no skip-unknown-silent; cat "$t/out"; }
expect_rc named-unknown-default 0 "$TF" lint -f concise "$t/notes.yaml"
grep -q '\[LN1008\]$' "$t/out" && ok named-unknown-still-reported || no named-unknown-still-reported
mkdir "$t/s"
printf 'selec: [ALL]\nfail-level: warnings\n' >"$t/s/.trainforge.yaml"
expect_rc settings-linted 1 "$TF" lint -f concise --isolated "$t/s/.trainforge.yaml"
[ "$(grep -c '\[LN3001\]$' "$t/out")" = 2 ] && grep -q ':1:1: error: unknown key .selec.' "$t/out" &&
	ok settings-findings || { no settings-findings; cat "$t/out"; }
"$TF" schema config >"$t/config.schema.json"
py_check schema-config "$t/config.schema.json" schemas/trainforge-config.schema.json <<'PY'
import json, sys
printed, source = (json.load(open(p)) for p in sys.argv[1:3])
assert printed["title"] == source["title"] and printed["properties"].keys() == source["properties"].keys()
PY

# ---- pairing, said; paths relative to the working directory ----------------
p=$t/pair
mkdir -p "$p/jobs" "$p/out"
cp examples/clusters/trn2-48xlarge.yaml "$p/a.yaml"
sed 's/- Name: trn2$/- Name: other/' examples/clusters/trn2-48xlarge.yaml >"$p/b.yaml"
printf '#!/bin/bash\n#SBATCH --partition=other\n#SBATCH --nodes=2\n#SBATCH --exclusive\nsrun hostname\n' >"$p/jobs/x.sbatch"
run_dir=$p expect_rc pair-by-partition 1 "$TF" lint -f concise --shellcheck off a.yaml b.yaml jobs/x.sbatch
grep -q '^jobs/x.sbatch:2:1: info: checked against b.yaml, the only cluster config among the inputs with a queue named other (its partition) \[LN3003\]$' "$t/out" &&
	ok pair-by-partition-said || { no pair-by-partition-said; cat "$t/out"; }
run_dir=$p expect_rc pair-none 0 "$TF" lint -f concise --shellcheck off jobs/x.sbatch
grep -q 'LN3002' "$t/out" && grep -q 'SB3001 unknown-partition, SB3002 nodes-exceed-queue' "$t/out" &&
	ok pair-none-names-the-checks || { no pair-none-names-the-checks; cat "$t/out"; }
printf 'cluster: a.yaml\n' >"$p/.trainforge.yaml"
run_dir=$p/jobs expect_rc pair-settings-relative 1 "$TF" lint -f concise --shellcheck off x.sbatch
grep -q "^x.sbatch:2:21: error: partition 'other' is not a queue of ../a.yaml " "$t/out" &&
	ok paths-relative-to-cwd || { no paths-relative-to-cwd; cat "$t/out"; }
rm "$p/.trainforge.yaml"
git -C "$p" init -q && git -C "$p" add a.yaml
run_dir=$p expect_rc pair-tracked 1 "$TF" lint -f concise --shellcheck off --pair-tracked jobs/x.sbatch
grep -q '^jobs/x.sbatch:2:1: info: checked against a.yaml, the only cluster config git tracks in this repository \[LN3003\]$' "$t/out" &&
	grep -q 'SB3001' "$t/out" && ok pair-tracked-said || { no pair-tracked-said; cat "$t/out"; }
# gen's pairing comment: the script pairs with its config wherever they go
expect_rc gen-writes 0 "$TF" gen examples/jobs/bert-g5.yaml -o "$p/out/"
grep -qx '# trainforge cluster=bert-large-cluster.yaml' "$p/out/bert-large.sbatch" && ok gen-pairing-comment || no gen-pairing-comment
mv "$p/out" "$p/moved"
run_dir=$p/moved expect_rc gen-script-paired-alone 0 "$TF" lint -f concise --shellcheck off bert-large.sbatch
[ ! -s "$t/out" ] && ok gen-script-paired-alone-clean || { no gen-script-paired-alone-clean; cat "$t/out"; }

# ---- adoption -------------------------------------------------------------
a=$t/adopt
mkdir "$a"
cp examples/broken/cluster.yaml "$a/cluster.yaml"
cp examples/broken/train.sbatch "$a/train.sbatch"
run_dir=$a expect_rc statistics 1 "$TF" lint --statistics --shellcheck off .
grep -Eq '^ +2  PC2220  warning  nodes-shared-between-jobs \[fix\]$' "$t/out" && ! grep -q 'error:' "$t/out" &&
	ok statistics-per-rule || { no statistics-per-rule; cat "$t/out"; }
run_dir=$a expect_rc add-noqa-diff 1 "$TF" lint --add-noqa --diff --shellcheck off .
cmp -s "$a/cluster.yaml" examples/broken/cluster.yaml && grep -q '^+.*# trainforge disable=PC2201,PC6001 # accepted' "$t/out" &&
	ok add-noqa-diff-writes-nothing || { no add-noqa-diff-writes-nothing; head -20 "$t/out"; }
run_dir=$a expect_rc add-noqa 0 "$TF" lint --add-noqa --shellcheck off .
run_dir=$a expect_rc add-noqa-clean-after 0 "$TF" lint -f concise --shellcheck off .
[ ! -s "$t/out" ] && ok add-noqa-leaves-nothing || { no add-noqa-leaves-nothing; cat "$t/out"; }
sed 's/CapacityType: ONDEMAND/CapacityType: ondemand/' examples/clusters/trn2-48xlarge.yaml >"$a/case.yaml"
run_dir=$a expect_rc case-only-fix-is-safe 0 "$TF" lint --fix -q --shellcheck off case.yaml
grep -q 'CapacityType: ONDEMAND' "$a/case.yaml" && ok case-only-fixed-by-fix || no case-only-fixed-by-fix

# ---- rule links resolve; schemas' $id --------------------------------------
"$TF" lint -f sarif examples/broken/ >"$t/links.sarif" 2>/dev/null
py_check rule-links-resolve "$t/links.sarif" docs/rules.md <<'PY'
import json, re, sys
log = json.load(open(sys.argv[1]))
# GitHub's heading anchors: lower case, punctuation but - and _ dropped, spaces to -
anchors = set()
for line in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"#+ (.*)", line)
    if m:
        anchors.add(re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-"))
rules = log["runs"][0]["tool"]["driver"]["rules"]
assert rules
base = log["runs"][0]["tool"]["driver"]["informationUri"]
for r in rules:
    url = r["helpUri"]
    if url.startswith("https://www.shellcheck.net/wiki/"):
        continue
    page, anchor = url.split("#")
    assert page == base + "/docs/rules.md", url
    assert anchor in anchors, url
PY
mkdir "$t/fork" && printf 'docs-url: https://example.invalid/fork\n' >"$t/fork/.trainforge.yaml"
cp examples/broken/cluster.yaml "$t/fork/cluster.yaml"
run_dir=$t/fork expect_rc docs-url 1 "$TF" lint -f sarif cluster.yaml
grep -q '"helpUri": "https://example.invalid/fork/docs/rules.md#pc2201-min-count-above-max"' "$t/out" &&
	ok docs-url-moves-links || no docs-url-moves-links
for s in jobspec parallelcluster tco config; do
	"$TF" schema "$s" >"$t/$s.json"
	json_check "schema-id/$s" "$t/$s.json" 'assert d["$id"].endswith("/schemas/" + ("trainforge-config" if "'"$s"'" == "config" else "'"$s"'") + ".schema.json"), d["$id"]'
done
