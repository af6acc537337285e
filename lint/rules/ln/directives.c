/* LN000x: the linter's own directives (`# trainforge disable=...`) that
 * cannot be read, name no rule, or suppress nothing. The suppression
 * pass (lint/suppress.c) finds them and reports here. */
#include <stdio.h>

#include "ln.h"

/* LN0003 malformed-directive */
void ln_malformed_directive(struct diag_list *diags, struct source *src, uint32_t line,
			    uint32_t col, uint32_t end_col, const char *what)
{
	diag_add(diags, src, R_LN0003, line, col, line, end_col, "%s", what);
}

/* LN0002 unknown-rule-in-directive */
void ln_unknown_rule_in_directive(struct diag_list *diags, struct source *src, uint32_t line,
				  uint32_t col, uint32_t end_col, const char *id, size_t id_len)
{
	diag_add(diags, src, R_LN0002, line, col, line, end_col,
		 "unknown rule '%.*s' in trainforge directive", (int)id_len, id);
}

static size_t line_start(const struct source *src, size_t at)
{
	while (at > 0 && src->text[at - 1] != '\n')
		at--;
	return at;
}

static size_t content_end(const struct source *src, size_t at)
{
	while (at < src->len && src->text[at] != '\n' && src->text[at] != '\r')
		at++;
	return at;
}

/* The bytes a directive that goes takes with it: its line when the
 * comment was all the line held, else the comment and the blanks before
 * it. A continued command ends at a comment line; an empty line ends it
 * just the same, but deleting the line would join the commands. */
static void removal(struct source *src, uint32_t line, uint32_t col, size_t *from, size_t *to)
{
	size_t hash = source_offset(src, line, col);
	size_t start = line_start(src, hash), end = content_end(src, hash);
	size_t lead = start;
	while (lead < hash && (src->text[lead] == ' ' || src->text[lead] == '\t'))
		lead++;
	bool continued = start >= 2 && src->text[start - 2] == '\\';
	if (lead == hash && !continued) {
		if (end < src->len && src->text[end] == '\r')
			end++;
		if (end < src->len && src->text[end] == '\n')
			end++;
	} else if (lead != hash) {
		start = hash;
		while (start > lead && (src->text[start - 1] == ' ' || src->text[start - 1] == '\t'))
			start--;
		if (start > 0 && src->text[start - 1] == '\\')
			start++; /* keep the escaped space it was */
	} else {
		start = hash;
	}
	*from = start;
	*to = end;
}

/* LN0001 unused-suppression */
void ln_unused_suppression(struct diag_list *diags, struct source *src, uint32_t line,
			   uint32_t col, uint32_t end_col, enum rule_id rule, const char *fix)
{
	struct diag *g = diag_add(diags, src, R_LN0001, line, col, line, end_col,
				  "suppression of %s matches no finding", rule_table[rule].id);
	if (!fix)
		return;
	if (*fix) {
		diag_set_fix(g, fix);
		return;
	}
	size_t from, to;
	removal(src, line, col, &from, &to);
	diag_set_fix_bytes(g, from, to, "");
}
