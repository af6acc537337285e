/* SB23xx: the program behind the launcher. When the Python file torchrun
 * (or srun, or python) starts can be read (an input of the run, or the
 * file at the path the script names, beside it), its argparse
 * definitions are held against the flags the script passes: a flag it
 * does not define, a required one missing, a value given to a switch.
 * Megatron's and NeMo's data prefixes are checked by their names. The
 * reader is lint/program (docs/design.md, "Layout"); no Python runs. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "frameworks.h"
#include "pyargs.h"
#include "sb.h"
#include "text.h"

/* "--log-every" and "--log_every" differ only in the separator. */
static bool same_but_separator(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return !*a && !*b;
}

/* The defined flag nearest to a written one: the same but for - and _,
 * else within two edits; NULL when none. */
static const char *nearest_flag(const struct py_args *a, const char *flag)
{
	const char *best = NULL;
	size_t dist = 3, len = strlen(flag);
	for (size_t i = 0; i < a->n; i++)
		for (size_t f = 0; f < a->v[i].n_flags; f++) {
			const char *fl = a->v[i].flags[f];
			if (same_but_separator(fl, flag))
				return fl;
			size_t d = text_edit_distance(flag, len, fl, strlen(fl), 2);
			if (d < dist) {
				dist = d;
				best = fl;
			}
		}
	return best;
}

/* SB2301 unknown-program-flag */
static void unknown_program_flag(struct sbc *c, const struct sb_flag *fl, const struct py_args *a,
				 const char *path)
{
	const char *near = nearest_flag(a, fl->written);
	struct diag *g = sbc_report(c, R_SB2301, sb_word_span(fl->word),
		"%s does not define %s: argparse stops the program (\"unrecognized arguments\") on every node%s%s%s",
		path, fl->written, near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
	if (near)
		diag_set_help(g, "write %s, as %s defines it", near, path);
}

/* What the program is given for a word: its value after quote removal,
 * or as written when it has expansions. */
static const char *refused(const sb_word *v, size_t *len)
{
	const char *value = sb_word_value(v);
	if (!value)
		return sb_word_raw(v, len);
	*len = strlen(value);
	return value;
}

/* SB2303 value-for-switch: store_true and its kind take no value;
 * --flag=value is refused ("ignored explicit argument"), and --flag value
 * leaves value to a program without positionals, which refuses it. */
static void value_for_switch(struct sbc *c, const sb_part *p, const struct sb_flag *fl,
			     const struct py_args *a, const char *path)
{
	const sb_word *v = fl->joined ? fl->value : NULL;
	if (!v && fl->bare_next && !a->positionals && fl->name)
		v = sb_flag_next(p, fl->name);
	if (!v)
		return;
	size_t len;
	const char *raw = refused(v, &len);
	struct diag *g = sbc_report(c, R_SB2303, sb_word_span(v),
		"%s is a switch in %s (it takes no value): argparse refuses '%.*s' and the program stops on every node",
		fl->written, path, (int)len, raw);
	diag_set_help(g, "pass %s alone", fl->written);
}

/* SB2302 missing-required-flag */
static void missing_required_flag(struct sbc *c, const sb_part *p, const struct py_args *a,
				  const char *path)
{
	if (sb_part_opaque_count(p))
		return; /* an expansion may hold it */
	for (size_t i = 0; i < a->n; i++) {
		const struct py_arg *arg = &a->v[i];
		if (!arg->required || !arg->n_flags)
			continue;
		bool given = false;
		for (size_t f = 0; f < sb_part_flag_count(p) && !given; f++) {
			const struct sb_flag *fl = sb_part_flag(p, f);
			bool amb;
			given = py_args_match(a, fl->written, strlen(fl->written), &amb) == arg;
		}
		if (given)
			continue;
		struct diag *g = sbc_report(c, R_SB2302, sb_word_span(sb_part_entry(p)),
			"%s requires %s (required=True, line %u), which the script does not pass: argparse stops the program on every node",
			path, arg->flags[0], arg->line);
		diag_set_help(g, "pass %s", arg->flags[0]);
	}
}

/* SB2305 program-not-read */
static void program_not_read(struct sbc *c, const sb_part *p, const struct py_args *a,
			     const char *path)
{
	struct diag *g = sbc_report(c, R_SB2305, sb_word_span(sb_part_entry(p)),
		"the flags passed to %s are not checked: its command line is built from %s (line %u), which the reader does not follow",
		path, a->why, a->why_line);
	diag_set_help(g, "nothing to do; the other checks ran");
}

static void check_flags(struct sbc *c, const sb_part *p, const struct py_args *a, const char *path)
{
	if (!a->parser && !a->n)
		return; /* not an argparse program */
	if (!a->complete) {
		program_not_read(c, p, a, path);
		return;
	}
	for (size_t f = 0; f < sb_part_flag_count(p); f++) {
		const struct sb_flag *fl = sb_part_flag(p, f);
		if (!fl->written || fl->written[0] != '-' || !strcmp(fl->written, "--") ||
		    (sb_word_flags(fl->word) & SB_W_EXPANSION))
			continue;
		bool ambiguous;
		const struct py_arg *arg = py_args_match(a, fl->written, strlen(fl->written), &ambiguous);
		if (!arg && !ambiguous && !a->known_args)
			unknown_program_flag(c, fl, a, path);
		else if (arg && arg->action == PY_SWITCH)
			value_for_switch(c, p, fl, a, path);
	}
	missing_required_flag(c, p, a, path);
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* A .bin or .idx ending a word of text (space, comma or bracket
 * separated); its length into *n. */
static const char *with_extension(const char *text, size_t *n)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, " \t,[]\"'");
		if (ends_with(p, len, ".bin") || ends_with(p, len, ".idx")) {
			*n = len;
			return p;
		}
		p += len + (p[len] != '\0');
	}
	return NULL;
}

