/* SB2602 and SB2603: rendezvous that cannot work however the nodes are
 * reached. A master address taken where the job is submitted (a script
 * that runs sbatch or salloc, or one without #SBATCH lines that starts
 * the job with srun from a login node) is a host outside the
 * allocation, and nothing of the job listens there; one taken in a
 * script every task runs (srun starts it, or it reads $SLURM_PROCID as
 * its rank) is each node's own name, so each node waits on itself. And an srun in the
 * foreground that starts part of one job blocks the batch script until
 * that part ends, which it does only when the rest has joined: the
 * srun that would start the rest never runs. A launcher given ranks
 * line by line is SB2010's (order.c); this is the srun that starts
 * fewer nodes than its launcher waits for, and ray start --block. The
 * address from a name that may resolve to loopback is SB2011's. */
#include <string.h>

#include "sb.h"

/* Text that computes the host the shell runs on. */
static bool reads_host_name(const char *raw, size_t len)
{
	static const char *const forms[] = {
		"$(hostname", "`hostname", "$HOSTNAME", "${HOSTNAME}", "$(uname -n", "gethostname()",
	};
	char buf[512];
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < sizeof buf; i++)
		if (raw[i] != '"' && raw[i] != '\'')
			buf[n++] = raw[i];
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (strstr(buf, forms[i]))
			return true;
	return false;
}

static bool word_reads_host(const struct sbc *c, const sb_word *w, const sb_cmd *at, unsigned depth)
{
	size_t len;
	const char *raw = w ? sb_word_raw(w, &len) : NULL;
	if (!raw)
		return false;
	if (reads_host_name(raw, len))
		return true;
	for (size_t r = 0; depth < 3 && r < sb_word_ref_count(w); r++) {
		struct sb_resolved res;
		enum sb_res k = sb_resolve(c->m, sb_word_ref(w, r), at, &res);
		if ((k == SB_RES_WORD || k == SB_RES_VALUE) && res.assign && res.assign->value &&
		    word_reads_host(c, res.assign->value, res.assign->cmd, depth + 1))
			return true;
	}
	return false;
}

static const char *first_word(const sb_cmd *cmd)
{
	return sb_cmd_word_count(cmd) ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
}

/* The line of the first sbatch or salloc the script runs, 0 if none. A
 * script with #SBATCH lines is a batch job itself, on its allocation's
 * first node: what it submits (a mixed fleet's spot units, a follow-on
 * job) are other jobs. */
static uint32_t submits(const struct sbc *c)
{
	if (sb_directive_count(c->m))
		return 0;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const char *w = first_word(sb_cmd_at(c->m, i));
		if (w && (!strcmp(w, "sbatch") || !strcmp(w, "salloc")))
			return sb_cmd_span(sb_cmd_at(c->m, i)).line;
	}
	return 0;
}

/* Whether the script starts its launcher with srun itself, with no
 * #SBATCH line: it runs where it is started, outside the nodes. */
static bool srun_from_outside(const struct sbc *c)
{
	if (sb_directive_count(c->m) || c->alloc != c->m)
		return false;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sb_cmd_find(cmd, SB_PROG_SRUN) &&
		    (sb_cmd_find(cmd, SB_PROG_TORCHRUN) || sb_cmd_find(cmd, SB_PROG_LAUNCHER)))
			return true;
	}
	return false;
}

static bool address_name(const char *n)
{
	return !strcmp(n, "MASTER_ADDR") || !strcmp(n, "MASTER_HOST") || !strcmp(n, "MASTER_IP") ||
	       !strcmp(n, "RDZV_ENDPOINT") || !strcmp(n, "RDV_ADDR") || !strcmp(n, "HEAD_NODE_IP");
}

/* Whether the script runs in every task: srun starts it on each node,
 * or it reads a task's own rank outside any srun line. */
static bool runs_per_task(const struct sbc *c)
{
	static const char *const task_vars[] = { "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID" };
	if (c->per_node)
		return true;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sbc_starts_nodes(cmd) || (sb_cmd_context(cmd) & SB_CTX_NESTED))
			continue;
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++) {
			const sb_word *v = sb_cmd_assign(cmd, k)->value;
			for (size_t r = 0; v && r < sb_word_ref_count(v); r++)
				for (size_t t = 0; t < 3; t++)
					if (!strcmp(sb_word_ref(v, r), task_vars[t]))
						return true;
		}
	}
	return false;
}

