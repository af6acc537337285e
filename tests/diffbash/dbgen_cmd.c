/* Simple commands of generated scripts: the #SBATCH header, assignments,
 * exports and declarations, arrays, launcher lines with many flags and
 * continuations, here-documents, process substitution, redirections and
 * the everyday commands of training scripts. */
#include "dbgen_internal.h"

/* ---- the header ---- */

void g_header(struct gen *g)
{
	static const char *const shebangs[] = {
		"#!/bin/bash", "#!/bin/bash", "#!/usr/bin/env bash", "#!/bin/bash -l", "#!/bin/bash -ex",
	};
	static const char *const directives[] = {
		"#SBATCH --job-name=llama-7b", "#SBATCH --nodes=4", "#SBATCH -N 2", "#SBATCH --ntasks-per-node=1",
		"#SBATCH --gres=gpu:8", "#SBATCH --gpus-per-node=8", "#SBATCH --exclusive",
		"#SBATCH --output=logs/%x-%j.out", "#SBATCH --error=logs/%x-%j.err", "#SBATCH --time=48:00:00",
		"#SBATCH --partition=train", "#SBATCH --cpus-per-task=96", "#SBATCH --mem=0",
		"#SBATCH --job-name=données-λ", "#SBATCH --wait-all-nodes=1", "#SBATCH --requeue",
		"#SBATCH --account=ml  # the project", "#SBATCH --signal=B:USR1@300",
	};
	g_put(g, g_pick(g, shebangs));
	g_nl(g);
	g_use(g, DBC_SBATCH);
	unsigned n = 2 + g_below(g, 10);
	for (unsigned i = 0; i < n; i++) {
		if (g_pct(g, 10))
			g_comment(g);
		else if (g_pct(g, 5))
			g_nl(g);
		g_put(g, g_pick(g, directives));
		g_nl(g);
	}
	if (g_pct(g, 50)) {
		g_put(g, g_pct(g, 50) ? "set -euo pipefail" : "set -ex");
		g_nl(g);
	}
}

/* ---- redirections ---- */

void g_redirect(struct gen *g)
{
	static const char *const ops[] = { ">", ">>", "2>", "<", "&>", "2>>", "&>>", ">|", "1>" };
	static const char *const dups[] = { "2>&1", ">&2", "1>&2", "2>&-", "<&0", "3>&1" };
	g_use(g, DBC_REDIR);
	switch (g_below(g, 5)) {
	case 0:
	case 1:
		g_printf(g, " %s", g_pick(g, ops));
		if (g_mut(g, DBM_BAD_REDIR))
			return;
		g_put(g, g_pct(g, 30) ? " " : "");
		g_word(g, W_PATH);
		return;
	case 2:
		g_printf(g, " %s", g_pick(g, dups));
		return;
	case 3:
		g_printf(g, " {fd}>%s", g_pct(g, 50) ? "/tmp/lock" : "\"$LOG_DIR/fd.log\"");
		return;
	default:
		g_put(g, " >/dev/null 2>&1");
		return;
	}
}

static void redirects(struct gen *g)
{
	unsigned n = g_pct(g, 12) ? 1 + g_below(g, 2) : 0;
	for (unsigned i = 0; i < n; i++)
		g_redirect(g);
}

/* ---- assignments and arrays ---- */

static void assign_word(struct gen *g)
{
	g_var_name(g);
	if (g_pct(g, 8)) {
		g_put(g, "+=");
	} else if (g_pct(g, 4)) {
		g_use(g, DBC_ARRAY_ELEM);
		g_printf(g, "[%s]=", g_pct(g, 50) ? "$i" : "2");
	} else {
		g_put(g, "=");
	}
	if (g_pct(g, 8))
		return; /* NAME= */
	g_word(g, W_VALUE);
}

void g_assignment(struct gen *g)
{
	g_use(g, DBC_ASSIGN);
	unsigned n = g_pct(g, 85) ? 1 : 2;
	for (unsigned i = 0; i < n; i++) {
		if (i)
			g_put(g, " ");
		assign_word(g);
	}
}

static void array_elems(struct gen *g, bool assoc)
{
	bool lines = !g_oneline(g) && !g_pending(g) && g_pct(g, 30);
	unsigned n = g_below(g, 6);
	if (lines)
		g_use(g, DBC_ARRAY_MULTILINE);
	for (unsigned i = 0; i < n; i++) {
		if (lines) {
			if (g_pct(g, 15)) {
				g_put(g, g->eol);
				g_put(g, "  # a comment inside the array");
				g_use(g, DBC_COMMENT_BODY);
			}
			g_put(g, g->eol);
			g_put(g, "  ");
		} else if (i) {
			g_put(g, " ");
		}
		if (assoc)
			g_printf(g, "[%s]=", g_pct(g, 50) ? "key" : "\"a b\"");
		g_word(g, W_ARG);
	}
	if (lines)
		g_put(g, g->eol);
}

