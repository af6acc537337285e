/* SB0xxx: what sbatch and bash read differently from what the author
 * meant: late #SBATCH lines, lost continuations, backslash-space,
 * look-alike characters, DOS line endings, and text bash or sbatch
 * refuses (the script, a string it runs, an #SBATCH line). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sb.h"
#include "text.h"
#include "xalloc.h"

/* The byte offset where a line starts (the text's end past the last). */
static size_t line_start(struct source *src, uint32_t line)
{
	size_t len;
	const char *p = source_line(src, line, &len);
	return p ? (size_t)(p - src->text) : src->len;
}

/* The text from the first command's line to the last late #SBATCH
 * line, with every late #SBATCH line moved above the rest, in order:
 * what "move them up" writes. Unsafe, since sbatch then obeys them.
 * NULL when a late line holds no #SBATCH at its start (a directive read
 * from elsewhere) or the last line has no newline. */
static char *late_directives_moved(struct sbc *c, uint32_t first, size_t *start, size_t *end)
{
	struct source *src = c->src;
	struct buf moved = BUF_INIT, rest = BUF_INIT;
	*start = line_start(src, first);
	uint32_t last = 0;
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		if (d->after_command && !d->index_on_line && d->line > last)
			last = d->line;
	}
	*end = line_start(src, last + 1);
	bool ok = last >= first && *end > *start && src->text[*end - 1] == '\n';
	for (uint32_t line = first; ok && line <= last; line++) {
		size_t len;
		const char *p = source_line(src, line, &len);
		bool late = false;
		for (size_t i = 0; i < sb_directive_count(c->m) && !late; i++) {
			const struct sb_directive *d = sb_directive_at(c->m, i);
			late = d->after_command && d->line == line;
		}
		ok = !late || (len >= 7 && !memcmp(p, "#SBATCH", 7));
		buf_put(late ? &moved : &rest, p, len);
		buf_putc(late ? &moved : &rest, '\n');
	}
	buf_put(&moved, rest.p ? rest.p : "", rest.len);
	buf_free(&rest);
	if (!ok) {
		buf_free(&moved);
		return NULL;
	}
	return buf_detach(&moved);
}

/* SB0001 directive-after-command */
static void directive_after_command(struct sbc *c)
{
	uint32_t first = sb_first_command_line(c->m);
	char *fix = NULL;
	size_t start = 0, end = 0;
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		if (!d->after_command || d->index_on_line)
			continue;
		struct diag *g = sbc_report(c, R_SB0001, d->span,
			"#SBATCH %s comes after the first command (line %u); sbatch ignores it",
			d->name, first);
		diag_set_help(g, "move every #SBATCH line above the first command");
		if (!fix)
			fix = late_directives_moved(c, first, &start, &end);
		if (fix) /* each finding's fix moves them all: one edit, however many */
			diag_set_fix_bytes(g, start, end, fix);
	}
	free(fix);
}

static bool at_line_end(const struct source *src, size_t at)
{
	return at >= src->len || src->text[at] == '\n' || src->text[at] == '\r';
}

/* The array assignment whose ( ... ) spans line, or NULL: there a
 * newline separates words like a blank, and needs no backslash. */
static const struct sb_assign *array_around(const sb_model *m, uint32_t line)
{
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		if (a->array && a->span.line <= line && line <= a->span.end_line)
			return a;
	}
	return NULL;
}

/* SB0003 backslash-space */
static void backslash_space(struct sbc *c, const struct sb_fact *f)
{
	const struct sb_assign *arr = array_around(c->m, f->span.line);
	bool comment = !at_line_end(c->src, source_offset(c->src, f->span.end_line, f->span.end_col));
	struct diag *g;
	if (arr) {
		g = sbc_report(c, R_SB0003, f->span,
			"inside the array %s, a backslash followed by a space escapes the space and makes a word of it%s",
			arr->name, comment ? ", and the comment after it becomes words of the array too" : "");
		diag_set_help(g, "delete the backslash: inside ( ) a line break needs none");
		diag_set_fix(g, "");
		return;
	}
	g = sbc_report(c, R_SB0003, f->span,
		"a backslash followed by spaces escapes a space; the line does not continue");
	diag_set_help(g, "delete the spaces after the backslash");
	/* before a comment, a backslash would escape its '#' */
	if (!comment)
		diag_set_fix(g, "\\");
}

