/* SB001x: what sbatch and the shell do with the script as a file: the
 * interpreter line sbatch insists on, sh asked to run bash, and a path
 * built from a variable before the line that sets it. */
#include <stdio.h>
#include <string.h>

#include "sb.h"

/* SB0010 shebang-not-first-line: sbatch refuses a script whose first two
 * bytes are not #! ("This does not look like a batch script"; Slurm
 * 25.11.7 src/sbatch/sbatch.c, has_shebang). A script srun starts on
 * every node is exec'd, not submitted: not this rule's. */
static void shebang_not_first_line(struct sbc *c)
{
	if (c->per_node || sb_shebang(c->m) || !sb_directive_count(c->m))
		return;
	for (size_t i = 0; i < sb_comment_count(c->m); i++) {
		const struct sb_comment *k = sb_comment_at(c->m, i);
		if (k->own_line && k->span.col == 1 && !strncmp(k->text, "#!", 2)) {
			struct diag *g = sbc_report(c, R_SB0010, k->span,
				"the #! line is line %u, not line 1: sbatch refuses the script (\"This does not look like a batch script\")",
				k->span.line);
			diag_set_help(g, "move '%s' to the very first line", k->text);
			return;
		}
	}
	struct sb_span top = { 1, 1, 1, 2, 0, 0 };
	struct diag *g = sbc_report(c, R_SB0010, top,
		"the script does not start with #!: sbatch refuses it (\"The first line must start with #! followed by the path to an interpreter\")");
	diag_set_help(g, "make '#!/bin/bash' the first line");
}

/* The bash-only constructs the model shows, by what a command looks
 * like; `function NAME` and here-strings are not among them (the model
 * does not keep how a function was declared, nor redirections). */
static const char *bash_only(const sb_cmd *cmd)
{
	static const struct { const char *word0, *what; } builtins[] = {
		{ "[[", "[[ ]]" }, { "source", "source" }, { "declare", "declare" },
		{ "typeset", "typeset" }, { "shopt", "shopt" }, { "mapfile", "mapfile" },
		{ "readarray", "readarray" }, { "pushd", "pushd" }, { "popd", "popd" },
	};
	size_t n = sb_cmd_word_count(cmd);
	if (n) {
		size_t len;
		const char *raw = sb_word_raw(sb_cmd_word(cmd, 0), &len);
		for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
			if (strlen(builtins[i].word0) == len && !memcmp(raw, builtins[i].word0, len))
				return builtins[i].what;
		if (len >= 2 && !memcmp(raw, "((", 2))
			return "(( ))";
	}
	for (size_t w = 0; w < n; w++) {
		size_t len;
		const char *raw = sb_word_raw(sb_cmd_word(cmd, w), &len);
		if (len >= 2 && (!memcmp(raw, "<(", 2) || !memcmp(raw, ">(", 2)))
			return "process substitution";
		if (memmem(raw, len, "[@]}", 4) || memmem(raw, len, "[*]}", 4))
			return "an array expansion";
	}
	for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++)
		if (sb_cmd_assign(cmd, k)->array)
			return "an array";
	return NULL;
}

/* /bin/sh is bash on Amazon Linux and the RHEL family, dash on Ubuntu:
 * silent when the paired cluster runs an OS whose sh is bash. */
static bool sh_is_bash(const struct sbc *c)
{
	if (!c->cluster)
		return false;
	const yamldoc *d = c->cluster->doc;
	const char *os = yd_str(d, yd_get(d, yd_get(d, yd_root(d), "Image"), "Os"), NULL);
	return os && strncmp(os, "ubuntu", 6);
}

/* SB0011 sh-with-bash-syntax */
static void sh_with_bash_syntax(struct sbc *c)
{
	const struct sb_shebang *sh = sb_shebang(c->m);
	if (!sh || !sh->interp || (strcmp(sh->interp, "sh") && strcmp(sh->interp, "dash")) ||
	    sh_is_bash(c))
		return;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sb_cmd_context(cmd) & SB_CTX_NESTED)
			continue; /* bash -c runs bash */
		const char *what = bash_only(cmd);
		if (!what)
			continue;
		struct diag *g = sbc_report(c, R_SB0011, sh->span,
			"#!%s runs the script with sh, but line %u uses %s, which is bash's: on Ubuntu, whose sh is dash, the script stops there",
			sh->text, sb_cmd_span(cmd).line, what);
		diag_set_help(g, "start the script with #!/bin/bash");
		return;
	}
}

