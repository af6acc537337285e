/* SB212x: the environment the workers get: settings that never reach
 * them (an assignment not exported before the launcher), and settings
 * that reach them and take the node's hardware away (NCCL transports
 * switched off where NVLink or EFA would carry the traffic, fewer
 * visible GPUs than processes). docs/frameworks.md, "Environment
 * variables" and "NVLink", has the sources. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "envvars.h"
#include "nvlink.h"
#include "sb.h"

/* Commands that start a program that reads the environment: the
 * launchers and the scripts and interpreters they run. */
static bool starts_program(const sb_cmd *cmd)
{
	switch (sb_cmd_launcher(cmd)) {
	case SB_PROG_SRUN: case SB_PROG_MPIRUN: case SB_PROG_TORCHRUN:
	case SB_PROG_NEURON_PARALLEL_COMPILE: case SB_PROG_LAUNCHER: case SB_PROG_SHELL_C:
	case SB_PROG_SCRIPT: case SB_PROG_PYTHON:
		return true;
	default:
		return false;
	}
}

/* `set -a` or `set -o allexport` before cmd: every assignment after it
 * is exported (bash(1), set). */
static bool allexport_before(const sb_model *m, size_t before)
{
	for (size_t i = 0; i < before; i++) {
		const sb_cmd *cmd = sb_cmd_at(m, i);
		const char *w0 = sb_cmd_word_count(cmd) ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
		if (!w0 || strcmp(w0, "set"))
			continue;
		for (size_t k = 1; k < sb_cmd_word_count(cmd); k++) {
			const char *w = sb_word_value(sb_cmd_word(cmd, k));
			if (!w)
				continue;
			if (w[0] == '-' && w[1] != '-' && w[1] != 'o' && strchr(w, 'a'))
				return true;
			if (!strcmp(w, "-o") && k + 1 < sb_cmd_word_count(cmd)) {
				const char *o = sb_word_value(sb_cmd_word(cmd, k + 1));
				if (o && !strcmp(o, "allexport"))
					return true;
			}
		}
	}
	return false;
}

static bool word_reads(const sb_word *w, const char *name)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++)
		if (!strcmp(sb_word_ref(w, r), name))
			return true;
	return false;
}

/* The script passes the value on by itself after the assignment: a
 * launcher's word reads it (srun --export=ALL,NAME=$NAME, torchrun
 * --flag $NAME), or another assignment builds on it. */
static bool passed_on(const sb_model *m, const char *name, size_t from)
{
	for (size_t i = from + 1; i < sb_cmd_count(m); i++) {
		const sb_cmd *cmd = sb_cmd_at(m, i);
		for (size_t w = 0; starts_program(cmd) && w < sb_cmd_word_count(cmd); w++)
			if (word_reads(sb_cmd_word(cmd, w), name))
				return true;
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++) {
			const struct sb_assign *a = sb_cmd_assign(cmd, k);
			if (word_reads(a->value, name))
				return true;
			for (size_t e = 0; e < a->n_elems; e++)
				if (word_reads(a->elems[e], name))
					return true;
		}
	}
	return false;
}

/* A plain NAME=value stays in the batch
 * shell; only exported variables are in the environment srun (and any
 * program) is started with. */
/* SB2120 variable-not-exported */
static void variable_not_exported(struct sbc *c)
{
	const sb_model *m = c->m;
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		if (a->kind != SB_ASSIGN_PLAIN || a->array || !a->cmd || !env_read_by_workers(a->name) ||
		    (sb_cmd_context(a->cmd) & (SB_CTX_FUNCTION | SB_CTX_NESTED | SB_CTX_SUBSHELL)))
			continue;
		size_t at = sb_cmd_index(a->cmd);
		const sb_cmd *launch = NULL;
		for (size_t k = at + 1; k < sb_cmd_count(m) && !launch; k++) {
			const sb_cmd *cmd = sb_cmd_at(m, k);
			if (starts_program(cmd) && !(sb_cmd_context(cmd) & (SB_CTX_FUNCTION | SB_CTX_NESTED)))
				launch = cmd;
		}
		if (!launch)
			continue;
		struct sb_resolved r;
		sb_resolve(m, a->name, launch, &r);
		if (r.exported || r.after_source || allexport_before(m, at) || passed_on(m, a->name, at))
			continue;
		const sb_part *first = sb_cmd_part(launch, 0);
		struct diag *g = sbc_report(c, R_SB2120, a->name_span,
			"%s is set but not exported before %s (line %u): the programs it starts never see it, unless the environment the job was submitted from exported it already",
			a->name, first ? sb_part_name(first) : "the launcher", sb_cmd_span(launch).line);
		diag_set_help(g, "write 'export %s=...'", a->name);
		if (sb_cmd_assign_count(a->cmd) == 1 && sb_cmd_word_count(a->cmd) == 0)
			diag_set_fix_bytes(g, a->span.off, a->span.off, "export ");
	}
}