/* A backslash, blanks and a line break inside quotes, in a word as
 * written: bash keeps the backslash there (in double quotes it escapes
 * only $ ` " \ and a newline; in single quotes nothing). Returns the
 * offset of the backslash in raw, or SIZE_MAX. Command substitutions
 * are parsed as scripts of their own, with their own facts. */
static size_t quoted_backslash_space(const char *raw, size_t len, char *quote)
{
	/* what it looks for spans lines: a word on one line holds none */
	if (!memchr(raw, '\n', len) || !memchr(raw, '\\', len))
		return SIZE_MAX;
	char q = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = raw[i];
		if (q != '\'' && ch == '$' && i + 1 < len && raw[i + 1] == '(') {
			unsigned depth = 0;
			for (; i < len; i++) {
				depth += raw[i] == '(';
				if (raw[i] == ')' && --depth == 0)
					break;
			}
			continue;
		}
		if (!q && (ch == '\'' || ch == '"')) {
			q = ch;
			continue;
		}
		if (q && ch == q) {
			q = 0;
			continue;
		}
		if (ch != '\\')
			continue;
		if (q) {
			size_t k = i + 1;
			while (k < len && (raw[k] == ' ' || raw[k] == '\t'))
				k++;
			if (k > i + 1 && k < len && raw[k] == '\n') {
				*quote = q;
				return i;
			}
		}
		if (q != '\'')
			i++; /* an escaped character */
	}
	return SIZE_MAX;
}

static void quoted_word(struct sbc *c, const sb_word *w)
{
	size_t len;
	const char *raw = w ? sb_word_raw(w, &len) : NULL;
	char q = 0;
	size_t at = raw ? quoted_backslash_space(raw, len, &q) : SIZE_MAX;
	if (at == SIZE_MAX)
		return;
	struct sb_span ws = sb_word_span(w);
	size_t off = ws.off + at, end = off + 1;
	while (end < c->src->len && (c->src->text[end] == ' ' || c->src->text[end] == '\t'))
		end++;
	struct sb_span s = { 0, 0, 0, 0, off, end };
	source_locate(c->src, off, &s.line, &s.col);
	source_locate(c->src, end, &s.end_line, &s.end_col);
	struct diag *g = sbc_report(c, R_SB0003, s,
		"inside %s quotes a backslash followed by spaces is kept: a literal \\ reaches the program (split into words, as its own argument)",
		q == '"' ? "double" : "single");
	diag_set_help(g, "delete the backslash and the spaces: a quoted string may span lines as it is");
	diag_set_fix(g, "");
}

static void quoted_backslashes(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sb_cmd_context(cmd) & (SB_CTX_NESTED | SB_CTX_CMDSUB))
			continue;
		for (size_t w = 0; w < sb_cmd_word_count(cmd); w++)
			if (!(sb_word_flags(sb_cmd_word(cmd, w)) & SB_W_SPLICED))
				quoted_word(c, sb_cmd_word(cmd, w));
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++) {
			const struct sb_assign *a = sb_cmd_assign(cmd, k);
			quoted_word(c, a->value);
			for (size_t e = 0; e < a->n_elems; e++)
				quoted_word(c, a->elems[e]);
		}
	}
}

/* Where ` \` restores the continuation of the line above `line`: after
 * its last byte, when it is plain command text; SIZE_MAX when not. */
static size_t continuation_point(struct source *src, uint32_t line)
{
	size_t len;
	const char *prev = line > 1 ? source_line(src, line - 1, &len) : NULL;
	if (!prev || !len)
		return SIZE_MAX;
	size_t i = 0;
	while (i < len && (prev[i] == ' ' || prev[i] == '\t'))
		i++;
	if (i == len || prev[i] == '#' || prev[len - 1] == '\\')
		return SIZE_MAX;
	for (size_t k = 1; k < len; k++)
		if (prev[k] == '#' && (prev[k - 1] == ' ' || prev[k - 1] == '\t'))
			return SIZE_MAX; /* a comment would swallow the backslash */
	return (size_t)(prev - src->text) + len;
}

