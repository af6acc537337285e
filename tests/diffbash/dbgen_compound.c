/* Compound commands of generated scripts: if, the loops, case with its
 * three terminators, groups and subshells, [[ ]] and (( )), functions
 * in both syntaxes with any compound body, time, coproc, and nesting a
 * thousand levels deep. Each is written on one line or several, and
 * each has its mutation sites. */
#include "dbgen_internal.h"

static void enter(struct gen *g)
{
	g->depth++;
	g->indent++;
}

static void leave(struct gen *g)
{
	g->depth--;
	g->indent--;
}

/* A closing keyword on its own line or after "; ". */
static void closer(struct gen *g, const char *word)
{
	if (g_mut(g, DBM_DROP_CLOSER))
		return;
	g_indent(g);
	g_put(g, word);
}

/* "; then", "\nthen", or nothing for the mutation. */
static void keyword(struct gen *g, const char *word)
{
	if (g_mut(g, DBM_DROP_KEYWORD)) {
		g_put(g, "; ");
		return;
	}
	g_chained(g);
	if (g_oneline(g) || g_pct(g, 70)) {
		g_printf(g, "; %s ", word);
		return;
	}
	g_nl(g);
	g_indent(g);
	g_put(g, word);
	g_put(g, " ");
}

static unsigned body_len(struct gen *g)
{
	return g_mut(g, DBM_EMPTY_BODY) ? 0 : 1 + g_below(g, 3);
}

/* The commands of a body, each ended, starting on a new line or not. */
static void body(struct gen *g)
{
	enter(g);
	if (!g_oneline(g) && g_pct(g, 60))
		g_nl(g);
	g_body(g, body_len(g));
	leave(g);
}

/* ---- [[ ]] and (( )) ---- */

static void cond_primary(struct gen *g, unsigned depth)
{
	static const char *const unary[] = { "-n", "-z", "-f", "-d", "-e", "-x", "-s", "-v", "-L" };
	static const char *const binary[] = { "==", "!=", "=", "-lt", "-ge", "-eq", "-ne", "<", ">", "-nt" };
	static const char *const regexes[] = {
		"^[0-9]+$", "^(train|eval)$", "\\.py$", "^--[a-z-]+=.*", "[[:space:]]", "'literal.*'",
		"^\"quoted\"", "(a|b)+", "^$",
	};
	switch (depth > 1 ? g_below(g, 3) : g_below(g, 6)) {
	case 0:
		g_printf(g, "%s ", g_pick(g, unary));
		g_word(g, W_PATH);
		break;
	case 1:
		g_word(g, W_PATH);
		g_printf(g, " %s ", g_pick(g, binary));
		g_word(g, W_PATH);
		break;
	case 2:
		g_use(g, DBC_DBRACKET_REGEX);
		g_printf(g, "$%s =~ %s", g_var(g), g_pick(g, regexes));
		break;
	case 3:
		g_put(g, "! ");
		cond_primary(g, depth + 1);
		break;
	case 4:
		g_put(g, "( ");
		cond_primary(g, depth + 1);
		g_put(g, g_pct(g, 50) ? " && " : " || ");
		cond_primary(g, depth + 1);
		g_put(g, " )");
		break;
	default:
		cond_primary(g, depth + 1);
		g_put(g, g_pct(g, 50) ? " && " : " || ");
		cond_primary(g, depth + 1);
		break;
	}
}

void g_dbracket(struct gen *g)
{
	g_use(g, DBC_DBRACKET);
	if (g_mut(g, DBM_DBRACKET_BAD)) {
		static const char *const bad[] = { "[[ -n x", "[[ ]]", "[[ a b ]]", "[[ x == ]]", "[[ -n \"$A\" ]" };
		g_put(g, g_pick(g, bad));
		return;
	}
	g_put(g, "[[ ");
	cond_primary(g, 0);
	g_put(g, " ]]");
	g->dbracket_end = g->out->len;
}

void g_arith_cmd(struct gen *g)
{
	g_use(g, DBC_ARITH_CMD);
	g_put(g, g_pct(g, 70) ? "(( " : "((");
	if (g_mut(g, DBM_ARITH_BAD))
		g_put(g, g_pct(g, 50) ? "(1 + 2 " : "x ");
	else
		g_arith_expr(g, 0);
	g_put(g, g_pct(g, 70) ? " ))" : "))");
}