/* The value a job-wide variable has where cmd runs, when the script
 * gives it literally and it reaches the programs cmd starts (exported,
 * or given on cmd itself). */
static const char *reaching_value(const struct sbc *c, const char *name, const sb_cmd *cmd,
				  const struct sb_assign **where)
{
	for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++) {
		const struct sb_assign *a = sb_cmd_assign(cmd, k);
		if (a->kind == SB_ASSIGN_PREFIX && !strcmp(a->name, name)) {
			*where = a;
			return sbc_assign_value(a);
		}
	}
	struct sb_resolved r;
	if (sb_resolve(c->m, name, cmd, &r) != SB_RES_VALUE || !r.exported || !r.assign)
		return NULL;
	*where = r.assign;
	return r.value;
}

static const sb_cmd *first_launch(const struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		if (starts_program(sb_cmd_at(c->m, i)))
			return sb_cmd_at(c->m, i);
	return NULL;
}

static bool efa_carries(const struct sbc *c)
{
	if (c->it)
		return c->it->efa == TRI_YES;
	const char *v = sbc_assign_value(sbc_assignment(c, "FI_PROVIDER"));
	return v && !strcmp(v, "efa");
}

/* NCCL's guide lists NCCL_NET,
 * NCCL_P2P_DISABLE, NCCL_P2P_LEVEL and NCCL_SHM_DISABLE among its
 * debugging variables; on hardware whose links they switch off, they
 * move the traffic to a far slower path. */
/* SB2121 nccl-transport-disabled */
static void nccl_transport_disabled(struct sbc *c)
{
	const sb_cmd *launch = first_launch(c);
	if (!launch || c->family == FAMILY_NEURON)
		return;
	const struct sb_assign *a = NULL;
	const char *net = reaching_value(c, "NCCL_NET", launch, &a);
	if (net && !strcasecmp(net, "socket") && sbc_multi_node(c) && efa_carries(c))
		sbc_report(c, R_SB2121, a->span,
			   "NCCL_NET=%s sends NCCL's traffic between nodes over TCP sockets instead of EFA%s%s: collectives run at a fraction of the bandwidth",
			   net, c->it ? " on " : "", c->it ? c->it->name : "");
	if (nvlink_of(c->it) != TRI_YES)
		return;
	const struct sb_assign *p2p = NULL, *level = NULL, *shm = NULL;
	const char *pv = reaching_value(c, "NCCL_P2P_DISABLE", launch, &p2p);
	const char *lv = reaching_value(c, "NCCL_P2P_LEVEL", launch, &level);
	const char *sv = reaching_value(c, "NCCL_SHM_DISABLE", launch, &shm);
	bool p2p_off = (pv && !strcmp(pv, "1")) || (lv && (!strcasecmp(lv, "LOC") || !strcmp(lv, "0")));
	const struct sb_assign *off = pv && !strcmp(pv, "1") ? p2p : level;
	if (!p2p_off)
		return;
	bool shm_off = sv && !strcmp(sv, "1");
	struct diag *g = sbc_report(c, R_SB2121, off->span,
		"%s=%s stops NCCL from using NVLink between the GPUs of %s: their traffic goes through %s",
		off->name, off == p2p ? pv : lv, c->it->name,
		shm_off ? "the network, as NCCL_SHM_DISABLE=1 is set too" : "host memory (the SHM transport)");
	diag_set_help(g, "remove it; NCCL picks NVLink by itself");
}

static int count_devices(const char *list)
{
	int n = 0;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		bool blank = true;
		for (size_t i = 0; i < len; i++)
			blank = blank && isspace((unsigned char)p[i]);
		n += !blank;
		p += len + (p[len] == ',');
	}
	return n;
}

/* Each worker on a node sees the GPUs
 * CUDA_VISIBLE_DEVICES lists (CUDA's guide), and torchrun's workers pick
 * theirs by local rank, 0 to nproc-per-node - 1. */
/* SB2122 visible-devices-too-few */
static void visible_devices_too_few(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		long long ppn;
		if (!torch || !sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &ppn))
			continue;
		const struct sb_assign *a = NULL;
		const char *v = reaching_value(c, "CUDA_VISIBLE_DEVICES", cmd, &a);
		int n = v ? count_devices(v) : 0;
		if (!v || n >= ppn)
			continue;
		struct diag *g = sbc_report(c, R_SB2122, a->span,
			"CUDA_VISIBLE_DEVICES=%s shows each worker %d GPU%s, but torchrun starts %lld per node (line %u): local ranks %d to %lld ask for a device that is not there and fail",
			v, n, n == 1 ? "" : "s", ppn, sb_cmd_span(cmd).line, n, ppn - 1);
		diag_set_help(g, "list one device per process, or start %d processes per node", n);
	}
}

void sbc_check_reach(struct sbc *c)
{
	variable_not_exported(c);
	nccl_transport_disabled(c);
	visible_devices_too_few(c);
}