/* The text of a word: its value, or what the variable it names holds. */
static const char *word_text(const struct sbc *c, const sb_word *w, const sb_cmd *cmd)
{
	const char *v = sb_word_value(w);
	struct sb_resolved r;
	if (!v && sb_resolve_word(c->m, w, cmd, &r) == SB_RES_VALUE)
		v = r.value;
	return v;
}

/* Where a word stands on the command line: a spliced word's origin. */
static struct sb_span on_line(const sb_word *w)
{
	const sb_word *o = sb_word_origin(w);
	return sb_word_span(o ? o : w);
}

static void data_prefix_word(struct sbc *c, const sb_word *w, const sb_cmd *cmd, const char *what)
{
	size_t n;
	const char *text = w ? word_text(c, w, cmd) : NULL;
	const char *hit = text ? with_extension(text, &n) : NULL;
	if (!hit)
		return;
	struct diag *g = sbc_report(c, R_SB2304, on_line(w),
		"%s %.*s ends with %.4s: the loader appends .bin and .idx to each prefix itself, so it looks for %.*s.bin and %.*s.idx, which are not there",
		what, (int)n, hit, hit + n - 4, (int)n, hit, (int)n, hit);
	diag_set_help(g, "give the prefix without the extension: %.*s", (int)n - 4, hit);
}

static bool megatron_entry(const char *entry)
{
	const char *base = strrchr(entry, '/');
	base = base ? base + 1 : entry;
	return !strncmp(base, "pretrain_", 9) || strcasestr(entry, "megatron") || strcasestr(entry, "nemo");
}

/* SB2304 data-prefix-with-extension: Megatron's --data-path (and its
 * train/valid/test forms) and NeMo's model.data.data_prefix take
 * prefixes of indexed datasets, to which the loader appends .bin and
 * .idx (docs/frameworks.md, "Megatron-LM"). A prefix list runs from the
 * flag to the next flag. */
