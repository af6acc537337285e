#!/bin/bash
# End-to-end tests on real Slurms: trainforge's generated batch scripts and
# the linter's claims, held against each Slurm release in E2E_SLURM running
# here: Debian 12's 22.05 and 25.11 built from ../shared/vendor/ (the one
# ParallelCluster 3.15 and 3.16 ship), by default both, one after the other.
#
#   bash tests/e2e/run.sh [GROUP...]    groups: testonly job lint options
#                                       versions fleet elastic (default: these
#                                       seven, in that order) and requeue
#                                       (opt-in, see requeue.sh)
#   E2E_SLURM=25.11 bash tests/e2e/run.sh   one Slurm (make e2e E2E_SLURM=25.11)
#
# Every group runs against the chosen Slurm: its daemons form the cluster
# (cluster.sh), its commands come first on PATH for the tests and the jobs
# (slurm.sh). Needs root and the packages of tests/e2e/deps.sh; a Slurm
# other than Debian's is built on first use (slurm_build.sh, minutes) and
# cached outside the clone. Prints one "RESULT pass|fail|skip SERIES/NAME"
# line per check, then the table of what each real Slurm did for the
# version-dependent claims (also kept in $BUILD/e2e/observed.tsv, see
# observe in lib.sh), and ends with "N passed, N failed, N skipped"; exits
# 1 when a check failed.
#
# Each Slurm runs in private network and PID namespaces of its own
# (unshare): the network has only loopback addresses (lo, plus 127.0.0.2 on
# a veth pair so that `hostname -I`, which generated scripts use for the
# rendezvous endpoint, has an address to print), and every process the run
# starts, daemons, job steps and workers alike, ends with the namespace.
# The cluster's daemons are also stopped by PID on exit (cluster.sh).
#
# Environment: E2E_SLURM (default "22.05 25.11"), BUILD (default
# build/rel: libtf.a for the option table dump), TF (default
# $BUILD/trainforge), TF_E2E_NODES (default 4), TF_E2E_JOB_LIMIT (seconds
# a job may take, default 300; one takes ~15 here), TF_E2E_KEEP=1 keeps the
# temporary directory (kept anyway after a failure), TF_E2E_TEMPLATES=DIR
# generates with `trainforge gen --templates DIR`, TF_E2E_ELASTIC="unguarded
# requeued" the elastic group's variants (see there), TF_E2E_NO_SKIP=1 makes
# every skip a failure (CI: nothing may be left untested).
# Every wait is a bounded hang guard, never a timing measurement.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
BUILD=${BUILD:-build/rel}
TF=${TF:-$BUILD/trainforge}
case $TF in /*) ;; *) TF=$ROOT/$TF ;; esac
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
NNODES=${TF_E2E_NODES:-4}
PY=/usr/bin/python3 # Debian's torch and yaml are importable only by this one
OBSERVED_ALL=$BUILD/e2e/observed.tsv

# shellcheck source=tests/e2e/slurm.sh
. "$ROOT/tests/e2e/slurm.sh"

# --- outside: one run in its own namespaces per Slurm --------------------------
# `run.sh --build-only` only makes sure each Slurm is there (make e2e-slurm).
if [ "${1:-}" = --build-only ]; then
	for series in ${E2E_SLURM:-$SLURM_SERIES_ALL}; do
		version=""
		prefix=$(slurm_prefix "$series") && version=$(slurm_version_of "$prefix")
		if [ -z "$version" ]; then
			echo "e2e: no Slurm $series (Debian's: sh tests/e2e/deps.sh; others: $SLURM_VENDOR/slurm-$series.*.tar.gz)" >&2
			exit 1
		fi
		echo "e2e: Slurm $series: $version in $prefix"
	done
	exit 0
fi
if [ -z "${TF_E2E_INNER:-}" ]; then
	# A RESULT line of the whole run, before any Slurm was started.
	early() { # pass|fail|skip NAME REASON
		local r=$1
		[ "$r" = skip ] && [ -n "${TF_E2E_NO_SKIP:-}" ] && r=fail
		echo "RESULT $r $2: $3"
	}
	# The whole run ends before it began: that line, then the summary.
	early_end() { # fail|skip NAME REASON
		early "$@"
		if [ "$1" = fail ] || [ -n "${TF_E2E_NO_SKIP:-}" ]; then
			echo "0 passed, 1 failed, 0 skipped"
			exit 1
		fi
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	}
	if [ "$(id -u)" != 0 ]; then
		early_end skip e2e "needs root (slurmctld and slurmd run as SlurmUser=root)"
	fi
	missing=""
	for c in unshare nsenter mount ip timeout hostname cc curl flock; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	$PY -c 'import torch.distributed, yaml' >/dev/null 2>&1 || missing="$missing python3-torch/python3-yaml"
	if [ -n "$missing" ]; then
		echo "e2e: missing:$missing (run: sh tests/e2e/deps.sh)" >&2
		early_end fail e2e "missing$missing"
	fi
	if ! unshare --net --pid --fork --mount-proc true >/dev/null 2>&1; then
		early_end skip e2e "cannot make private network and PID namespaces (unshare), and the cluster must not use a real network"
	fi
	mkdir -p "$BUILD/e2e"
	printf 'slurm\tclaim\tsubject\texpected\tobserved\tdetail\n' >"$OBSERVED_ALL"
	passed=0 failed=0 skipped=0
	log=$(mktemp)
	trap 'rm -f "$log" "$log.obs"' EXIT
	for series in ${E2E_SLURM:-$SLURM_SERIES_ALL}; do
		start=$(date +%s)
		if ! prefix=$(slurm_prefix "$series"); then
			if [ "$series" != "$SLURM_DEBIAN" ] && ! slurm_tarball "$series" >/dev/null; then
				early skip "$series/e2e" "no Slurm $series to run: Debian packages $SLURM_DEBIAN, and $SLURM_VENDOR has no single slurm-$series.*.tar.gz" | tee "$log"
			else
				early fail "$series/e2e/slurm" "could not build Slurm $series (tests/e2e/slurm_build.sh)" | tee "$log"
			fi
		elif [ ! -x "$prefix/sbin/slurmctld" ] || [ ! -x "$prefix/bin/sbatch" ]; then
			echo "e2e: no slurmctld or sbatch under $prefix (run: sh tests/e2e/deps.sh)" >&2
			early fail "$series/e2e/slurm" "Slurm $series is not installed under $prefix" | tee "$log"
		else
			TF_E2E_INNER=1 TF_E2E_SLURM=$series TF_E2E_SLURM_PREFIX=$prefix OBSERVED=$log.obs \
				unshare --net --pid --fork --mount-proc -- bash "$ROOT/tests/e2e/run.sh" "$@" | tee "$log"
			rc=${PIPESTATUS[0]}
			if [ "$rc" != 0 ] && ! grep -q '^RESULT fail' "$log"; then
				echo "RESULT fail $series/e2e: exited $rc" | tee -a "$log"
			fi
			[ -f "$log.obs" ] && cat "$log.obs" >>"$OBSERVED_ALL" && rm -f "$log.obs"
		fi
		passed=$((passed + $(grep -c '^RESULT pass' "$log")))
		failed=$((failed + $(grep -c '^RESULT fail' "$log")))
		skipped=$((skipped + $(grep -c '^RESULT skip' "$log")))
		echo "e2e: Slurm $series took $(($(date +%s) - start)) s"
	done
	if [ "$(wc -l <"$OBSERVED_ALL")" -gt 1 ]; then
		echo "e2e: what the real Slurms did ($OBSERVED_ALL):"
		column -t -s $'\t' "$OBSERVED_ALL" 2>/dev/null | sed 's/^/    /' || sed 's/^/    /' "$OBSERVED_ALL"
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
	exit
fi

# --- inside the namespaces: one Slurm -------------------------------------------
if ! slurm_use "$TF_E2E_SLURM_PREFIX" "$TF_E2E_SLURM"; then
	echo "RESULT fail $TF_E2E_SLURM/e2e/slurm: $TF_E2E_SLURM_PREFIX is not Slurm $TF_E2E_SLURM"
	exit 1
fi
if ! { ip link set lo up &&
	ip link add tfe2e0 type veth peer name tfe2e1 &&
	ip link set tfe2e0 up && ip link set tfe2e1 up &&
	ip addr add 127.0.0.2/32 dev tfe2e0; }; then
	echo "e2e: network setup failed" >&2
	exit 1
fi
HEAD_IP=$(hostname -I | awk '{print $1}')
[ -n "$HEAD_IP" ] || { echo "e2e: hostname -I prints nothing in the namespace" >&2; exit 1; }
for a in $(hostname -I); do
	case $a in 127.*) ;; *) echo "e2e: non-loopback address $a in the namespace" >&2; exit 1 ;; esac
done

GROUPS_RUN=${*:-testonly job lint options versions fleet elastic}
TMP=$(mktemp -d /tmp/tf-e2e.XXXXXX)
START=$(date +%s)

# shellcheck source=tests/e2e/lib.sh
. "$ROOT/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/cluster.sh
. "$ROOT/tests/e2e/cluster.sh"
# The groups, one file each.
# shellcheck source=tests/e2e/testonly.sh
. "$ROOT/tests/e2e/testonly.sh"
# shellcheck source=tests/e2e/job.sh
. "$ROOT/tests/e2e/job.sh"
# shellcheck source=tests/e2e/lint.sh
. "$ROOT/tests/e2e/lint.sh"
# shellcheck source=tests/e2e/options.sh
. "$ROOT/tests/e2e/options.sh"
# shellcheck source=tests/e2e/versions.sh
. "$ROOT/tests/e2e/versions.sh"
# shellcheck source=tests/e2e/requeue.sh
. "$ROOT/tests/e2e/requeue.sh"
# shellcheck source=tests/e2e/elastic.sh
. "$ROOT/tests/e2e/elastic.sh"
# shellcheck source=tests/e2e/fleet.sh
. "$ROOT/tests/e2e/fleet.sh"

cleanup() {
	trap - EXIT INT TERM HUP
	cluster_stop
	if [ "$failed" = 0 ] && [ -z "${TF_E2E_KEEP:-}" ]; then
		rm -rf "$TMP"
	else
		echo "e2e: kept $TMP" >&2
	fi
}
trap cleanup EXIT
trap 'echo "e2e: interrupted" >&2; exit 130' INT TERM HUP

note "Slurm $SLURM_VERSION from $TF_E2E_SLURM_PREFIX: $(command -v sbatch), $(command -v srun)"
shim_install

if ! "$TF" version >/dev/null 2>&1; then
	result fail e2e "no working trainforge at $TF (make first)"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi

# --- generate every example first: its queue becomes a partition -----------
declare -A QUEUE_OF
QUEUES=""
for spec in "$ROOT"/examples/jobs/*.yaml; do
	base=$(basename "$spec" .yaml)
	dir=$TMP/gen/$base
	mkdir -p "$dir/orig"
	if ! tf_gen --force -o "$dir/orig" "$spec" >"$dir/gen.log" 2>&1; then
		result fail "testonly/$base" "trainforge gen failed"
		indent 20 <"$dir/gen.log"
		continue
	fi
	QUEUE_OF[$base]=$(sed -n 's/^#SBATCH --partition=//p' "$dir/orig"/*.sbatch | head -1)
	# A mixed fleet's script names a queue in each hetjob component.
	while read -r q; do
		case " $QUEUES " in *" $q "*) ;; *) QUEUES="$QUEUES $q" ;; esac
	done < <(sed -n 's/^#SBATCH --partition=//p' "$dir/orig"/*.sbatch)
done
[ -n "$QUEUES" ] || QUEUES=train

# shellcheck disable=SC2086
if ! cluster_start "$TMP/slurm" "$NNODES" $QUEUES; then
	result fail e2e/cluster "the local Slurm did not come up"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi
result pass e2e/cluster "Slurm $SLURM_VERSION: slurmctld and $NNODES slurmd, partitions:$QUEUES debug"
SHARED_UP=1
# The first queue is the default partition (for the lint fixtures).
DEFAULT_PART=${QUEUES# }
DEFAULT_PART=${DEFAULT_PART%% *}

for g in $GROUPS_RUN; do
	# After the elastic and fleet groups, the shared cluster starts again.
	if [ "$g" != elastic ] && [ "$g" != fleet ] && [ -z "$SHARED_UP" ]; then
		# shellcheck disable=SC2086
		if ! cluster_start "$TMP/slurm" "$NNODES" $QUEUES; then
			result fail "e2e/$g" "the shared local Slurm did not come up again"
			continue
		fi
		SHARED_UP=1
	fi
	case $g in
	testonly) group_testonly ;;
	job) group_job; group_job_venv ;;
	lint) group_lint ;;
	options) group_options ;;
	versions) group_versions ;;
	requeue) group_requeue ;;
	elastic) group_elastic ;;
	fleet) group_fleet ;;
	*) result fail "e2e/$g" "unknown group (testonly job lint options versions fleet elastic requeue)" ;;
	esac
done

[ -z "${TF_TARGET_UNCHECKED:-}" ] ||
	note "observed, not yet held against trainforge --target slurm=$SLURM_SERIES (tf_target_check in lib.sh): $TF_TARGET_UNCHECKED"
note "e2e on Slurm $SLURM_VERSION took $(($(date +%s) - START)) s"
echo "$SLURM_SERIES: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
