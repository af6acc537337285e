/* Words of generated scripts: literals from training scripts, quoting of
 * every kind, parameter expansions with their operators, command and
 * arithmetic substitution (nested), globs and UTF-8 text. */
#include "dbgen_internal.h"

#include <string.h>

static const char *const vars[] = {
	"NNODES", "GPUS_PER_NODE", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "SLURM_JOB_ID",
	"SLURM_NNODES", "SLURM_PROCID", "SLURM_JOB_NODELIST", "LOG_DIR", "CKPT_DIR", "DATA_PATH",
	"TP", "PP", "MICRO_BATCH", "GLOBAL_BATCH", "LR", "HOSTNAME", "i", "n", "rank", "node",
	"SLURM_GPUS_ON_NODE", "NCCL_DEBUG", "FI_PROVIDER", "RUN_NAME", "CONFIG", "PYTHONPATH",
};

static const char *const arrays[] = { "ARGS", "TORCHRUN_ARGS", "NODES", "hosts", "MODEL_ARGS", "EXTRA" };

const char *g_var(struct gen *g)
{
	return g_pick(g, vars);
}

void g_var_name(struct gen *g)
{
	g_put(g, g_var(g));
}

void g_text(struct gen *g, bool unicode)
{
	static const char *const ascii[] = {
		"Starting", "training", "on", "nodes", "done", "step", "rank", "ok", "-", "+", "job",
		"epoch", "loss", "checkpoint", "saved", "to", "with", "GPUs",
	};
	static const char *const utf8[] = {
		"données", "λ", "日本語", "✓", "—", "é", "über", "Ω", "🚀", "naïve", "Ünïcödé", "→",
	};
	if (unicode && g_pct(g, 50)) {
		g_put(g, g_pick(g, utf8));
		g_use(g, DBC_UNICODE);
	} else {
		g_put(g, g_pick(g, ascii));
	}
}

/* ---- arithmetic ---- */

void g_arith_expr(struct gen *g, unsigned depth)
{
	static const char *const atoms[] = {
		"1", "8", "0", "42", "SLURM_NNODES", "GPUS_PER_NODE", "i", "n", "$NNODES", "${TP:-1}",
		"${#ARGS[@]}", "x", "16#ff", "2#101", "RANDOM % 1000", "arr[1]", "$1",
	};
	static const char *const binops[] = {
		" + ", " - ", " * ", " / ", " % ", " ** ", " << ", " >> ", " & ", " | ", " ^ ", " && ",
		" || ", " == ", " != ", " < ", " > ", " <= ", " >= ", "+", "*", ", ",
	};
	static const char *const assigns[] = { "x++", "++i", "i--", "x += 2", "n = 1", "x *= 3", "x = y = 0" };
	unsigned k = depth > 2 ? 0 : g_below(g, 7);
	switch (k) {
	case 0:
	case 1:
		g_put(g, g_pick(g, atoms));
		break;
	case 2:
	case 3:
		g_arith_expr(g, depth + 1);
		g_put(g, g_pick(g, binops));
		g_arith_expr(g, depth + 1);
		break;
	case 4:
		g_put(g, "(");
		g_arith_expr(g, depth + 1);
		g_put(g, ")");
		break;
	case 5:
		g_put(g, g_pick(g, assigns));
		break;
	default:
		g_arith_expr(g, depth + 1);
		g_put(g, " ? ");
		g_arith_expr(g, depth + 1);
		g_put(g, " : ");
		g_arith_expr(g, depth + 1);
		break;
	}
}

static void arith_expansion(struct gen *g)
{
	g_use(g, DBC_ARITH_EXP);
	g_put(g, "$((");
	if (g_mut(g, DBM_ARITH_BAD)) {
		g_put(g, g_pct(g, 50) ? "()" : "(1 + 2");
	} else {
		g_arith_expr(g, 0);
	}
	g_put(g, "))");
}

/* ---- substitutions ---- */

static void backtick(struct gen *g)
{
	static const char *const cmds[] = {
		"hostname", "date +%s", "scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1",
		"nproc", "whoami", "basename $0", "expr $NNODES \\* 8", "echo a b",
	};
	g_use(g, DBC_BACKTICK);
	g_printf(g, "`%s`", g_pick(g, cmds));
}

