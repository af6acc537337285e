/* SB20xx: how the job starts on every node: srun around the launcher,
 * one task per node, rendezvous, node-specific values, ports, and the
 * log paths sbatch opens before the script runs. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "releases.h"
#include "sb.h"

static bool runs_under_srun(const sb_cmd *cmd)
{
	for (const sb_cmd *at = cmd; at; at = sb_cmd_parent(at))
		if (sb_cmd_find(at, SB_PROG_SRUN) || sb_cmd_find(at, SB_PROG_MPIRUN))
			return true;
	return false;
}

static bool any_launcher(const sb_model *m)
{
	for (size_t i = 0; i < sb_cmd_count(m); i++) {
		const sb_cmd *cmd = sb_cmd_at(m, i);
		if (sb_cmd_find(cmd, SB_PROG_SRUN) || sb_cmd_find(cmd, SB_PROG_MPIRUN))
			return true;
	}
	return false;
}

static const struct sb_directive *nodes_directive(const struct sbc *c)
{
	return sb_directive_find(c->m, "nodes");
}

/* SB2001 multi-node-without-launcher */
static void multi_node_without_launcher(struct sbc *c)
{
	if (!sbc_multi_node(c) || c->per_node || any_launcher(c->m))
		return;
	struct diag *g = sbc_report(c, R_SB2001, nodes_directive(c)->span,
		"%lld nodes are allocated, but nothing starts work on them: no srun or mpirun in the script",
		c->nodes);
	diag_set_help(g, "the batch script runs on the first node only; start the launcher with srun");
}

static long long part_int(const struct sbc *c, const sb_cmd *cmd, const sb_part *p,
			  const char *flag)
{
	long long v = 0;
	return sbc_word_int(c, sb_flag(p, flag), cmd, &v) ? v : 0;
}

/* The most nodes --nnodes lets the launcher wait for (MAX of an elastic
 * MIN:MAX); 0 when unknown. */
static long long nnodes_max(const struct sbc *c, const sb_cmd *cmd, const sb_part *p)
{
	long long min, max;
	return sbc_nnodes(c, p, cmd, &min, &max) ? max : 0;
}

/* SB2002 launcher-without-srun */
static void launcher_without_srun(struct sbc *c, const sb_cmd *cmd, const sb_part *p)
{
	long long nnodes = nnodes_max(c, cmd, p);
	if (c->per_node || runs_under_srun(cmd) || (sb_cmd_context(cmd) & SB_CTX_FUNCTION))
		return;
	if (!sbc_multi_node(c) && nnodes <= 1)
		return;
	struct diag *g = sbc_report(c, R_SB2002, sb_word_span(sb_part_program(p)),
		"%s runs only on the first node: the batch script is not run on the others%s",
		sb_part_name(p), nnodes > 1 ? ", so it waits for peers that never come" : "");
	diag_set_help(g, "start it with 'srun --ntasks-per-node=1 %s ...'", sb_part_name(p));
}

/* SB2003 tasks-per-node-with-torchrun */
static void tasks_per_node_with_torchrun(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	const sb_part *srun = sb_cmd_find(cmd, SB_PROG_SRUN);
	if (!srun)
		return;
	long long per_node = part_int(c, cmd, srun, "ntasks-per-node");
	if (!per_node && !sb_flag(srun, "ntasks") && !sb_flag(srun, "nodes"))
		per_node = c->tasks_per_node;
	long long procs = part_int(c, cmd, torch, "nproc-per-node");
	if (per_node > 1)
		sbc_report(c, R_SB2003, sb_word_span(sb_part_program(srun)),
			   "srun starts %lld tasks per node, each running torchrun%s: %lld launchers per node",
			   per_node, procs > 1 ? " with several workers" : "", per_node);
}

static bool is_node_var(const char *v)
{
	static const char *const vars[] = { "SLURM_NODEID", "SLURM_PROCID", "SLURM_LOCALID", NULL };
	for (const char *const *p = vars; *p; p++)
		if (!strcmp(v, *p))
			return true;
	return false;
}

/* SB2004 node-variable-in-batch-step: the srun command line is expanded
 * once, by the batch shell on the first node: $SLURM_NODEID there is 0
 * for every node. */
