# shellcheck shell=bash
# shellcheck disable=SC2034 # SLURM_SERIES and SLURM_VERSION are read by the groups
# Which Slurm the e2e tests run on, sourced by tests/e2e/run.sh (bash).
# A Slurm is named by its release series ("22.05", "25.11"): Debian 12's
# packaged one (tests/e2e/deps.sh installs it) is used as it is, any other
# is built once from ../shared/vendor/slurm-SERIES.*.tar.gz into a cache
# outside the clone (tests/e2e/slurm_build.sh).
#
#   slurm_prefix SERIES      prints the Slurm's install prefix, building it if needed
#   slurm_use PREFIX SERIES  puts that Slurm first on PATH (the jobs inherit it:
#                            their srun must be the controller's own version);
#                            sets SLURM_SERIES and SLURM_VERSION (25.11.7)
#   slurm_at_least SERIES    true when the Slurm in use is that release or later

SLURM_SERIES_ALL="22.05 25.11"
SLURM_DEBIAN=22.05 # the release Debian 12 packages
SLURM_VENDOR=$ROOT/../shared/vendor

# The sources a series is built from: exactly one tarball, or none.
slurm_tarball() { # SERIES
	local t=("$SLURM_VENDOR/slurm-$1".*.tar.gz)
	[ ${#t[@]} = 1 ] && [ -f "${t[0]}" ] && echo "${t[0]}"
}

slurm_prefix() { # SERIES
	local tarball
	if [ "$1" = "$SLURM_DEBIAN" ]; then
		echo /usr
		return 0
	fi
	tarball=$(slurm_tarball "$1") || return 1
	sh "$ROOT/tests/e2e/slurm_build.sh" "$tarball"
}

# The full version a prefix's slurmctld reports ("slurm 25.11.7", or
# Debian's "slurm-wlm 22.05.8"); slurmctld -V needs no slurm.conf.
slurm_version_of() { # PREFIX
	"$1/sbin/slurmctld" -V 2>/dev/null | awk '{print $2}'
}

slurm_use() { # PREFIX SERIES
	SLURM_VERSION=$(slurm_version_of "$1")
	case $SLURM_VERSION in
	"$2".*) ;;
	*) echo "e2e: $1/sbin/slurmctld is version '$SLURM_VERSION', not $2" >&2; return 1 ;;
	esac
	SLURM_SERIES=$2
	export PATH=$1/bin:$1/sbin:$PATH:/usr/sbin:/sbin
}

# "24.11" and "22.05" as one number each, for comparing releases.
slurm_series_num() { # SERIES
	local major=${1%%.*} minor=${1#*.}
	echo $((10#$major * 100 + 10#${minor%%.*}))
}
slurm_at_least() { # SERIES
	[ "$(slurm_series_num "$SLURM_SERIES")" -ge "$(slurm_series_num "$1")" ]
}