void g_cmdsub(struct gen *g)
{
	g_use(g, DBC_CMDSUB);
	g_put(g, "$(");
	size_t open = g->out->len;
	g->level++;
	g->depth++;
	if (g->level >= 2 && g->level <= 6)
		g_use(g, DBC_CMDSUB_NESTED);
	else if (g->level > 6)
		g_use(g, DBC_CMDSUB_DEEP);
	bool lines = !g_oneline(g) && g_pct(g, 12);
	if (lines) {
		g_nl(g);
		g->indent++;
	}
	g_inline_list(g, g_pct(g, 80) ? 1 : 2);
	/* "$((" would read as arithmetic */
	if (g->out->len > open && g->out->p[open] == '(') {
		buf_putc(g->out, ' ');
		memmove(g->out->p + open + 1, g->out->p + open, g->out->len - open - 1);
		g->out->p[open] = ' ';
	}
	if (lines) {
		g->indent--;
		g_nl(g);
	} else if (g_pending(g)) {
		g_nl(g);
	}
	g->depth--;
	g->level--;
	if (!g_mut(g, DBM_UNBALANCED_PAREN))
		g_put(g, ")");
}

/* ---- parameters ---- */

static void param_operand(struct gen *g)
{
	static const char *const lits[] = { "1", "/tmp", "localhost", "29500", "", "none", "a b", "x.y" };
	unsigned k = g->depth >= g->max_depth + 2 ? 0 : g_below(g, 6);
	if (k == 0 || k == 1)
		g_put(g, g_pick(g, lits));
	else if (k == 2)
		g_printf(g, "$%s", g_var(g));
	else if (k == 3)
		g_dquote(g);
	else if (k == 4)
		g_cmdsub(g);
	else
		g_param(g);
}

void g_param(struct gen *g)
{
	static const char *const ops[] = { ":-", ":=", ":+", "-", "=", ":?" };
	static const char *const trims[] = {
		"%.*", "%%/*", "#*/", "##*/", "/a/b", "//,/ ", ":0:3", ":1", "^^", ",,", "/#-/_", "@Q",
	};
	g->depth++;
	const char *v = g_var(g);
	switch (g_below(g, 8)) {
	case 0:
		g_printf(g, "${%s}", v);
		break;
	case 1:
	case 2:
	case 3:
		g_use(g, DBC_PARAM_DEFAULT);
		g_printf(g, "${%s%s", v, g_pick(g, ops));
		param_operand(g);
		g_put(g, "}");
		break;
	case 4:
		g_use(g, DBC_PARAM_OP);
		g_printf(g, "${%s%s}", v, g_pick(g, trims));
		break;
	case 5:
		g_use(g, DBC_PARAM_OP);
		g_printf(g, g_pct(g, 50) ? "${#%s}" : "${!%s}", v);
		break;
	default: {
		static const char *const forms[] = { "${%s[@]}", "${#%s[@]}", "${%s[0]}", "${%s[$i]}", "${!%s[@]}", "${%s[*]}" };
		g_use(g, DBC_ARRAY_EXPAND);
		g_printf(g, g_pick(g, forms), g_pick(g, arrays));
		break;
	}
	}
	g->depth--;
}

/* ---- quoting ---- */

void g_dquote(struct gen *g)
{
	g_use(g, DBC_QUOTE_DOUBLE);
	g->depth++;
	g_put(g, "\"");
	unsigned n = 1 + g_below(g, 4);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			g_put(g, g_pct(g, 70) ? " " : "");
		unsigned k = g->depth > g->max_depth + 1 || !g->rich ? g_below(g, 5) : g_below(g, 10);
		switch (k) {
		case 0:
		case 1:
			g_text(g, true);
			break;
		case 2:
			g_printf(g, "$%s", g_var(g));
			break;
		case 3:
		case 4:
			g_param(g);
			break;
		case 5:
			g_cmdsub(g);
			break;
		case 6:
			arith_expansion(g);
			break;
		case 7:
			g_put(g, g_pct(g, 50) ? "\\\"quoted\\\" \\$HOME" : "it's `hostname`");
			break;
		case 8:
			g_use(g, DBC_MULTILINE_STRING);
			g_put(g, g->eol);
			g_text(g, false);
			break;
		default:
			g_put(g, "$@");
			break;
		}
	}
	if (!g_mut(g, DBM_UNBALANCED_QUOTE))
		g_put(g, "\"");
	g->depth--;
}

