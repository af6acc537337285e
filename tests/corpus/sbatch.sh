#!/bin/sh
# The shared batch-script corpus (../shared/corpus/sbatch, with EXPECT.md):
# every E and W item within trainforge's rules is found at its lines, and
# no file marked clean gets an error. Items left out say why. EXPECT.md's
# missing log directories hold for Slurm 22.05 only (23.02 and later
# create them): they are found with that target, and not found with the
# default one. Prints RESULT lines; skips, saying so, when the corpus is
# not there.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
dir=${TF_SBATCH_CORPUS:-../shared/corpus/sbatch}
if [ ! -f "$dir/EXPECT.md" ]; then
	skip "sbatch-corpus: $dir not found (set TF_SBATCH_CORPUS)"
	exit 0
fi
out=$t/out

# file | rule | first line | last line | item in EXPECT.md; TARGET (a
# --target value) when the item holds for one Slurm only, CLUSTER (a
# cluster config of tests/cases/_clusters) when it holds on one instance.
lint_at() {
	# shellcheck disable=SC2086
	"$TF" lint --kind sbatch --format concise -q --shellcheck "${SC_MODE:-off}" \
		${TARGET:+--target "$TARGET"} ${CLUSTER:+--cluster "tests/cases/_clusters/$CLUSTER"} \
		"$dir/$1" >"$out" 2>/dev/null
}
at_lines() { # rule, first, last: in $out?
	awk -F: -v r="[$1]" -v lo="$2" -v hi="$3" \
		'index($0, r) && $2 >= lo && $2 <= hi { hit = 1 } END { exit !hit }' "$out"
}
found() {
	file=$1 rule=$2 lo=$3 hi=$4 item=$5
	lint_at "$file"
	if at_lines "$rule" "$lo" "$hi"; then
		ok "$file/$rule ($item)${TARGET:+ at $TARGET}${CLUSTER:+ with $CLUSTER}"
	else
		no "$file/$rule ($item): not found at lines $lo-$hi${TARGET:+ at $TARGET}"
		cat "$out"
	fi
}
# An item that only an older target has: found at TARGET, not by default.
found_only_at() {
	TARGET=$1
	shift
	found "$@"
	TARGET=
	lint_at "$1"
	if at_lines "$2" "$3" "$4"; then
		no "$1/$2 ($5): reported at the default target too"
		cat "$out"
	else
		ok "$1/$2 ($5): not at the default target"
	fi
}

found adt_fsdp_llama3_1_8b-training.sbatch SB2108 47 47 "W L47 NCCL_SOCKET_IFNAME excludes eth*"
found_only_at slurm=22.05 adt_fsdp_llama3_1_8b-training.sbatch SB2009 8 9 "W L8-9 logs/ does not exist"
found adt_torchtitan_2024_pretrain.sbatch SB2006 72 78 "W L72-78 static and c10d rendezvous mixed"
found_only_at slurm=22.05 adt_torchtitan_2024_pretrain.sbatch SB2009 10 11 "W L10-11 logs/"
found_only_at slurm=22.05 adt_ddp_1.venv-train.sbatch SB2009 6 6 "W L6 logs/"
found adt_deepspeed_finetune_llama.sbatch SB2006 76 80 "W L76-80 static and c10d rendezvous mixed"
found adt_composer_stable-diffusion_2.train.sbatch SB2008 42 42 "E L42 MASTER_PORT=\$RANDOM"
found_only_at slurm=22.05 adt_composer_stable-diffusion_2.train.sbatch SB2009 13 13 "W L13 jobs/ does not exist"
found_only_at slurm=22.05 adt_picotron_train.sbatch SB2009 8 8 "W L8 logs/"
found adt_nnm-llama2_03-precompile.sbatch SB2001 5 8 "E L8 a 2-node job run without srun"
found adt_optimum-neuron_finetune-llama3-8B.sh SB2005 35 71 "W L35-38 torchrun --nnodes from Slurm without a rendezvous"
CLUSTER=trn2.yaml found adt_optimum-neuron_finetune-llama3-8B.sh SB2126 23 23 "W L23 --target=trn1 on trn2"
lint_at adt_optimum-neuron_finetune-llama3-8B.sh
if at_lines SB2126 1 999; then
	no "adt_optimum-neuron_finetune-llama3-8B.sh/SB2126: reported without a cluster that names the instance"
	cat "$out"
else
	ok "adt_optimum-neuron_finetune-llama3-8B.sh/SB2126: silent without a cluster"
fi
found_only_at slurm=22.05 adt_nxd-olmo_run_zero_compile.sbatch SB2009 4 4 "W L4 logs/"
if have shellcheck; then
	SC_MODE=required found adt_smhp-trn-llama3_run_llama_8B_tp_pp.sh SC2088 65 107 "E L65-107 ~ inside quotes (shellcheck's SC2088)"
else
	skip "adt_smhp-trn-llama3_run_llama_8B_tp_pp.sh/SC2088: shellcheck is not installed"
fi

# Items outside trainforge's rules, and why they are left out:
#  bionemo W L13: an author's personal path; nothing in the file contradicts it.
#  bionemo W L39-40: --num-gpus/--num-nodes repeat the #SBATCH values; they agree today.
#  smhp-trn W L59-61: integer division in the script's own arithmetic, not a flag.
#  smhp-trn W L18: whether $HOME is shared depends on the cluster's lifecycle scripts.
#  jax W L5: -n without --nodes is valid; the job size is implicit, not wrong.

for file in adt_fsdp_2024_1.distributed-training.sbatch adt_transformer-engine_1.train_llama.sbatch \
	adt_megatron-lm_llama2_pretrain-llama2.sbatch adt_nccl-tests-ami.sbatch adt_torch-screen.sbatch \
	adt_nnm-gpt_run.slurm; do
	"$TF" lint --kind sbatch --format concise -q --shellcheck off "$dir/$file" >"$out" 2>/dev/null
	if grep -q ': error: ' "$out"; then
		no "clean/$file has an error"
		cat "$out"
	else
		ok "clean/$file"
	fi
done