static void node_variable_in_batch_step(struct sbc *c, const sb_cmd *cmd)
{
	if (!sb_cmd_find(cmd, SB_PROG_SRUN))
		return;
	size_t parts = sb_cmd_part_count(cmd);
	bool after_srun = false;
	for (size_t i = 0; i < parts; i++) {
		const sb_part *p = sb_cmd_part(cmd, i);
		if (sb_part_kind(p) == SB_PROG_SRUN) {
			after_srun = true;
			continue;
		}
		if (!after_srun)
			continue;
		for (size_t f = 0; f < sb_part_flag_count(p); f++) {
			const struct sb_flag *fl = sb_part_flag(p, f);
			const sb_word *w = fl->value ? fl->value : fl->word;
			for (size_t r = 0; r < sb_word_ref_count(w); r++)
				if (is_node_var(sb_word_ref(w, r))) {
					sbc_report(c, R_SB2004, sb_word_span(w),
						   "$%s is expanded once in the batch step, so every node gets the first node's value",
						   sb_word_ref(w, r));
					return;
				}
			bool rank = fl->name && (!strcmp(fl->name, "node-rank") || !strcmp(fl->name, "rank"));
			if (rank && fl->value && (sb_word_flags(fl->value) & SB_W_CMDSUB)) {
				sbc_report(c, R_SB2004, sb_word_span(fl->value),
					   "%s from a command substitution is computed once in the batch step, not per node",
					   fl->written);
				return;
			}
		}
	}
}

/* SB2005 rendezvous-missing; true when torchrun has no --nnodes at all,
 * which leaves nothing for the other rendezvous checks to judge. */
static bool rendezvous_missing(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	if (!sb_flag_find(torch, "nnodes") && sbc_multi_node(c) && runs_under_srun(cmd)) {
		sbc_report(c, R_SB2005, sb_word_span(sb_part_program(torch)),
			   "srun starts torchrun on %lld nodes without --nnodes: each node trains alone", c->nodes);
		return true;
	}
	bool multi = nnodes_max(c, cmd, torch) > 1;
	/* --nnodes=$SLURM_JOB_NUM_NODES is written for any node count */
	struct sb_resolved nr;
	const sb_word *nnw = sb_flag(torch, "nnodes");
	if (nnw && !multi && sb_resolve_word(c->m, nnw, cmd, &nr) == SB_RES_ENV && nr.var &&
	    (!strcmp(nr.var, "SLURM_JOB_NUM_NODES") || !strcmp(nr.var, "SLURM_NNODES") ||
	     !strcmp(nr.var, "SLURM_NTASKS")))
		multi = true;
	bool endpoint = sb_flag(torch, "rdzv-endpoint") != NULL;
	bool master = sb_flag(torch, "master-addr") != NULL;
	if (multi && !endpoint && !master && !sb_flag(torch, "standalone"))
		sbc_report(c, R_SB2005, sb_word_span(sb_part_program(torch)),
			   "torchrun on several nodes with neither --rdzv-endpoint nor --master-addr: each node waits on localhost");
	return false;
}

/* SB2006 rendezvous-mixed */
static void rendezvous_mixed(struct sbc *c, const sb_part *torch)
{
	bool master = sb_flag(torch, "master-addr") != NULL;
	const sb_word *backend = sb_flag(torch, "rdzv-backend");
	const char *be = backend ? sb_word_value(backend) : NULL;
	if ((master || sb_flag(torch, "master-port")) && be && !strcmp(be, "c10d"))
		sbc_report(c, R_SB2006, sb_word_span(backend),
			   "--rdzv-backend=c10d ignores --master-addr and --master-port; keep one way to rendezvous");
}

/* SB2007 nnodes-from-ntasks */
static void nnodes_from_ntasks(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	const sb_word *nn = sb_flag(torch, "nnodes");
	struct sb_resolved r;
	if (nn && c->tasks_per_node > 1 && sb_resolve_word(c->m, nn, cmd, &r) == SB_RES_ENV &&
	    r.var && !strcmp(r.var, "SLURM_NTASKS"))
		sbc_report(c, R_SB2007, sb_word_span(nn),
			   "--nnodes from SLURM_NTASKS counts tasks, and there are %lld per node",
			   c->tasks_per_node);
}

static void rendezvous(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	if (rendezvous_missing(c, cmd, torch))
		return;
	rendezvous_mixed(c, torch);
	nnodes_from_ntasks(c, cmd, torch);
}

static bool names_port(const char *s)
{
	return s && strcasestr(s, "port") != NULL;
}

static bool refs_random(const sb_word *w)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++)
		if (!strcmp(sb_word_ref(w, r), "RANDOM"))
			return true;
	return false;
}