static void squote(struct gen *g)
{
	static const char *const text[] = {
		"--lr 3e-4", "a b c", "$NOT_EXPANDED", "$(nor this)", "{\"key\": 1}", "*.py", "\\n",
		"line one\nline two", "données", "\"", "fi done esac )",
	};
	g_use(g, DBC_QUOTE_SINGLE);
	const char *t = g_pick(g, text);
	g_put(g, "'");
	for (const char *p = t; *p; p++) {
		if (*p == '\n') {
			g_put(g, g->eol);
			g_use(g, DBC_MULTILINE_STRING);
		} else {
			buf_putc(g->out, *p);
		}
	}
	if (!g_mut(g, DBM_UNBALANCED_QUOTE))
		g_put(g, "'");
}

static void ansi(struct gen *g)
{
	static const char *const text[] = { "\\t", "a\\nb", "\\'", "\\x41\\u00e9", "--sep=\\t", "\\\\" };
	g_use(g, DBC_QUOTE_ANSI);
	g_printf(g, "$'%s", g_pick(g, text));
	if (!g_mut(g, DBM_UNBALANCED_QUOTE))
		g_put(g, "'");
}

/* ---- words ---- */

static void literal(struct gen *g, enum g_wkind k)
{
	static const char *const args[] = {
		"train.py", "--bf16", "-u", "--config", "configs/llama.yaml", "info", "-p", "1", "x", "-",
		"--", "%x-%j.out", "a=b", "--lr=3e-4", "node[01-04]", "8", "@", "+x", "1:2", "ALL",
	};
	static const char *const paths[] = {
		"/fsx/data", "/fsx/ckpt/run1", "./train.sh", "logs/train.log", "/dev/null", "$HOME/.cache",
		"/opt/conda/bin/activate", "../env.sh", "/tmp/hostfile",
	};
	static const char *const nums[] = { "1", "8", "0", "29500", "64", "-1", "3e-4", "0.1" };
	if (k == W_PATH)
		g_put(g, g_pick(g, paths));
	else if (k == W_NUM)
		g_put(g, g_pick(g, nums));
	else
		g_put(g, g_pick(g, args));
}

static void glob(struct gen *g)
{
	static const char *const globs[] = {
		"*.py", "ckpt_[0-9]*", "~/runs", "{a,b}", "log.{out,err}", "?", "/fsx/{data,ckpt}/",
		"~", "file{1..4}",
	};
	g_use(g, DBC_GLOB_BRACE);
	g_put(g, g_pick(g, globs));
}

void g_word(struct gen *g, enum g_wkind k)
{
	enum { P_LIT, P_VAR, P_PARAM, P_DQ, P_SQ, P_ANSI, P_CMDSUB, P_BACKTICK, P_ARITH, P_GLOB, P_UTF8 };
	static const unsigned rich[] = {
		[P_LIT] = 30, [P_VAR] = 12, [P_PARAM] = 8, [P_DQ] = 12, [P_SQ] = 5, [P_ANSI] = 1,
		[P_CMDSUB] = 6, [P_BACKTICK] = 1, [P_ARITH] = 3, [P_GLOB] = 2, [P_UTF8] = 2,
	};
	static const unsigned plain[] = {
		[P_LIT] = 50, [P_VAR] = 20, [P_PARAM] = 4, [P_DQ] = 10, [P_SQ] = 3, [P_ANSI] = 0,
		[P_CMDSUB] = 2, [P_BACKTICK] = 0, [P_ARITH] = 1, [P_GLOB] = 1, [P_UTF8] = 1,
	};
	unsigned n = g_pct(g, 80) ? 1 : 2;
	bool deep = g->depth > g->max_depth + 2;
	for (unsigned i = 0; i < n; i++) {
		unsigned p = deep ? P_LIT : g_weighted(g, g->rich ? rich : plain, sizeof rich / sizeof rich[0]);
		switch (p) {
		case P_LIT:
			literal(g, k);
			break;
		case P_VAR:
			g_printf(g, g_pct(g, 50) ? "$%s" : "${%s}", g_var(g));
			break;
		case P_PARAM:
			g_param(g);
			break;
		case P_DQ:
			g_dquote(g);
			break;
		case P_SQ:
			squote(g);
			break;
		case P_ANSI:
			ansi(g);
			break;
		case P_CMDSUB:
			g_cmdsub(g);
			break;
		case P_BACKTICK:
			backtick(g);
			break;
		case P_ARITH:
			arith_expansion(g);
			break;
		case P_GLOB:
			glob(g);
			break;
		default:
			g_text(g, true);
			break;
		}
	}
}