static bool path_command(const sb_cmd *cmd)
{
	static const char *const progs[] = { "mkdir", "cd", "touch", "cp", "mv", "rm", "ln",
					     "tee", "chmod", "rmdir", "source", "." };
	const char *w0 = sb_cmd_word_count(cmd) ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
	for (size_t i = 0; w0 && i < sizeof progs / sizeof progs[0]; i++)
		if (!strcmp(w0, progs[i]))
			return true;
	return false;
}

/* Whether the script sets name at top level after command index at. */
static const struct sb_assign *set_later(const sb_model *m, const char *name, size_t at)
{
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		if (!a->cmd || sb_cmd_index(a->cmd) <= at || strcmp(a->name, name) ||
		    (a->kind != SB_ASSIGN_PLAIN && a->kind != SB_ASSIGN_EXPORT && a->kind != SB_ASSIGN_DECLARE) ||
		    (sb_cmd_context(a->cmd) & (SB_CTX_FUNCTION | SB_CTX_NESTED)))
			continue;
		return a;
	}
	return NULL;
}

static bool self_extending(const struct sb_assign *a)
{
	for (size_t r = 0; a && a->value && r < sb_word_ref_count(a->value); r++)
		if (!strcmp(sb_word_ref(a->value, r), a->name))
			return true;
	return false;
}

/* self: the assignment w is the value of, or NULL. */
static void used_before_set(struct sbc *c, const sb_cmd *cmd, const sb_word *w,
			    const struct sb_assign *self)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++) {
		const char *name = sb_word_ref(w, r);
		struct sb_resolved res;
		if (sb_resolve(c->m, name, cmd, &res) != SB_RES_ENV || res.after_source)
			continue;
		const struct sb_assign *later = set_later(c->m, name, sb_cmd_index(cmd));
		/* PATH=/x:$PATH extends what the environment gives: it is meant
		 * to be read before the script sets it */
		if (!later || self_extending(later) || self_extending(self))
			continue;
		/* what it holds here is the open world's (docs/design.md, "An
		 * open world"): a file beside the script, or the submitter's */
		const char *file = NULL;
		bool sourced = false;
		char here[512];
		if (c->world && c->world->sets && c->world->sets(c->world->ctx, name, &file, &sourced))
			snprintf(here, sizeof here, "what %s sets when it is sourced before sbatch, else empty", file);
		else
			snprintf(here, sizeof here, "empty (or whatever the submitting shell had)");
		struct diag *g = sbc_report(c, R_SB0012, sb_word_span(w),
			"$%s is used in a path on line %u, before line %u sets it: here it is %s, so the path is not the one meant",
			name, sb_word_span(w).line, later->span.line, here);
		diag_set_help(g, "set %s before its first use", name);
		return;
	}
}

/* SB0012 variable-used-before-set: in the arguments of a command that
 * takes paths (mkdir, cd, cp...), in a flag's value and in an assignment
 * that builds a path. Loops and functions run their lines in another
 * order, so they are left out. */
static void variable_used_before_set(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sb_cmd_context(cmd) & (SB_CTX_FUNCTION | SB_CTX_LOOP | SB_CTX_NESTED))
			continue;
		bool paths = path_command(cmd);
		for (size_t k = 1; paths && k < sb_cmd_word_count(cmd); k++)
			used_before_set(c, cmd, sb_cmd_word(cmd, k), NULL);
		for (size_t p = 0; p < sb_cmd_part_count(cmd); p++)
			for (size_t f = 0; f < sb_part_flag_count(sb_cmd_part(cmd, p)); f++) {
				const sb_word *v = sb_part_flag(sb_cmd_part(cmd, p), f)->value;
				size_t len;
				const char *raw = v ? sb_word_raw(v, &len) : NULL;
				if (raw && memchr(raw, '/', len))
					used_before_set(c, cmd, v, NULL);
			}
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++) {
			const struct sb_assign *a = sb_cmd_assign(cmd, k);
			size_t len;
			const char *raw = a->value ? sb_word_raw(a->value, &len) : NULL;
			if (raw && memchr(raw, '/', len))
				used_before_set(c, cmd, a->value, a);
		}
	}
}

void sbc_check_hygiene(struct sbc *c)
{
	shebang_not_first_line(c);
	sh_with_bash_syntax(c);
	if (sb_complete(c->m))
		variable_used_before_set(c);
}