static void condition(struct gen *g)
{
	static const char *const cmds[] = {
		"command -v srun >/dev/null", "grep -q efa /proc/modules", "[ -f \"$CONFIG\" ]",
		"[ \"$SLURM_PROCID\" -eq 0 ]", "test -d \"$CKPT_DIR\"", "true", "srun --ntasks=1 hostname",
		"read -r line", "! nvidia-smi -L", "[ -n \"${RESUME:-}\" ]",
	};
	unsigned n = g_pct(g, 85) ? 1 : 2;
	for (unsigned i = 0; i < n; i++) {
		if (i) {
			g_chained(g);
			g_put(g, g_pct(g, 50) ? " && " : " || ");
		}
		unsigned k = g_below(g, 10);
		if (k < 4)
			g_dbracket(g);
		else if (k < 7) {
			g_put(g, g_pick(g, cmds));
			g_use(g, DBC_TEST);
		}
		else if (k < 8)
			g_arith_cmd(g);
		else
			g_and_or(g);
	}
}

/* ---- if and loops ---- */

static void if_command(struct gen *g)
{
	g_use(g, DBC_IF);
	g_put(g, "if ");
	condition(g);
	keyword(g, "then");
	body(g);
	unsigned elifs = g_pct(g, 25) ? 1 + g_below(g, 2) : 0;
	for (unsigned i = 0; i < elifs; i++) {
		g_use(g, DBC_ELIF);
		g_indent(g);
		g_put(g, "elif ");
		condition(g);
		keyword(g, "then");
		body(g);
	}
	if (g_pct(g, 30)) {
		g_use(g, DBC_ELIF);
		g_indent(g);
		g_put(g, "else ");
		body(g);
	}
	closer(g, "fi");
}

static void do_body(struct gen *g)
{
	keyword(g, "do");
	g->in_loop++;
	body(g);
	g->in_loop--;
	closer(g, "done");
}

/* after words the { needs a ; or a newline, or it is one more word */
static void brace_body(struct gen *g, bool after_words)
{
	if (after_words && !g_oneline(g) && g_pct(g, 30)) {
		g_nl(g);
		g_indent(g);
		g_put(g, "{ ");
	} else {
		g_put(g, after_words || g_pct(g, 50) ? "; { " : " { ");
	}
	g->in_loop++;
	body(g);
	g->in_loop--;
	closer(g, "}");
}

static void words_list(struct gen *g)
{
	static const char *const lists[] = {
		"$(seq 1 \"$NNODES\")", "\"${ARGS[@]}\"", "{1..4}", "$(scontrol show hostnames)", "*.yaml",
		"a b c", "\"$@\"", "${!ARGS[@]}", "`ls`", "'1 2' \"3\"",
	};
	unsigned n = g_below(g, 4);
	for (unsigned i = 0; i < n; i++) {
		g_put(g, " ");
		if (g_pct(g, 50))
			g_put(g, g_pick(g, lists));
		else
			g_word(g, W_ARG);
	}
}

static void for_loop(struct gen *g)
{
	static const char *const names[] = { "i", "node", "host", "f", "rank", "arg", "x" };
	const char *v = g_pick(g, names);
	switch (g_below(g, 6)) {
	case 0:
		g_use(g, DBC_FOR_NO_IN);
		g_printf(g, g_pct(g, 50) ? "for %s" : "for %s;", v);
		if (!g_oneline(g) && g_pct(g, 30)) {
			g_nl(g);
			g_indent(g);
		} else {
			g_put(g, " ");
		}
		g_put(g, "do ");
		g->in_loop++;
		body(g);
		g->in_loop--;
		closer(g, "done");
		return;
	case 1:
		g_use(g, DBC_FOR_ARITH);
		g_put(g, g_pct(g, 50) ? "for ((i = 0; i < NNODES; i++))" : "for (( ; ; ))");
		if (g_pct(g, 25)) {
			g_use(g, DBC_FOR_BRACE);
			brace_body(g, false);
		} else {
			do_body(g);
		}
		return;
	case 2:
		g_use(g, DBC_FOR_BRACE);
		g_use(g, DBC_FOR_IN);
		g_printf(g, "for %s in", v);
		words_list(g);
		brace_body(g, true);
		return;
	default:
		g_use(g, DBC_FOR_IN);
		if (g_mut(g, DBM_FOR_BAD))
			g_printf(g, "for %s i", v);
		else
			g_printf(g, "for %s in", v);
		words_list(g);
		do_body(g);
		return;
	}
}