void g_array(struct gen *g)
{
	static const char *const names[] = { "ARGS", "TORCHRUN_ARGS", "NODES", "hosts", "MODEL_ARGS", "EXTRA" };
	g_use(g, DBC_ARRAY);
	switch (g_below(g, 6)) {
	case 0:
		g_use(g, DBC_ARRAY_APPEND);
		g_printf(g, "%s+=(", g_pick(g, names));
		array_elems(g, false);
		break;
	case 1:
		g_use(g, DBC_ARRAY_ASSOC);
		g_use(g, DBC_DECLARE);
		g_printf(g, "declare -A %s=(", g_pick(g, names));
		array_elems(g, true);
		break;
	case 2:
		g_use(g, DBC_DECLARE);
		g_printf(g, "%s -a %s=(", g->in_func && g_pct(g, 50) ? "local" : "declare", g_pick(g, names));
		array_elems(g, false);
		break;
	case 3:
		g_use(g, DBC_ARRAY_ELEM);
		g_printf(g, "%s[%s]=", g_pick(g, names), g_pct(g, 50) ? "$((i + 1))" : "key");
		g_word(g, W_VALUE);
		return;
	default:
		g_printf(g, "%s=(", g_pick(g, names));
		array_elems(g, false);
		break;
	}
	if (!g_mut(g, DBM_UNBALANCED_PAREN))
		g_put(g, ")");
}

static void declaration(struct gen *g)
{
	static const char *const builtins[] = { "declare", "typeset", "readonly", "export", "declare -g" };
	static const char *const opts[] = { "", "-i ", "-r ", "-x ", "-l ", "-u ", "-rx ", "-gx " };
	g_use(g, DBC_DECLARE);
	const char *b = g->in_func && g_pct(g, 40) ? "local" : g_pick(g, builtins);
	g_printf(g, "%s %s", b, g_pick(g, opts));
	unsigned n = 1 + g_below(g, 2);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			g_put(g, " ");
		if (g_pct(g, 20))
			g_var_name(g);
		else
			assign_word(g);
	}
}

static void export_line(struct gen *g)
{
	static const char *const env[] = {
		"NCCL_DEBUG=INFO", "FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "NCCL_SOCKET_IFNAME=^lo,docker",
		"OMP_NUM_THREADS=1", "CUDA_DEVICE_MAX_CONNECTIONS=1", "TORCH_NCCL_ASYNC_ERROR_HANDLING=1",
		"NEURON_RT_NUM_CORES=32", "PYTHONUNBUFFERED=1", "HF_HOME=/fsx/hf",
	};
	g_put(g, "export ");
	if (g_pct(g, 50)) {
		g_put(g, g_pick(g, env));
	} else {
		g_use(g, DBC_ASSIGN);
		assign_word(g);
	}
}

/* ---- launchers ---- */

static void flags(struct gen *g, const char *const *v, size_t n, unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		if (g_pct(g, 35)) {
			/* "\ " escapes a blank: the next line is a command of its own */
			g_put(g, g_pct(g, 3) ? " \\ " : " \\");
			g_put(g, g->eol);
			g_put(g, "    ");
			g_use(g, DBC_CONTINUATION);
		} else {
			g_put(g, " ");
		}
		g_put(g, v[g_below(g, (unsigned)n)]);
	}
}