/* A line that ends in a backslash and a carriage return: it was meant
 * to continue, and a DOS line ending (SB0007) broke it, not a lost
 * backslash. */
static bool ends_backslash_cr(struct source *src, uint32_t line)
{
	size_t len;
	const char *s = line ? source_line(src, line, &len) : NULL;
	/* source_line leaves the carriage return out */
	return s && len && s[len - 1] == '\\' && s + len < src->text + src->len && s[len] == '\r';
}

static bool ends_cr(struct source *src, uint32_t line)
{
	size_t len;
	const char *s = source_line(src, line, &len);
	return s && s + len < src->text + src->len && s[len] == '\r';
}

/* SB0002 lost-continuation */
static void lost_continuation(struct sbc *c, const struct sb_fact *f)
{
	struct sb_span prev = sb_cmd_span(f->prev);
	/* the line before does continue (after a && or | that ends a
	 * command: [ a && \ then ! -e b ]): no continuation was lost, and
	 * what runs the flag as a command is another mistake (shellcheck's
	 * SC2107 for [ a && b ]) */
	if (ends_backslash_cr(c->src, prev.end_line) || sb_line_continues(c->m, f->span.line - 1))
		return;
	struct diag *g = sbc_report(c, R_SB0002, f->span,
		"this line starts with a flag, but line %u does not end with a backslash: bash runs it as a command of its own",
		prev.end_line);
	diag_set_help(g, "end line %u with ' \\'", prev.end_line);
	size_t at = continuation_point(c->src, g->line);
	if (at != SIZE_MAX)
		diag_set_fix_bytes(g, at, at, " \\");
}

static void continuation_facts(struct sbc *c)
{
	for (size_t i = 0; i < sb_fact_count(c->m); i++) {
		const struct sb_fact *f = sb_fact_at(c->m, i);
		if (f->kind == SB_FACT_BACKSLASH_SPACE)
			backslash_space(c, f);
		else if (f->kind == SB_FACT_LOST_CONTINUATION && f->prev)
			lost_continuation(c, f);
	}
}

/* SB0004 script-non-ascii-lookalike: look-alikes matter where bash or
 * sbatch read them: command words and directives, not comments or
 * here-document text. */
static void script_non_ascii_lookalike(struct sbc *c, const char *raw, size_t len, struct sb_span at)
{
	uint32_t line = at.line, col = at.col;
	for (size_t i = 0; i < len;) {
		size_t adv;
		int32_t cp = utf8_decode(raw + i, len - i, &adv);
		if (raw[i] == '\n') {
			line++;
			col = 1;
			i++;
			continue;
		}
		const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
		if (l) {
			struct sb_span s = { line, col, line, col + 1, 0, 0 };
			struct diag *g = sbc_report(c, R_SB0004, s,
				"U+%04X (%s) looks like '%s' but is not ASCII", (unsigned)cp, l->name, l->ascii);
			diag_set_help(g, "replace it with '%s'", l->ascii);
			diag_set_fix(g, l->ascii);
		}
		col++;
		i += adv;
	}
}

static void lookalikes(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (sb_cmd_context(cmd) & SB_CTX_NESTED)
			continue; /* its words are inside the parent's string, seen there */
		for (size_t w = 0; w < sb_cmd_word_count(cmd); w++) {
			size_t len;
			const char *raw = sb_word_raw(sb_cmd_word(cmd, w), &len);
			script_non_ascii_lookalike(c, raw, len, sb_word_span(sb_cmd_word(cmd, w)));
		}
	}
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		struct sb_span s = d->span;
		if (s.end_line != s.line || s.end > c->src->len || s.off > s.end)
			continue;
		script_non_ascii_lookalike(c, c->src->text + s.off, s.end - s.off, s);
	}
}