static void while_loop(struct gen *g)
{
	bool until = g_pct(g, 25);
	g_use(g, until ? DBC_UNTIL : DBC_WHILE);
	g_put(g, until ? "until " : "while ");
	condition(g);
	do_body(g);
}

static void select_loop(struct gen *g)
{
	g_use(g, DBC_SELECT);
	g_put(g, "select opt in");
	words_list(g);
	do_body(g);
}

/* ---- case ---- */

/* What ends an item of n commands: ;; ;& or ;;&, or nothing after the
 * last (but "x) ;" is an error). */
static void case_terminator(struct gen *g, unsigned n, bool last)
{
	if (last && g_pct(g, 30)) {
		if (n)
			g_end(g);
		else if (g_oneline(g))
			g_put(g, " ");
		else
			g_nl(g);
		return;
	}
	if (g_mut(g, DBM_CASE_BAD)) {
		g_end(g); /* no ;; before the next pattern */
		return;
	}
	static const char *const terms[] = { ";;", ";;", ";;", ";;", ";&", ";;&" };
	const char *t = g_pick(g, terms);
	if (t[1] == '&')
		g_use(g, DBC_CASE_FALL);
	else if (t[2] == '&')
		g_use(g, DBC_CASE_CONT);
	if (n && !g_oneline(g) && g_pct(g, 30)) {
		g_nl(g);
		g->indent++;
		g_indent(g);
		g->indent--;
	} else if (g_pct(g, 40)) {
		g_put(g, " ");
	}
	g_chained(g);
	g_put(g, t);
	if (g_oneline(g) || g_pct(g, 20))
		g_put(g, " ");
	else
		g_nl(g);
}

static void case_item(struct gen *g, bool last)
{
	static const char *const pats[] = {
		"*.py", "train|eval", "\"quoted\"", "--lr=*", "[0-9]*", "'a b'", "gpu-*|trn*", "$MODE",
		"\\)", "?", "-h|--help", "données",
	};
	g_indent(g);
	if (g_pct(g, 15)) {
		g_use(g, DBC_CASE_PAREN);
		g_put(g, "(");
	}
	g_put(g, last && g_pct(g, 60) ? "*" : g_pick(g, pats));
	g_put(g, g_mut(g, DBM_CASE_BAD) ? " " : ") ");
	unsigned n = g_pct(g, 12) ? 0 : 1 + g_below(g, 2);
	if (!n)
		g_use(g, DBC_CASE_EMPTY);
	enter(g);
	for (unsigned i = 0; i < n; i++) {
		g_indent(g);
		g_and_or(g);
		if (i + 1 < n)
			g_end(g);
	}
	leave(g);
	case_terminator(g, n, last);
}

static void case_command(struct gen *g)
{
	static const char *const words[] = {
		"$1", "\"$MODE\"", "${HOSTNAME%%.*}", "$(hostname)", "\"$SLURM_PROCID\"", "$arg", "x",
	};
	g_use(g, DBC_CASE);
	g_printf(g, "case %s", g_pick(g, words));
	if (g_mut(g, DBM_DROP_KEYWORD))
		g_put(g, " ");
	else
		g_put(g, " in ");
	if (!g_oneline(g) && g_pct(g, 70))
		g_nl(g);
	unsigned n = g_below(g, 4);
	enter(g);
	for (unsigned i = 0; i < n; i++)
		case_item(g, i + 1 == n);
	leave(g);
	closer(g, "esac");
}

/* ---- groups ---- */

static void brace_group(struct gen *g)
{
	g_use(g, DBC_BRACE);
	g_put(g, "{ ");
	body(g);
	closer(g, "}");
}

static void subshell(struct gen *g)
{
	g_use(g, DBC_SUBSHELL);
	g_put(g, "( ");
	enter(g);
	g_inline_list(g, g_mut(g, DBM_EMPTY_BODY) ? 0 : 1 + g_below(g, 2));
	if (g_pending(g))
		g_nl(g);
	leave(g);
	g_put(g, " ");
	closer(g, ")");
}

/* ---- functions, time, coproc ---- */

