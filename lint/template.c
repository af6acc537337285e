/* Template tags in batch scripts (docs/design.md, "Kinds"): a Jinja or
 * Mustache tag ({{ nodes }}, {% if efa %}, {# note #}, {{{ raw }}}) is
 * not shell until it is rendered, and what it renders to is unknown; so
 * is a hand-written placeholder (<YOUR_RUN_NAME>, <SLURM OPTIONS>,
 * RELION's XXXqueueXXX, and on an #SBATCH line { partition } or
 * {$results_dir}). The
 * script model and shellcheck read a copy of the text in which each tag
 * is a word of unknown value, ${___} as long as the tag, so that every
 * byte offset, line and column stays the file's own; a statement or
 * comment tag alone on its line is a comment there. A finding that
 * starts inside a tag is about the stand-in, not the file, and is
 * dropped: checks that need a tag's value stay silent, and a tag is
 * never a syntax error. */
#include <stdlib.h>
#include <string.h>

#include "lint_internal.h"
#include "xalloc.h"

struct lint_template {
	char *text;      /* the other text: the masked one until swapped in */
	size_t *tags;    /* byte ranges [tags[2k], tags[2k + 1]) */
	size_t n, cap;
	bool swapped;
};

/* The closer of a tag that opens at p, or NULL: {{{ }}}, {{ }}, {% %}
 * and {# #}. ${#x} and ${%...} are bash's, not tags. */
static const char *closer(const char *text, const char *p, const char *end)
{
	if (end - p < 4 || p[0] != '{')
		return NULL;
	if (end - p >= 6 && p[1] == '{' && p[2] == '{')
		return "}}}";
	if (p[1] == '{')
		return "}}";
	if (p > text && p[-1] == '$')
		return NULL;
	return p[1] == '%' ? "%}" : p[1] == '#' ? "#}" : NULL;
}

/* Where the tag opening at p ends (past its closer), on the same line,
 * or NULL when it is not closed there. */
static const char *tag_end(const char *p, const char *line_end, const char *close)
{
	size_t n = strlen(close);
	for (const char *q = p + 2; q + n <= line_end; q++)
		if (!memcmp(q, close, n))
			return q + n;
	return NULL;
}

/* A tag that renders no text: a Jinja statement or comment, a Mustache
 * section, inverted section, end, comment or partial. */
static bool statement_tag(const char *p)
{
	return p[1] == '%' || p[1] == '#' ||
	       (p[1] == '{' && p[2] != '\0' && strchr("#/^!>", p[2]));
}

static bool blank_between(const char *from, const char *to)
{
	for (; from < to; from++)
		if (*from != ' ' && *from != '\t' && *from != '\r')
			return false;
	return true;
}

/* The stand-in of text[0..len): ${___}, or, when the tag holds other
 * than ASCII, '_é_' (a literal as many code points long); a lone
 * statement tag is a comment. */
static void mask(char *t, size_t len, bool comment)
{
	bool ascii = true;
	for (size_t i = 0; i < len; i++) {
		ascii &= (unsigned char)t[i] < 0x80;
		if ((unsigned char)t[i] < 0x80 || comment)
			t[i] = comment ? ' ' : '_';
	}
	if (comment) {
		t[0] = '#';
	} else if (ascii) {
		t[0] = '$', t[1] = '{', t[len - 1] = '}';
	} else {
		t[0] = '\'', t[len - 1] = '\'';
	}
}

static void add_tag(struct lint_template *tp, size_t start, size_t end)
{
	tp->tags = xgrow(tp->tags, &tp->cap, tp->n * 2 + 2, sizeof *tp->tags);
	tp->tags[tp->n * 2] = start;
	tp->tags[tp->n * 2 + 1] = end;
	tp->n++;
}

/* Masks the tags of the line [p, line_end) of text in the copy, at the
 * same offsets, and records them. */
