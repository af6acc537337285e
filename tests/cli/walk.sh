#!/bin/sh
# Directory walks take batch scripts by content whatever their name,
# read the #SBATCH lines of csh scripts, say what they skipped and why,
# and say when they found nothing to lint (exit 0); a script's inputs
# set by a file beside it are inputs (docs/design.md, "Kinds" and "An
# open world"). Prints RESULT lines.
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