static void function_body(struct gen *g)
{
	enum { B_BRACE, B_SUBSHELL, B_ARITH, B_DBRACKET, B_IF, B_FOR, B_WHILE, B_CASE };
	static const unsigned weights[] = {
		[B_BRACE] = 30, [B_SUBSHELL] = 5, [B_ARITH] = 2, [B_DBRACKET] = 2, [B_IF] = 2,
		[B_FOR] = 2, [B_WHILE] = 1, [B_CASE] = 2,
	};
	unsigned k = g_weighted(g, weights, sizeof weights / sizeof weights[0]);
	static const enum dbg_construct uses[] = {
		[B_BRACE] = DBC_FUNC_BODY_BRACE, [B_SUBSHELL] = DBC_FUNC_BODY_SUBSHELL,
		[B_ARITH] = DBC_FUNC_BODY_ARITH, [B_DBRACKET] = DBC_FUNC_BODY_DBRACKET,
		[B_IF] = DBC_FUNC_BODY_OTHER, [B_FOR] = DBC_FUNC_BODY_OTHER,
		[B_WHILE] = DBC_FUNC_BODY_OTHER, [B_CASE] = DBC_FUNC_BODY_OTHER,
	};
	g_use(g, uses[k]);
	g->in_func++;
	switch (k) {
	case B_BRACE:
		brace_group(g);
		break;
	case B_SUBSHELL:
		subshell(g);
		break;
	case B_ARITH:
		g_arith_cmd(g);
		break;
	case B_DBRACKET:
		g_dbracket(g);
		break;
	case B_IF:
		if_command(g);
		break;
	case B_FOR:
		for_loop(g);
		break;
	case B_WHILE:
		while_loop(g);
		break;
	default:
		case_command(g);
		break;
	}
	g->in_func--;
}

void g_function(struct gen *g)
{
	static const char *const names[] = {
		"setup", "cleanup", "log", "run_train", "get_master", "main", "_helper", "my-func", "f",
		"on_usr1", "wait_for_nodes",
	};
	const char *name = g_pick(g, names);
	switch (g_below(g, 3)) {
	case 0:
		g_use(g, DBC_FUNC_PAREN);
		g_printf(g, g_pct(g, 70) ? "%s()" : "%s ( )", name);
		break;
	case 1:
		g_use(g, DBC_FUNC_KEYWORD);
		g_printf(g, "function %s", name);
		break;
	default:
		g_use(g, DBC_FUNC_KEYWORD_PAREN);
		g_printf(g, "function %s()", name);
		break;
	}
	if (!g_oneline(g) && g_pct(g, 15)) {
		g_nl(g);
		g_indent(g);
	} else {
		g_put(g, " ");
	}
	function_body(g);
	if (g_pct(g, 8)) {
		g_use(g, DBC_FUNC_REDIR);
		g_put(g, g_pct(g, 50) ? " > \"$LOG_DIR/f.log\" 2>&1" : " >&2");
	}
}

static void compound_only(struct gen *g);

static void time_compound(struct gen *g)
{
	g_use(g, DBC_TIME);
	g_use(g, DBC_TIME_COMPOUND);
	if (g_pct(g, 30)) {
		g_use(g, DBC_TIME_P);
		g_put(g, "time -p ");
	} else {
		g_put(g, "time ");
	}
	compound_only(g);
}

static void coproc(struct gen *g)
{
	static const char *const names[] = { "WORKER", "MON", "tail_proc" };
	g_use(g, DBC_COPROC);
	g_put(g, "coproc ");
	switch (g_below(g, 4)) {
	case 0:
		g_put(g, g_pct(g, 50) ? "tail -f \"$LOG\"" : "nvidia-smi dmon -s u");
		return;
	case 1:
		g_use(g, DBC_COPROC_COMPOUND);
		brace_group(g);
		return;
	case 2:
		g_use(g, DBC_COPROC_COMPOUND);
		g_printf(g, "%s ", g_pick(g, names));
		brace_group(g);
		return;
	default:
		g_use(g, DBC_COPROC_COMPOUND);
		if (g_pct(g, 50))
			g_printf(g, "%s ", g_pick(g, names));
		subshell(g);
		return;
	}
}

/* while read ...; done < <(cmd) and other redirected compounds */
static void compound_redirect(struct gen *g)
{
	g_use(g, DBC_COMPOUND_REDIR);
	switch (g_below(g, 5)) {
	case 0:
		g_use(g, DBC_PROCSUB_IN);
		g_put(g, " < <(scontrol show hostnames \"$SLURM_JOB_NODELIST\")");
		break;
	case 1:
		g_put(g, " ");
		g_heredoc(g, false, g_pct(g, 50));
		break;
	case 2:
		g_put(g, " 2>&1 | tee -a run.log");
		g_use(g, DBC_PIPELINE);
		break;
	default:
		g_redirect(g);
		break;
	}
}