void g_launcher(struct gen *g)
{
	static const char *const srun[] = {
		"--nodes=$NNODES", "-N \"$SLURM_NNODES\"", "--ntasks-per-node=1", "--gpus-per-node=8",
		"--cpus-per-task=96", "--kill-on-bad-exit=1", "--container-image=\"$IMAGE\"",
		"--container-mounts=/fsx:/fsx", "--export=ALL", "-l", "--mpi=pmix", "--cpu-bind=none",
		"--output=\"$LOG_DIR/%x_%j_%t.log\"", "--het-group=0", "--label", "-n $((NNODES * 8))",
	};
	static const char *const torchrun[] = {
		"--nproc_per_node=$GPUS_PER_NODE", "--nnodes=$NNODES", "--node_rank=$SLURM_PROCID",
		"--rdzv_id=$SLURM_JOB_ID", "--rdzv_backend=c10d", "--rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\"",
		"--master_addr=${MASTER_ADDR}", "--master_port ${MASTER_PORT:-29500}", "--max_restarts=3",
		"--tee 3", "--log_dir \"$LOG_DIR\"", "--nnodes=1:$NNODES",
	};
	static const char *const mpirun[] = {
		"-np $NP", "-N 8", "--hostfile \"$HOSTFILE\"", "-x NCCL_DEBUG=INFO", "-x LD_LIBRARY_PATH",
		"--mca btl tcp,self", "--mca pml ^ucx", "--bind-to none", "--map-by ppr:8:node",
		"--allow-run-as-root", "-x FI_PROVIDER",
	};
	static const char *const script[] = {
		"--tensor-model-parallel-size $TP", "--pipeline-model-parallel-size ${PP:-1}",
		"--micro-batch-size 1", "--global-batch-size $((GLOBAL_BATCH))", "--lr 3e-4",
		"--data-path \"${DATA_PATH}\"", "--save $CKPT_DIR", "--bf16", "--use-flash-attn",
		"--seq-length 4096", "\"$@\"", "\"${ARGS[@]}\"", "${EXTRA_ARGS:+\"$EXTRA_ARGS\"}",
		"--run-name \"$(date +%F)-${SLURM_JOB_ID}\"", "--note 'λ=0.1 données'",
	};
	if (g_pct(g, 20)) {
		g_use(g, DBC_ASSIGN_PREFIX);
		g_put(g, g_pct(g, 50) ? "NCCL_DEBUG=INFO " : "OMP_NUM_THREADS=1 CUDA_VISIBLE_DEVICES=0,1 ");
	}
	unsigned k = g_below(g, 4);
	if (k == 0 || k == 1) {
		g_use(g, DBC_SRUN);
		g_put(g, "srun");
		flags(g, srun, sizeof srun / sizeof srun[0], 1 + g_below(g, 6));
		g_put(g, " ");
	}
	if (k == 1 || k == 2) {
		g_use(g, DBC_TORCHRUN);
		g_put(g, "torchrun");
		flags(g, torchrun, sizeof torchrun / sizeof torchrun[0], 1 + g_below(g, 7));
		g_put(g, " ");
	}
	if (k == 3) {
		g_use(g, DBC_MPIRUN);
		g_put(g, "mpirun");
		flags(g, mpirun, sizeof mpirun / sizeof mpirun[0], 1 + g_below(g, 7));
		g_put(g, " python");
	} else if (k == 0) {
		g_put(g, "python -u");
	}
	g_put(g, g_pct(g, 50) ? " pretrain_gpt.py" : " train.py");
	flags(g, script, sizeof script / sizeof script[0], g_below(g, 8));
	if (g_pct(g, 25))
		g_put(g, " 2>&1 | tee -a \"$LOG_DIR/train_${SLURM_JOB_ID}.log\"");
}

/* ---- here-documents, process substitution, the rest ---- */

static void heredoc_command(struct gen *g)
{
	static const char *const cmds[] = {
		"cat > \"$CONFIG\" ", "cat ", "python - ", "tee hostfile ", "cat >> ds_config.json ",
		"bash -s ", "srun bash ", "read -r -d '' SCRIPT ",
	};
	g_put(g, g_pick(g, cmds));
	g_heredoc(g, g_pct(g, 20), g_pct(g, 40));
	if (g_pct(g, 15)) {
		g_put(g, " ");
		g_heredoc(g, false, g_pct(g, 50));
	}
	if (g_pct(g, 15))
		g_put(g, " | grep -v '^#'");
}

static void procsub(struct gen *g)
{
	static const char *const lists[] = {
		"ls", "sort a", "scontrol show hostnames \"$SLURM_JOB_NODELIST\"", "tee -a \"$LOG\"",
		"gzip > out.gz", "grep -v '^#' hosts", "echo '('", "cat <<< 'x'",
	};
	switch (g_below(g, 5)) {
	case 0:
		g_use(g, DBC_PROCSUB_IN);
		g_printf(g, "diff <(%s) <(%s)", g_pick(g, lists), g_pick(g, lists));
		break;
	case 1:
		g_use(g, DBC_PROCSUB_OUT);
		g_use(g, DBC_PROCSUB_FD);
		g_printf(g, "exec > >(%s) 2> >(%s >&2)", g_pick(g, lists), g_pick(g, lists));
		break;
	case 2:
		g_use(g, DBC_PROCSUB_IN);
		g_use(g, DBC_PROCSUB_FD);
		g_printf(g, "cat %s<(%s)", g_pct(g, 50) ? "0" : "3", g_pick(g, lists));
		break;
	case 3:
		g_use(g, DBC_PROCSUB_OUT);
		g_printf(g, "python train.py %s>(%s)", g_pct(g, 50) ? "2> " : "", g_pick(g, lists));
		break;
	default:
		g_use(g, DBC_PROCSUB_IN);
		g_printf(g, "mapfile -t hosts < <(%s)", g_pick(g, lists));
		break;
	}
}

