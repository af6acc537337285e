#!/bin/sh
# Installs the Debian packages the end-to-end tests (tests/e2e/run.sh) need,
# only those missing, so a second run costs nothing: Slurm 22.05's daemons
# and client, PyTorch for /usr/bin/python3 (CPU, gloo), PyYAML for the spec
# overrides, unshare/ip for the private network namespace, and nsenter and
# curl for the spot watcher the elastic group runs on a node; and what
# building Slurm 25.11 from source needs (tests/e2e/slurm_build.sh): a C
# compiler with the C library's headers, make, tar, sha256sum and flock.
# python3-torch and its dependencies are large (about 170 packages).
set -e
missing=""
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
# gcc without its recommended libc6-dev compiles nothing.
need_libc_dev() {
	printf '#include <stdio.h>\nint main(void) { return 0; }\n' |
		cc -x c -o /dev/null - >/dev/null 2>&1 || missing="$missing libc6-dev"
}
# Debian's python3-* packages are importable only by /usr/bin/python3.
need_py() { /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing="$missing $2"; }
PATH=$PATH:/usr/sbin:/sbin
need_cmd cc gcc
need_cmd make make
need_cmd pkg-config pkg-config
need_cmd slurmctld slurmctld
need_cmd slurmd slurmd
need_cmd sbatch slurm-client
need_cmd unshare util-linux
need_cmd nsenter util-linux
need_cmd curl curl
need_cmd ip iproute2
need_cmd hostname hostname
need_cmd timeout coreutils
need_cmd sha256sum coreutils
need_cmd flock util-linux
need_cmd tar tar
need_cmd gzip gzip
command -v cc >/dev/null 2>&1 && need_libc_dev
[ -x /usr/bin/python3 ] || missing="$missing python3"
if [ -x /usr/bin/python3 ]; then
	need_py yaml python3-yaml
	need_py torch.distributed python3-torch
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "trainforge: tests/e2e/deps.sh: missing packages:$missing (run as root or install them)" >&2
	exit 2
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