static void data_prefix_with_extension(struct sbc *c, const sb_cmd *cmd, const sb_part *p,
				       const char *entry)
{
	static const char *const flags[] = { "data-path", "train-data-path", "valid-data-path",
					     "test-data-path" };
	if (!megatron_entry(entry))
		return;
	for (size_t f = 0; f < sb_part_flag_count(p); f++) {
		const struct sb_flag *fl = sb_part_flag(p, f);
		bool data = false;
		for (size_t k = 0; k < 4 && fl->name; k++)
			data |= !strcmp(fl->name, flags[k]);
		if (!data)
			continue;
		data_prefix_word(c, fl->value, cmd, fl->written);
		size_t from = on_line(fl->word).end, to = SIZE_MAX;
		for (size_t g = 0; g < sb_part_flag_count(p); g++) {
			size_t at = on_line(sb_part_flag(p, g)->word).off;
			if (at >= from && at < to)
				to = at;
		}
		for (size_t a = 0; a < sb_part_arg_count(p); a++) {
			const sb_word *w = sb_part_arg(p, a);
			size_t at = on_line(w).off;
			if (at >= from && at < to)
				data_prefix_word(c, w, cmd, fl->written);
		}
	}
	for (size_t a = 0; a < sb_part_arg_count(p); a++) {
		const sb_word *w = sb_part_arg(p, a);
		const char *text = word_text(c, w, cmd);
		if (text && strstr(text, "data_prefix="))
			data_prefix_word(c, w, cmd, "data_prefix");
	}
}

/* Megatron's entry points share one argument set (frameworks.h, at the
 * target's version); a flag outside the table is reported only as a
 * near miss of one in it, since later Megatron releases add flags. */
static void megatron_flags(struct sbc *c, const sb_part *p)
{
	for (size_t f = 0; f < sb_part_flag_count(p); f++) {
		const struct sb_flag *fl = sb_part_flag(p, f);
		if (!fl->written || strncmp(fl->written, "--", 2) || (sb_word_flags(fl->word) & SB_W_EXPANSION))
			continue;
		size_t ver = target_fw_version(c->target, FW_MEGATRON);
		const struct fw_known_flag *m = fw_known_find(FW_MEGATRON, ver, fl->written, strlen(fl->written));
		if (!m) {
			const struct fw_known_flag *near = fw_known_near(FW_MEGATRON, ver, fl->written);
			if (!near)
				continue;
			struct diag *g = sbc_report(c, R_SB2301, sb_word_span(fl->word),
				"Megatron-LM does not define %s: its argument parser (allow_abbrev=False) stops the program (\"unrecognized arguments\") on every node; did you mean %s?",
				fl->written, near->name);
			diag_set_help(g, "write %s", near->name);
			continue;
		}
		if (!m->is_switch)
			continue;
		const sb_word *v = fl->joined ? fl->value : NULL;
		if (!v && fl->bare_next && fl->name)
			v = sb_flag_next(p, fl->name);
		if (!v || (sb_word_flags(v) & SB_W_EXPANSION))
			continue;
		size_t len;
		const char *raw = refused(v, &len);
		struct diag *g = sbc_report(c, R_SB2303, sb_word_span(v),
			"%s is a switch in Megatron-LM (it takes no value): argparse refuses '%.*s' and the program stops on every node",
			fl->written, (int)len, raw);
		diag_set_help(g, "pass %s alone", fl->written);
	}
}

void sbc_check_program(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_part_count(cmd); k++) {
			const sb_part *p = sb_cmd_part(cmd, k);
			const sb_word *ew = sb_part_kind(p) == SB_PROG_PYTHON ? sb_part_entry(p) : NULL;
			const char *entry = ew ? sb_word_value(ew) : NULL; /* python -c has none */
			size_t n = entry ? strlen(entry) : 0;
			if (!entry || n < 4 || strcmp(entry + n - 3, ".py"))
				continue;
			data_prefix_with_extension(c, cmd, p, entry);
			const char *path = NULL;
			const struct py_args *a = c->programs && c->programs->find
				? c->programs->find(c->programs->ctx, entry, &path) : NULL;
			if (a && (a->parser || a->n))
				check_flags(c, p, a, path);
			else if (megatron_entry(entry) && strstr(entry, "pretrain_"))
				megatron_flags(c, p);
		}
	}
}