static void misc(struct gen *g)
{
	static const char *const cmds[] = {
		"mkdir -p", "cd", "source", ".", "module load", "conda activate", "echo", "printf '%s\\n'",
		"scontrol show hostnames", "nvidia-smi", "wait", "sleep", "rm -rf", "cp", "ln -sf", "touch",
		"ulimit -n", "set -x", "shopt -s nullglob", "trap 'kill 0' EXIT", "unset", "shift", "env",
		"timeout 600", "nohup", "true", ":", "python -c 'import torch'", "read -r", "tee -a",
		"grep -q", "awk '{print $1}'", "sed -e 's/a/b/'", "sbatch --dependency=afterok:$SLURM_JOB_ID",
		"let x++", "[ -f \"$CONFIG\" ]", "test -n", "echo données λ", "export -f", "command -v",
		"builtin echo", "exec", "getopts 'ab:' opt", "kill -0",
	};
	g_put(g, g_pick(g, cmds));
	unsigned n = g_below(g, 4);
	for (unsigned i = 0; i < n; i++) {
		g_put(g, " ");
		g_word(g, W_ARG);
	}
}

static void control(struct gen *g)
{
	if (g->in_loop && g_pct(g, 60))
		g_put(g, g_pct(g, 50) ? "break" : "continue");
	else if (g->in_func && g_pct(g, 60))
		g_put(g, g_pct(g, 50) ? "return" : "return 1");
	else
		g_put(g, g_pct(g, 50) ? "exit 1" : "exit");
}

static void evals(struct gen *g)
{
	static const struct {
		const char *text;
		bool array; /* assigns an array: eval NAME=( ... ) */
	} forms[] = {
		{ "eval a=(x)", true }, { "eval \"ARGS=($EXTRA)\"", true }, { "eval \"$CMD\"", false },
		{ "eval 'x=$(hostname)'", false }, { "eval export \"$NAME=1\"", false },
		{ "eval arr=( $(seq 1 4) )", true },
	};
	unsigned k = g_below(g, sizeof forms / sizeof forms[0]);
	if (forms[k].array)
		g_use(g, DBC_EVAL_ARRAY);
	g_put(g, forms[k].text);
}

void g_simple(struct gen *g)
{
	enum { S_ASSIGN, S_EXPORT, S_ARRAY, S_DECLARE, S_MISC, S_LAUNCH, S_HEREDOC, S_PROCSUB,
	       S_PREFIX, S_EVAL, S_CONTROL, S_HERESTRING, S_EXTRA_CLOSER };
	static const unsigned weights[] = {
		[S_ASSIGN] = 20, [S_EXPORT] = 8, [S_ARRAY] = 5, [S_DECLARE] = 4, [S_MISC] = 30,
		[S_LAUNCH] = 3, [S_HEREDOC] = 5, [S_PROCSUB] = 3, [S_PREFIX] = 3, [S_EVAL] = 1,
		[S_CONTROL] = 2, [S_HERESTRING] = 2, [S_EXTRA_CLOSER] = 1,
	};
	switch (g_weighted(g, weights, sizeof weights / sizeof weights[0])) {
	case S_ASSIGN:
		g_assignment(g);
		return;
	case S_EXPORT:
		export_line(g);
		return;
	case S_ARRAY:
		g_array(g);
		return;
	case S_DECLARE:
		declaration(g);
		return;
	case S_LAUNCH:
		g_launcher(g);
		return;
	case S_HEREDOC:
		heredoc_command(g);
		return;
	case S_PROCSUB:
		procsub(g);
		return;
	case S_PREFIX:
		g_use(g, DBC_ASSIGN_PREFIX);
		assign_word(g);
		if (g_pct(g, 25)) {
			g_use(g, DBC_DBRACKET);
			g_put(g, " [[ x ]]");
			return;
		}
		g_put(g, " ");
		misc(g);
		break;
	case S_EVAL:
		evals(g);
		return;
	case S_CONTROL:
		control(g);
		return;
	case S_HERESTRING:
		g_use(g, DBC_HERESTRING);
		g_put(g, g_pct(g, 50) ? "read -r a b <<< " : "grep -q x <<<");
		g_word(g, W_ARG);
		return;
	case S_EXTRA_CLOSER:
		if (g_mut(g, DBM_EXTRA_CLOSER)) {
			static const char *const closers[] = { "fi", "done", "esac", "}", ")", ";;", "then", "do" };
			g_put(g, g_pick(g, closers));
			return;
		}
		misc(g);
		break;
	default:
		misc(g);
		break;
	}
	redirects(g);
}
