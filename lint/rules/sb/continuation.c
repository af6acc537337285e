/* SB2616: a launcher's program on the line after its last flag, where
 * that flag's line lost its backslash. SB0002 finds a lost line that
 * starts with a flag; this is the line that starts with the program
 * (torchrun ... --master_port=8888 / train.py --lr 1 \ ...): bash runs
 * the launcher with no program, which exits, and the program as a
 * command of its own, in the batch step. The fix puts the backslash
 * back, so that --fix never leaves the launcher without its program. */
#include <stdio.h>
#include <string.h>

#include "sb.h"

/* The part that would take a program: the last of the chain, when it
 * is a launcher that got none (torchrun with only flags, srun with only
 * options). */
static const sb_part *programless_launcher(const sb_cmd *cmd)
{
	size_t n = sb_cmd_part_count(cmd);
	const sb_part *p = n ? sb_cmd_part(cmd, n - 1) : NULL;
	if (!p || sb_cmd_assumed(cmd))
		return NULL;
	switch (sb_part_kind(p)) {
	case SB_PROG_TORCHRUN:
	case SB_PROG_SRUN:
	case SB_PROG_MPIRUN:
		break;
	case SB_PROG_LAUNCHER: {
		const char *name = sb_part_name(p);
		if (strcmp(name, "accelerate") && strcmp(name, "deepspeed"))
			return NULL;
		break;
	}
	default:
		return NULL;
	}
	/* python -m torch.distributed.run: its entry is the module */
	bool module = sb_part_kind(p) == SB_PROG_TORCHRUN && !strncmp(sb_part_name(p), "python", 6);
	if ((sb_part_entry(p) && !module) || sb_part_arg_count(p) || sb_part_opaque_count(p))
		return NULL;
	/* torchrun -m module and --no-python name their program by flag */
	if (sb_flag_find(p, "m") || sb_flag_find(p, "module") || sb_flag_find(p, "help") ||
	    sb_flag_find(p, "version"))
		return NULL;
	return p;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A word that names a program file or an interpreter: what a launcher
 * takes as its first positional argument. */
static bool program_word(const char *v)
{
	static const char *const exts[] = { ".py", ".sh", ".bash" };
	static const char *const interps[] = { "python", "python3", "bash", "torchrun" };
	if (!v || !*v || v[0] == '-')
		return false;
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
		if (ends_with(v, exts[i]))
			return true;
	for (size_t i = 0; i < sizeof interps / sizeof interps[0]; i++)
		if (!strcmp(v, interps[i]))
			return true;
	return false;
}

/* The first word's text: as written, or the literal value of the one
 * variable it expands ($TRAIN_SCRIPT set to train.py). */
static const char *first_value(const struct sbc *c, const sb_cmd *cmd)
{
	const sb_word *w = sb_cmd_word(cmd, 0);
	struct sb_resolved r;
	if (sb_word_value(w))
		return sb_word_value(w);
	return sb_resolve_word(c->m, w, cmd, &r) == SB_RES_VALUE ? r.value : NULL;
}

const sb_cmd *sbc_lost_program_of(const struct sbc *c, const sb_cmd *cmd, const sb_part **launcher)
{
	size_t i = sb_cmd_index(cmd);
	if (i == 0 || sb_cmd_word_count(cmd) == 0 || sb_cmd_assign_count(cmd))
		return NULL;
	const sb_cmd *prev = sb_cmd_at(c->m, i - 1);
	unsigned ctx = SB_CTX_PIPELINE | SB_CTX_AND_OR | SB_CTX_BACKGROUND | SB_CTX_CMDSUB |
		       SB_CTX_NESTED;
	if ((sb_cmd_context(prev) | sb_cmd_context(cmd)) & ctx)
		return NULL;
	if (sb_cmd_span(cmd).line != sb_cmd_span(prev).end_line + 1)
		return NULL;
	const sb_part *p = programless_launcher(prev);
	if (!p || !program_word(first_value(c, cmd)))
		return NULL;
	if (launcher)
		*launcher = p;
	return prev;
}

/* Where ' \' goes: after the last byte of the launcher's last line,
 * when nothing there (a comment, a ;) would swallow it or end the
 * command; SIZE_MAX when not. */
static size_t backslash_point(struct source *src, uint32_t line)
{
	size_t len;
	const char *s = source_line(src, line, &len);
	if (!s || !len || s[len - 1] == '\\' || s[len - 1] == ';' || s[len - 1] == '&')
		return SIZE_MAX;
	for (size_t k = 1; k < len; k++)
		if (s[k] == '#' && (s[k - 1] == ' ' || s[k - 1] == '\t'))
			return SIZE_MAX;
	return (size_t)(s - src->text) + len;
}

/* SB2616 lost-continuation-before-program */
static void lost_continuation_before_program(struct sbc *c, const sb_cmd *cmd)
{
	const sb_part *launcher;
	const sb_cmd *prev = sbc_lost_program_of(c, cmd, &launcher);
	if (!prev)
		return;
	uint32_t end = sb_cmd_span(prev).end_line;
	size_t len;
	const char *raw = sb_word_raw(sb_cmd_word(cmd, 0), &len);
	char prog[256];
	snprintf(prog, sizeof prog, "%.*s", (int)(len < 255 ? len : 255), raw);
	struct diag *g = sbc_report(c, R_SB2616, sb_word_span(sb_cmd_word(cmd, 0)),
		"%s is on the line after %s's last flag, but line %u does not end with a backslash: %s starts with no program and exits, and bash runs %s as a command of its own",
		prog, sb_part_name(launcher), end, sb_part_name(launcher), prog);
	diag_set_help(g, "end line %u with ' \\'", end);
	size_t at = backslash_point(c->src, end);
	if (at != SIZE_MAX)
		diag_set_fix_bytes(g, at, at, " \\");
}

void sbc_check_continuation(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		lost_continuation_before_program(c, sb_cmd_at(c->m, i));
}