/* SB0005 script-parse-problem */
static void script_parse_problem(struct sbc *c)
{
	for (size_t i = 0; i < sb_problem_count(c->m); i++) {
		const struct sb_problem *p = sb_problem_at(c->m, i);
		if (p->scope != SB_SCOPE_SCRIPT || p->kind == SB_PROB_HEREDOC_UNTERMINATED)
			continue;
		struct diag *g = sbc_report(c, R_SB0005, p->span, "%s", p->msg);
		if (ends_cr(c->src, p->span.line))
			diag_set_help(g, "the line ends in a carriage return, which bash reads as part of its last word (DOS line endings: SB0007)");
		else
			diag_set_help(g, "bash refuses the whole script; the statements around this one were checked");
	}
}

/* SB0006 heredoc-unterminated */
static void heredoc_unterminated(struct sbc *c)
{
	for (size_t i = 0; i < sb_problem_count(c->m); i++) {
		const struct sb_problem *p = sb_problem_at(c->m, i);
		if (p->scope != SB_SCOPE_SCRIPT || p->kind != SB_PROB_HEREDOC_UNTERMINATED)
			continue;
		struct diag *g = sbc_report(c, R_SB0006, p->span,
			"this here-document's delimiter line never comes: bash reads the rest of the file as its text");
		diag_set_help(g, "end it with a line holding only the delimiter (tabs before it only with <<-)");
	}
}

/* SB0008 string-parse-problem */
static void string_parse_problem(struct sbc *c)
{
	for (size_t i = 0; i < sb_problem_count(c->m); i++) {
		const struct sb_problem *p = sb_problem_at(c->m, i);
		if (p->scope != SB_SCOPE_STRING || p->kind == SB_PROB_HEREDOC_UNTERMINATED)
			continue;
		struct diag *g = sbc_report(c, R_SB0008, p->span,
			"%s, in text bash parses only when it runs it", p->msg);
		diag_set_help(g, "the command fails when it runs; fix the string's shell syntax");
	}
}

/* SB0009 directive-unmatched-quote */
static void directive_unmatched_quote(struct sbc *c)
{
	for (size_t i = 0; i < sb_problem_count(c->m); i++) {
		const struct sb_problem *p = sb_problem_at(c->m, i);
		if (p->scope == SB_SCOPE_DIRECTIVE)
			sbc_report(c, R_SB0009, p->span, "%s", p->msg);
	}
}

/* SB0007 dos-line-endings: one finding for the file, its fix the text
 * between the first and the last carriage return without them. */
static void dos_line_endings(struct sbc *c)
{
	const char *s = c->src->text;
	size_t n = c->src->len, first = SIZE_MAX, last = 0, lines = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\r' || s[i + 1] != '\n')
			continue;
		if (first == SIZE_MAX)
			first = i;
		last = i;
		lines++;
	}
	if (!lines)
		return;
	uint32_t line, col;
	source_locate(c->src, first, &line, &col);
	struct sb_span at = { line, col, line, col + 1, first, first + 1 };
	struct diag *g = sbc_report(c, R_SB0007, at,
		"the file has DOS line endings (CRLF, %zu line%s): sbatch refuses it", lines,
		lines == 1 ? "" : "s");
	diag_set_help(g, "save it with Unix line endings (dos2unix)");
	char *fixed = xmalloc(last - first + 1);
	size_t k = 0;
	for (size_t i = first; i <= last; i++)
		if (s[i] != '\r' || s[i + 1] != '\n')
			fixed[k++] = s[i];
	fixed[k] = '\0';
	diag_set_fix_bytes(g, first, last + 1, fixed);
	free(fixed);
}

void sbc_check_text(struct sbc *c)
{
	directive_after_command(c);
	continuation_facts(c);
	quoted_backslashes(c);
	lookalikes(c);
	script_parse_problem(c);
	heredoc_unterminated(c);
	string_parse_problem(c);
	directive_unmatched_quote(c);
	dos_line_endings(c);
}