/* ---- the table ---- */

enum { K_IF, K_FOR, K_WHILE, K_SELECT, K_CASE, K_BRACE, K_SUBSHELL, K_DBRACKET, K_ARITH,
       K_TIME, K_COPROC, K_FUNCTION, K__COUNT };

static void (*const makers[])(struct gen *) = {
	[K_IF] = if_command, [K_FOR] = for_loop, [K_WHILE] = while_loop, [K_SELECT] = select_loop,
	[K_CASE] = case_command, [K_BRACE] = brace_group, [K_SUBSHELL] = subshell,
	[K_DBRACKET] = g_dbracket, [K_ARITH] = g_arith_cmd, [K_TIME] = time_compound,
	[K_COPROC] = coproc, [K_FUNCTION] = g_function,
};

/* A compound command that time may precede. */
static void compound_only(struct gen *g)
{
	static const unsigned weights[] = {
		[K_IF] = 2, [K_FOR] = 2, [K_WHILE] = 1, [K_SELECT] = 0, [K_CASE] = 1, [K_BRACE] = 4,
		[K_SUBSHELL] = 3, [K_DBRACKET] = 1, [K_ARITH] = 1,
	};
	makers[g_weighted(g, weights, sizeof weights / sizeof weights[0])](g);
}

void g_compound(struct gen *g)
{
	static const unsigned weights[] = {
		[K_IF] = 22, [K_FOR] = 14, [K_WHILE] = 7, [K_SELECT] = 1, [K_CASE] = 8, [K_BRACE] = 6,
		[K_SUBSHELL] = 5, [K_DBRACKET] = 12, [K_ARITH] = 5, [K_TIME] = 2, [K_COPROC] = 2,
		[K_FUNCTION] = 3,
	};
	unsigned k = g_weighted(g, weights, K__COUNT);
	/* time and coproc are words of their own only where a pipeline starts */
	if (g->pipe_tail && (k == K_TIME || k == K_COPROC))
		k = K_BRACE;
	g->pipe_tail = false;
	if (g->level)
		g_use(g, DBC_CMDSUB_COMPOUND);
	makers[k](g);
	bool redirectable = k != K_DBRACKET && k != K_ARITH && k != K_FUNCTION && k != K_COPROC;
	if (redirectable && g_pct(g, 10))
		compound_redirect(g);
	if (g_mut(g, DBM_WORD_AFTER_CLOSER)) {
		static const char *const words[] = { " c", " echo x", "x", " fi", " then" };
		g_put(g, g_pick(g, words));
	}
}

/* ---- nesting a thousand levels deep ---- */

void g_deep(struct gen *g, bool huge)
{
	unsigned d = huge ? 1000 + g_below(g, 600) : 7 + g_below(g, 54);
	unsigned kind = g_below(g, 3);
	unsigned skip = g_mut(g, DBM_DROP_CLOSER) ? 1 + g_below(g, d) : 0;
	static const enum dbg_construct huge_uses[] = { DBC_DEEP_CMDSUB, DBC_DEEP_SUBSHELL, DBC_DEEP_BRACE };
	g_use(g, huge ? huge_uses[kind] : DBC_NEST_MODERATE);
	static const char *const open[] = { "$(echo ", "( ", "{ " };
	static const char *const inner[] = { "$(hostname)", ":", ":;" };
	static const char *const close[] = { ")", " )", " };" };
	if (kind == 0) {
		g_use(g, DBC_CMDSUB);
		g_use(g, DBC_CMDSUB_NESTED);
		g_use(g, DBC_CMDSUB_DEEP);
		g_put(g, "x=");
	} else {
		g_use(g, kind == 1 ? DBC_SUBSHELL : DBC_BRACE);
	}
	for (unsigned i = 0; i < d; i++)
		g_put(g, open[kind]);
	g_put(g, inner[kind]);
	for (unsigned i = 0; i < d; i++) {
		if (i + 1 == skip)
			continue;
		/* the outermost } needs no ; of its own */
		g_put(g, kind == 2 && i + 1 == d ? " }" : close[kind]);
	}
}
