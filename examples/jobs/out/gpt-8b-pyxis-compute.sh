#!/bin/bash
# Pyxis and enroot set-up for the compute nodes of job gpt-8b, generated
# by trainforge from gpt-8b-p5-container.yaml. Change the job spec and run
# `trainforge gen` again rather than editing this file.
# trainforge disable-file=LN1008 # a set-up script of the compute nodes, not a batch script
#
# Every compute node's OnNodeStart action runs this as root, before Slurm
# starts there: enroot's directories and configuration and Pyxis's
# runtime directory, as ParallelCluster's tutorial "Running containerized
# jobs with Pyxis" does (the head node's script enables the plugin).
set -euo pipefail

examples=/opt/parallelcluster/examples

mkdir -p /var/enroot /run/enroot /etc/enroot
chmod 1777 /var/enroot /run/enroot
cp "$examples/enroot/enroot.conf" /etc/enroot/enroot.conf
chmod 0644 /etc/enroot/enroot.conf

mkdir -p /run/pyxis
chmod 1777 /run/pyxis

# Ubuntu 24.04's AppArmor forbids the unprivileged user namespaces enroot
# needs, unless told otherwise.
# shellcheck source=/dev/null
. /etc/os-release
if [ "${ID}${VERSION_ID}" = ubuntu24.04 ]; then
	echo 'kernel.apparmor_restrict_unprivileged_userns = 0' \
		>/etc/sysctl.d/99-pcluster-disable-apparmor-restrict-unprivileged-userns.conf
	sysctl --system
fi