/* SB2602 master-addr-wrong-host */
static void master_addr_wrong_host(struct sbc *c)
{
	uint32_t sub = submits(c);
	bool outside = !sub && srun_from_outside(c);
	/* on one node, every task's host is the master's */
	bool per_task = !sub && !outside && c->nodes_max != 1 && runs_per_task(c);
	if (!sub && !outside && !per_task)
		return;
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!address_name(a->name) || !a->value || (sb_cmd_context(a->cmd) & SB_CTX_NESTED) ||
		    sb_cmd_find(a->cmd, SB_PROG_SRUN) || !word_reads_host(c, a->value, a->cmd, 0))
			continue;
		if (per_task && (sb_cmd_context(a->cmd) & (SB_CTX_IF | SB_CTX_CASE | SB_CTX_AND_OR)))
			continue; /* set on one rank only, perhaps */
		struct diag *g = sbc_report(c, R_SB2602, a->span,
			per_task ? "%s is the host name of the node each task runs on, as every task runs this script: each node takes itself for the master and waits there for the others, who wait on themselves"
			: outside ? "%s is the host name of the shell that runs this script, and with no #SBATCH line it runs where it is started (a login node, under salloc): a host outside the allocation, where no node of the job listens"
				: "%s is the host name of the shell that runs this script, which submits the job (sbatch or salloc, line %u): a host outside the allocation, where no node of the job listens",
			a->name, sub);
		diag_set_help(g, "take the address inside the job, from its first node: $(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1) in the batch script");
	}
}

static long long srun_nodes(const struct sbc *c, const sb_cmd *cmd, const sb_part *srun)
{
	long long n;
	if (sbc_word_int(c, sb_flag(srun, "nodes"), cmd, &n))
		return n;
	const sb_word *w = sb_flag(srun, "nodelist");
	const char *v = w ? sb_word_value(w) : NULL;
	if (w && !(sb_word_flags(w) & SB_W_OPAQUE) && (!v || !strpbrk(v, ",[")))
		return sb_word_var(w) || (v && *v) ? 1 : 0;
	if (sbc_word_int(c, sb_flag(srun, "ntasks"), cmd, &n) && n == 1)
		return 1;
	return 0;
}

/* `ray start ... --block`: the head or worker stays in the foreground. */
static bool ray_blocks(const sb_cmd *cmd)
{
	bool ray = false, start = false;
	for (size_t i = 0; i < sb_cmd_word_count(cmd); i++) {
		const char *w = sb_word_value(sb_cmd_word(cmd, i));
		if (!w)
			continue;
		const char *base = strrchr(w, '/');
		base = base ? base + 1 : w;
		if (!strcmp(base, "ray"))
			ray = true;
		else if (ray && !strcmp(w, "start"))
			start = true;
		else if (start && !strcmp(w, "--block"))
			return true;
	}
	return false;
}

/* SB2603 blocking-partial-step: in one pass, knowing where the last
 * line that starts work is, and whether a part was started in the
 * background since the last wait (then a line in the foreground runs
 * beside it, and is the part that keeps the script waiting). */
static void blocking_partial_step(struct sbc *c)
{
	unsigned away = SB_CTX_BACKGROUND | SB_CTX_CMDSUB | SB_CTX_NESTED | SB_CTX_FUNCTION |
			SB_CTX_PIPELINE;
	size_t last = 0;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		if (sbc_starts_nodes(sb_cmd_at(c->m, i)))
			last = i;
	bool beside = false;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const char *w = first_word(cmd);
		if (w && !strcmp(w, "wait")) {
			beside = false;
			continue;
		}
		const sb_part *srun = sb_cmd_find(cmd, SB_PROG_SRUN);
		bool started = beside;
		if ((sb_cmd_context(cmd) & SB_CTX_BACKGROUND) && sbc_starts_nodes(cmd))
			beside = true;
		if (!srun || (sb_cmd_context(cmd) & away) || started)
			continue;
		bool loop = sb_cmd_context(cmd) & SB_CTX_LOOP;
		bool more = loop || i < last;
		if (more && ray_blocks(cmd)) {
			struct diag *g = sbc_report(c, R_SB2603, sb_word_span(sb_part_program(srun)),
				"srun runs ray start --block in the foreground: it never ends while the cluster runs, so the script does not go on to %s",
				loop ? "the next node of the loop" : "the srun lines after it");
			diag_set_help(g, "end the line with & (and wait at the end), as the nodes' ray start lines must all run at once");
			continue;
		}
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		long long min, max, nodes = torch && more ? srun_nodes(c, cmd, srun) : 0;
		if (nodes < 1 || !sbc_nnodes(c, torch, cmd, &min, &max) || min <= nodes)
			continue;
		struct diag *g = sbc_report(c, R_SB2603, sb_word_span(sb_part_program(srun)),
			"srun starts torchrun on %lld node%s, and torchrun waits for %lld: in the foreground this line ends only when the whole job does, so %s, which would start the others, never runs",
			nodes, nodes == 1 ? "" : "s", min, loop ? "the next pass of the loop" : "the srun after it");
		diag_set_help(g, "start the parts at once (end the line with &, then wait), or start them all with one srun --ntasks-per-node=1 over the whole allocation");
	}
}

void sbc_check_rendezvous(struct sbc *c)
{
	master_addr_wrong_host(c);
	blocking_partial_step(c);
}
