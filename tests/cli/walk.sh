#!/bin/sh
# Directory walks take batch scripts by content whatever their name,
# read the #SBATCH lines of csh scripts, say what they skipped and why,
# and say when they found nothing to lint (exit 0); a script's inputs
# set by a file beside it are inputs (docs/design.md, "Kinds" and "An
# open world"), and so are those set by a file that one of them sources
# in turn; SBATCH_EXPORT set there is the job's --export. Prints RESULT
# lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built walk || exit 0
w=$t/walk
mkdir -p "$w/mlperf" "$w/csh" "$w/nothing"
# MLPerf's convention: run.sub, and the system's numbers in a file
# users source before sbatch
cat >"$w/mlperf/run.sub" <<'SUB'
#!/bin/bash
#SBATCH --job-name=rn50
#SBATCH --exclusive
#SBATCH --mem=0
srun --ntasks="$((SLURM_JOB_NUM_NODES * DGXNGPU))" --ntasks-per-node="${DGXNGPU}" \
    --container-name=rn50 ./run_and_time.sh
SUB
printf 'export DGXNGPU=8\nexport DGXNNODES=1\n' >"$w/mlperf/config_DGXA100.sh"
printf 'echo run\n' >"$w/mlperf/run_and_time.sh"
printf 'notes\n' >"$w/mlperf/README.txt"
printf '#!/usr/bin/env python3\nTEMPLATE = """\n#SBATCH --nodes=2\n"""\n' >"$w/mlperf/make_jobs.py"
cat >"$w/csh/job.csh" <<'CSH'
#!/bin/csh
#SBATCH --nodes=2
#SBATCH --time=1:00:00
#SBATCH --partiton=gpu
setenv OMP_NUM_THREADS 4
if ( $?SLURM_JOB_ID ) then
  srun ./a.out
endif
CSH
printf 'just text\n' >"$w/nothing/notes.txt"

expect_rc walk-by-content 0 "$TF" lint --format concise --shellcheck off "$w/mlperf"
has walk-by-content-linted "in 2 files" "$t/err"
has walk-skipped-line "Skipped 3 files: 2 not a cluster config, job spec or batch script by name or content; 1 in another language than sh or bash" "$t/err"
hasnt walk-open-world "SB2501\|SB2012" "$t/out"
rm "$w/mlperf/config_DGXA100.sh"
expect_rc walk-open-world-unset 1 "$TF" lint --format concise --shellcheck off "$w/mlperf"
has walk-open-world-warns "run.sub:5:.*submitting shell.*\[SB2501\]" "$t/out"
expect_rc walk-csh 1 "$TF" lint --format concise --shellcheck off "$w/csh"
has walk-csh-directive "job.csh:4:.*\[SB1001\]" "$t/out"
[ "$(grep -vc '\[LN3002\]$' "$t/out")" = 1 ] && ok walk-csh-body-not-bash || { no walk-csh-body-not-bash; cat "$t/out"; }
expect_rc walk-nothing 0 "$TF" lint "$w/nothing"
has walk-nothing-said "Found nothing to lint" "$t/err"
has walk-nothing-skipped "Skipped 1 file" "$t/err"

# The open world beyond one file: a file beside the script that sources
# another (MLPerf's config_DGXA100_8x8.sh sources its _common.sh) sets
# what the submitting shell passes on; sizes (SB2601) ask the same.
mkdir -p "$w/sizes/common"
cat >"$w/sizes/job.sbatch" <<'SUB'
#!/bin/bash
#SBATCH --nodes=4
#SBATCH --exclusive
WORLD=$((NNODES * GPUS))
srun --ntasks="$WORLD" --ntasks-per-node="$GPUS" python /fsx/train.py --data "$DATA_DIR"
SUB
printf 'export NNODES=4\nsource "$(dirname "${BASH_SOURCE[0]}")/common/gpus.sh"\n' >"$w/sizes/config_sys.sh"
printf 'export GPUS=8\nexport DATA_DIR=/fsx/data\n' >"$w/sizes/common/gpus.sh"
"$TF" lint --format concise --shellcheck off "$w/sizes/job.sbatch" >"$t/out" 2>&1
hasnt world-nested-beside "SB2601\|SB2501\|SB2012" "$t/out"
printf 'export GPUS_OTHER=8\nexport DATA_DIR=/fsx/data\n' >"$w/sizes/common/gpus.sh"
"$TF" lint --format concise --shellcheck off "$w/sizes/job.sbatch" >"$t/out" 2>&1
has world-nested-beside-unset "job.sbatch:4:.*GPUS is set nowhere.*submitting shell.*\[SB2601\]" "$t/out"
# SBATCH_EXPORT in the submitting shell is --export (sbatch(1)), and
# overrides the script's own: with NIL the job gets nothing of it, so a
# name only the files beside set is never set in the job (an error); with
# NONE only the login environment's
printf 'export GPUS=8\nexport DATA_DIR=/fsx/data\n' >"$w/sizes/common/gpus.sh"
printf 'export SBATCH_EXPORT=NIL\n' >"$w/sizes/export.env"
"$TF" lint --format concise --shellcheck off "$w/sizes/job.sbatch" >"$t/out" 2>&1
has world-sbatch-export-nil "job.sbatch:5:.*GPUS is never set.*--export=NIL.*\[SB2012\]" "$t/out"
has world-sbatch-export-nil-size "job.sbatch:4:.*NNODES is set nowhere.*empty (--export=NIL.*\[SB2601\]" "$t/out"
printf 'export SBATCH_EXPORT=NONE\n' >"$w/sizes/export.env"
"$TF" lint --format concise --shellcheck off "$w/sizes/job.sbatch" >"$t/out" 2>&1
has world-sbatch-export-none "job.sbatch:5:.*GPUS.*login environment.*\[SB2501\]" "$t/out"
printf 'export SBATCH_EXPORT=ALL\n' >"$w/sizes/export.env"
"$TF" lint --format concise --shellcheck off "$w/sizes/job.sbatch" >"$t/out" 2>&1
hasnt world-sbatch-export-all "SB2601\|SB2501\|SB2012" "$t/out"