static void mask_line(struct lint_template *tp, const char *text, const char *p,
		      const char *line_end)
{
	const char *line = p;
	while ((p = memchr(p, '{', (size_t)(line_end - p))) != NULL) {
		const char *close = closer(text, p, line_end);
		const char *end = close ? tag_end(p, line_end, close) : NULL;
		if (!end) {
			p++;
			continue;
		}
		const char *start = p > line && p[-1] == '$' ? p - 1 : p;
		bool alone = statement_tag(p) && blank_between(line, start) &&
			     blank_between(end, line_end);
		mask(tp->text + (start - text), (size_t)(end - start), alone);
		add_tag(tp, (size_t)(start - text), (size_t)(end - text));
		p = end;
	}
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* <TEXT IN ANGLES> at p: a letter first, then letters, digits, _ - and
 * inner spaces (on an #SBATCH line also . : /), and after the > the end
 * of the word: <YOUR_RUN_NAME>, <SLURM OPTIONS>, <hf-token>. bash would
 * read < as a redirection; the script means a value to fill in. What a
 * command's redirections look like is not one: <in>out, <logs/x.log
 * 1>&2. Its end, or NULL. */
static const char *angle_end(const char *text, const char *p, const char *line_end, bool directive)
{
	if (p > text && (p[-1] == '<' || p[-1] == '$' || name_char(p[-1])))
		return NULL; /* <<EOF, <(...), $<, a<b */
	const char *q = p + 1;
	if (q >= line_end || !((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')))
		return NULL;
	const char *word = q; /* the last word inside */
	for (; q < line_end && *q != '>'; q++) {
		if (!(name_char(*q) || strchr(directive ? " -.:/" : " -", *q)) || q - p > 64)
			return NULL;
		if (*q == ' ')
			word = q + 1;
	}
	if (q >= line_end || q[-1] == ' ')
		return NULL;
	if (strspn(word, "0123456789") == (size_t)(q - word))
		return NULL; /* <in 2>: a file descriptor's redirection */
	if (q + 1 < line_end && !strchr(" \t\r\"';)", q[1]))
		return NULL;
	return q + 1;
}

/* A word holding XXXname XXX (RELION's template: XXXqueueXXX) at p, a
 * word start; its end, or NULL. */
static const char *xxx_end(const char *p, const char *line_end)
{
	const char *q = p;
	while (q < line_end && name_char(*q))
		q++;
	if (q - p < 7)
		return NULL;
	const char *first = memmem(p, (size_t)(q - p), "XXX", 3);
	if (!first)
		return NULL;
	const char *second = memmem(first + 3, (size_t)(q - first - 3), "XXX", 3);
	return second && second > first + 3 ? q : NULL;
}

/* On an #SBATCH line: {name}, { name } or {$name} (a value someone
 * fills in before sbatch reads it); its end, or NULL. */
static const char *brace_end(const char *p, const char *line_end)
{
	const char *q = p + 1;
	while (q < line_end && *q == ' ')
		q++;
	if (q < line_end && *q == '$')
		q++;
	const char *name = q;
	while (q < line_end && (name_char(*q) || *q == '-' || *q == '.'))
		q++;
	if (q == name)
		return NULL;
	while (q < line_end && *q == ' ')
		q++;
	return q < line_end && *q == '}' ? q + 1 : NULL;
}

/* The hand-written placeholders of a line, after its tags. */
static void mask_placeholders(struct lint_template *tp, const char *text, const char *p,
			      const char *line_end)
{
	const char *line = p;
	bool directive = line_end - p >= 7 && !memcmp(p, "#SBATCH", 7);
	const char *first = p;
	while (first < line_end && (*first == ' ' || *first == '\t'))
		first++;
	if (first < line_end && *first == '#' && !directive)
		return; /* a comment: a usage line's <NODES> is prose */
	for (; p < line_end; p++) {
		if (lint_template_covers(tp, (size_t)(p - text)))
			continue;
		const char *end = NULL;
		if (*p == '<')
			end = angle_end(text, p, line_end, directive);
		else if (*p == 'X' && (p == line || !name_char(p[-1])))
			end = xxx_end(p, line_end);
		else if (*p == '{' && directive)
			end = brace_end(p, line_end);
		else if (name_char(*p) && (p == line || !name_char(p[-1])))
			end = xxx_end(p, line_end);
		if (!end)
			continue;
		mask(tp->text + (p - text), (size_t)(end - p), false);
		add_tag(tp, (size_t)(p - text), (size_t)(end - text));
		p = end - 1;
	}
}

struct lint_template *lint_template_new(const struct source *src)
{
	const char *text = src->text, *end = text + src->len;
	if (!memchr(text, '{', src->len) && !memchr(text, '<', src->len) &&
	    !memmem(text, src->len, "XXX", 3))
		return NULL;
	struct lint_template *tp = xcalloc(1, sizeof *tp);
	tp->text = xmalloc(src->len + 1);
	memcpy(tp->text, text, src->len + 1);
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		mask_line(tp, text, p, line_end);
		mask_placeholders(tp, text, p, line_end);
		p = nl ? nl + 1 : end;
	}
	if (tp->n == 0) {
		lint_template_free(tp);
		return NULL;
	}
	return tp;
}

void lint_template_free(struct lint_template *tp)
{
	if (!tp)
		return;
	free(tp->text);
	free(tp->tags);
	free(tp);
}

void lint_template_swap(struct lint_template *tp, struct source *src)
{
	if (!tp)
		return;
	char *t = src->text;
	src->text = tp->text;
	tp->text = t;
	tp->swapped = !tp->swapped;
}

size_t lint_template_count(const struct lint_template *tp)
{
	return tp ? tp->n : 0;
}

void lint_template_at(const struct lint_template *tp, size_t i, size_t *start, size_t *end)
{
	*start = tp->tags[2 * i];
	*end = tp->tags[2 * i + 1];
}

bool lint_template_covers(const struct lint_template *tp, size_t offset)
{
	for (size_t k = 0; tp && k < tp->n; k++)
		if (offset >= tp->tags[2 * k] && offset < tp->tags[2 * k + 1])
			return true;
	return false;
}
