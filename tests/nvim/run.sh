#!/bin/sh
# The Neovim recipe of docs/editors.md ("Neovim 0.7"), taken from the page
# as it stands, run by Debian's Neovim (0.7.2 on Debian 12) headless
# against `trainforge lsp`: a cluster config gets its diagnostics at their
# lines, a .sbatch file without a #! line gets the sh filetype and its
# diagnostics, the code actions at a finding include "Disable ID for this
# line", and :TrainforgeFixAll applies the safe fixes to the buffer.
# Installs neovim with apt-get when it is missing. Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built nvim || exit 0
if ! have nvim && [ "$(id -u)" = 0 ] && have apt-get; then
	apt-get install -y -qq neovim >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq neovim >/dev/null 2>&1; }
fi
if ! have nvim; then
	skip "nvim: Neovim is not installed and apt-get could not install it"
	exit 0
fi
echo "note: $(nvim --version | head -1)"

# the recipe: the lua block under "### Neovim 0.7"
awk '/^### Neovim 0\.7/ { found = 1 } found && /^```lua$/ { inside = 1; next }
	inside && /^```$/ { exit } inside { print }' docs/editors.md >"$t/init.lua"
grep -q 'start_client' "$t/init.lua" && ok recipe-found || { no "recipe-found: no lua block under '### Neovim 0.7' in docs/editors.md"; exit 0; }

mkdir "$t/bin" "$t/work" "$t/home"
ln -s "$TF" "$t/bin/trainforge"
cp examples/broken/cluster.yaml "$t/work/cluster.yaml"
printf '#SBATCH --nodes=2\ntorchrun train.py\n' >"$t/work/job.sbatch"

nv() { # FILE, then env settings: Neovim on FILE with the recipe and the driver
	file=$1
	shift
	: >"$t/result"
	(cd "$t/work" && env HOME="$t/home" XDG_CONFIG_HOME="$t/home" XDG_DATA_HOME="$t/home" \
		XDG_STATE_HOME="$t/home" PATH="$t/bin:$PATH" TF_NVIM_OUT="$t/result" "$@" \
		timeout 60 nvim --headless -n -i NONE -u "$t/init.lua" \
		-c "luafile $root/tests/nvim/driver.lua" "$file" >"$t/nvim.log" 2>&1)
}
val() { sed -n "s/^$1=//p" "$t/result"; }

nv cluster.yaml TF_NVIM_ACTION_AT=19 TF_NVIM_FIX_ALL=1
[ "$(val filetype)" = yaml ] && ok cluster-filetype || no "cluster-filetype: $(val filetype)"
val codes | grep -q 'PC2201@19' && val codes | grep -q 'PC1004@30' && ok cluster-diagnostics ||
	{ no "cluster-diagnostics: $(val codes)"; tail -5 "$t/nvim.log"; }
val actions | grep -q 'Disable PC2201 for this line' && ok code-action-disable-line ||
	no "code-action-disable-line: $(val actions)"
# the look-alike hyphen (U+2011) is gone, spot is SPOT, the unknown key stays
fixed=$(val fixed)
case $fixed in
*"$(printf '\342\200\221')"* | *"CapacityType: spot"*) no "fix-all: $(printf '%s' "$fixed" | head -c 300)" ;;
*InstanceType:\ p5-48xlarge*VolumeTpye*) ok fix-all ;;
*) no "fix-all: $(printf '%s' "$fixed" | head -c 300)" ;;
esac

nv job.sbatch
[ "$(val filetype)" = sh ] && ok sbatch-without-shebang-is-sh || no "sbatch-without-shebang-is-sh: $(val filetype)"
val codes | grep -q 'SB0010@1' && val codes | grep -q 'SB2002@2' && ok sbatch-diagnostics ||
	{ no "sbatch-diagnostics: $(val codes)"; tail -5 "$t/nvim.log"; }