/* SB2008 random-port */
static void random_port(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (names_port(a->name) && refs_random(a->value))
			sbc_report(c, R_SB2008, a->span,
				   "%s from $RANDOM (0 to 32767) can be privileged, zero, or out of range with an offset", a->name);
	}
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t p = 0; p < sb_cmd_part_count(cmd); p++)
			for (size_t f = 0; f < sb_part_flag_count(sb_cmd_part(cmd, p)); f++) {
				const struct sb_flag *fl = sb_part_flag(sb_cmd_part(cmd, p), f);
				if (names_port(fl->name) && refs_random(fl->value))
					sbc_report(c, R_SB2008, sb_word_span(fl->value),
						   "%s from $RANDOM can be a privileged port, zero, or above 65535", fl->written);
			}
	}
}

/* Directories every node has before any job: a log there cannot fail
 * for want of its directory. */
static bool dir_always_there(const struct sbc *c, const char *dir, size_t len)
{
	static const char *const system_dirs[] = { "/tmp", "/var/tmp", "/home", "/dev/shm" };
	for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++)
		if (strlen(system_dirs[i]) == len && !memcmp(dir, system_dirs[i], len))
			return true;
	if (!c->cluster)
		return false;
	const yamldoc *doc = c->cluster->doc;
	yd_node storages = yd_get(doc, yd_root(doc), "SharedStorage");
	for (size_t i = 0; i < yd_len(doc, storages); i++) {
		size_t n;
		const char *m = yd_str(doc, yd_get(doc, yd_item(doc, storages, i), "MountDir"), &n);
		if (m && n == len && !memcmp(m, dir, len))
			return true;
	}
	return false;
}

/* SB2009 output-directory-missing: sbatch opens --output and --error
 * before the script runs; up to Slurm 22.05 their directory must exist
 * already, relative to the submission directory or absolute alike (a
 * real 22.05 fails the job, JobLaunchFailure, for either). From 23.02
 * Slurm creates the directories itself (docs/versions.md,
 * "slurm-options-values": 23.02.0rc1, and checked on a real 25.11.7),
 * so only an older target hears of it. */
static void output_directory_missing(struct sbc *c)
{
	static const struct version creates = VERSION_AT(23, 2, 0);
	static const char *const opts[] = { "output", "error" };
	if (version_cmp(c->target->slurm, creates) >= 0)
		return;
	for (size_t i = 0; i < 2; i++) {
		const struct sb_directive *d = sb_directive_find(c->m, opts[i]);
		const char *slash = d && d->value ? strrchr(d->value, '/') : NULL;
		if (!slash || slash == d->value ||
		    dir_always_there(c, d->value, (size_t)(slash - d->value)))
			continue;
		struct diag *g = sbc_report(c, R_SB2009, d->value_span,
			"--%s=%s: sbatch opens this file before the script runs, and Slurm %s does not create %.*s/ (23.02 and later do)",
			opts[i], d->value, SLURM_TEXT(c->target->slurm),
			(int)(strrchr(d->value, '/') - d->value), d->value);
		diag_set_help(g, "write Slurm's own log to the submission directory (%%x-%%j.out), or create the directory before sbatch");
	}
}

void sbc_check_launch(struct sbc *c)
{
	multi_node_without_launcher(c);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		enum sb_prog l = sb_cmd_launcher(cmd);
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		if (l == SB_PROG_TORCHRUN || l == SB_PROG_NEURON_PARALLEL_COMPILE || l == SB_PROG_LAUNCHER)
			launcher_without_srun(c, cmd, sb_cmd_find(cmd, l));
		if (torch) {
			tasks_per_node_with_torchrun(c, cmd, torch);
			rendezvous(c, cmd, torch);
		}
		node_variable_in_batch_step(c, cmd);
	}
	random_port(c);
	output_directory_missing(c);
}

/* SB2020 per-node-script-by-basename: a batch script names the per-node
 * script by the path it is deployed at, and the run holds one file of
 * that name: the two are checked together (docs/design.md, "Pairing"). */
void sbatch_report_paired_by_basename(struct source *caller, struct sb_span at, const char *entry,
				      const char *path, struct diag_list *diags)
{
	struct diag *g = diag_add(diags, caller, R_SB2020, at.line, at.col, at.end_line, at.end_col,
		"srun starts %s on every node: checked as %s, the only input of that name", entry, path);
	diag_set_help(g, "name the script by a path relative to this one to pair them exactly");
}
