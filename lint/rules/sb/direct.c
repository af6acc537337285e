/* SB2604 and SB2605: what a launcher starts, and where. srun and mpirun
 * exec their program as it is, with no shell or interpreter between: a
 * .py file runs only if it is executable and its first line is a #!
 * line naming python (execve(2)); SB2013 (launch.c) judges a file that
 * lies beside the script, and this the one that does not, whose bit
 * and #! line cannot be seen. And a multi-node job whose srun lines run
 * helpers only (srun -w $head hostname -I) starts its program in the
 * batch step, on one node, while the others idle. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sb.h"

static const struct {
	const char *ext, *interp;
} interpreters[] = {
	{ ".py", "python3" }, { ".sh", "bash" }, { ".bash", "bash" }, { ".pl", "perl" },
	{ ".rb", "ruby" }, { ".R", "Rscript" }, { ".jl", "julia" },
};

static const char *interpreter_of(const char *prog)
{
	size_t n = strlen(prog);
	for (size_t i = 0; i < sizeof interpreters / sizeof interpreters[0]; i++) {
		size_t k = strlen(interpreters[i].ext);
		if (n > k && !strcmp(prog + n - k, interpreters[i].ext))
			return interpreters[i].interp;
	}
	return NULL;
}

/* Whether the file is beside the batch script, where SB2013 judges it. */
static bool beside_script(const struct sbc *c, const char *prog)
{
	if (prog[0] == '/' || !c->src->path[0] || !strcmp(c->src->path, "-"))
		return false;
	const char *slash = strrchr(c->src->path, '/');
	char path[4096];
	snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - c->src->path + 1) : 0,
		 c->src->path, strncmp(prog, "./", 2) ? prog : prog + 2);
	struct stat st;
	return stat(path, &st) == 0;
}

/* A program srun runs inside a container image is the image's file
 * (docs/design.md, "Where srun runs"). */
static bool in_container(const sb_part *srun)
{
	return sb_flag_find(srun, "container-image") || sb_flag_find(srun, "container-name");
}

/* SB2604 script-without-interpreter */
static void script_without_interpreter(struct sbc *c, const sb_cmd *cmd)
{
	size_t n = sb_cmd_part_count(cmd), i = 0;
	while (i < n && sb_part_kind(sb_cmd_part(cmd, i)) != SB_PROG_SRUN &&
	       sb_part_kind(sb_cmd_part(cmd, i)) != SB_PROG_MPIRUN)
		i++;
	if (i >= n || in_container(sb_cmd_part(cmd, i)))
		return;
	const char *launcher = sb_part_name(sb_cmd_part(cmd, i));
	while (++i < n && sb_part_kind(sb_cmd_part(cmd, i)) == SB_PROG_WRAPPER)
		;
	if (i >= n)
		return;
	const sb_part *p = sb_cmd_part(cmd, i);
	enum sb_prog k = sb_part_kind(p);
	const char *prog = sb_word_value(sb_part_program(p));
	const char *interp = prog ? interpreter_of(prog) : NULL;
	if ((k != SB_PROG_OTHER && k != SB_PROG_SCRIPT) || !interp || beside_script(c, prog))
		return;
	/* A shell script out of sight is not judged: one started as a
	 * program is, in the repositories read (aws-neuron-samples'
	 * run_clm.sh, MLPerf's run_and_time.sh), executable with its #!
	 * line, and saying otherwise of every such line would be noise. An
	 * interpreted program of another language started directly is the
	 * mistake this rule is for (srun train.py). */
	if (!strcmp(interp, "bash"))
		return;
	struct diag *g = sbc_report(c, R_SB2604, sb_word_span(sb_part_program(p)),
		"%s execs %s on every task as it is: it runs only if the file is executable and starts with a #! line naming %s, which cannot be seen here (it is not beside the script); otherwise every task fails (Permission denied, Exec format error)",
		launcher, prog, interp);
	diag_set_help(g, "name the interpreter: %s %s %s", launcher, interp, prog);
}

/* Programs that report on a node and end: what a job runs with srun to
 * learn its nodes, not work. */
static bool helper_program(const char *name)
{
	static const char *const helpers[] = {
		"hostname", "scontrol", "nvidia-smi", "echo", "env", "printenv", "true", "sleep",
		"mkdir", "rm", "ls", "cat", "ip", "ifconfig", "date", "uname", "free", "df", "nproc",
		"pwd", "which", "id", "lscpu", "neuron-ls", "fi_info", "touch", "cp", "nvcc",
	};
	for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
		if (!strcmp(name, helpers[i]))
			return true;
	return false;
}

/* The program after the node launcher of cmd (srun hostname: "hostname"),
 * or NULL when the command starts none, or starts another launcher. */
static const sb_part *started_program(const sb_cmd *cmd)
{
	size_t n = sb_cmd_part_count(cmd), i = 0;
	while (i < n && sb_part_kind(sb_cmd_part(cmd, i)) != SB_PROG_SRUN &&
	       sb_part_kind(sb_cmd_part(cmd, i)) != SB_PROG_MPIRUN)
		i++;
	while (++i < n && sb_part_kind(sb_cmd_part(cmd, i)) == SB_PROG_WRAPPER)
		;
	return i < n ? sb_cmd_part(cmd, i) : NULL;
}

/* A Python program started in the batch step itself: python train.py
 * (python -c, python -m pip and the like start no training program). */
static const sb_part *batch_program(const sb_cmd *cmd)
{
	const sb_part *p = sb_cmd_part_count(cmd) ? sb_cmd_part(cmd, 0) : NULL;
	if (!p || sb_part_kind(p) != SB_PROG_PYTHON || sbc_starts_nodes(cmd) ||
	    (sb_cmd_context(cmd) & (SB_CTX_CMDSUB | SB_CTX_NESTED | SB_CTX_FUNCTION)))
		return NULL;
	const sb_word *ew = sb_part_entry(p);
	const char *e = ew ? sb_word_value(ew) : NULL;
	size_t n = e ? strlen(e) : 0;
	return n > 3 && !strcmp(e + n - 3, ".py") ? p : NULL;
}

/* SB2605 program-runs-once: every node launcher runs a helper; SB2001
 * is the job with none at all. */
static void program_runs_once(struct sbc *c)
{
	if (!sbc_multi_node(c) || c->per_node || !sb_complete(c->m))
		return;
	const sb_cmd *helper = NULL;
	const sb_part *prog = NULL;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sbc_starts_nodes(cmd)) {
			const sb_part *p = started_program(cmd);
			const char *name = p ? sb_part_name(p) : "";
			if (!p || !helper_program(name))
				return; /* something else runs on the nodes */
			helper = helper ? helper : cmd;
		} else if (!prog) {
			prog = batch_program(cmd);
		}
	}
	if (!helper || !prog)
		return;
	const char *entry = sb_word_value(sb_part_entry(prog));
	struct diag *g = sbc_report(c, R_SB2605, sb_word_span(sb_part_program(prog)),
		"%lld nodes are allocated, but the only srun (line %u) runs %s: %s runs once, in the batch step on the first node, and the other nodes idle",
		c->nodes, sb_cmd_span(helper).line, sb_part_name(started_program(helper)), entry);
	diag_set_help(g, "start it on every node: srun --ntasks-per-node=1 torchrun ... %s, or srun %s %s with one task per process",
		      entry, sb_part_name(prog), entry);
}

void sbc_check_direct(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		script_without_interpreter(c, sb_cmd_at(c->m, i));
	program_runs_once(c);
}
