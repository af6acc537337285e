/* LN100x: what the linter finds about an input before any kind's rules
 * can start: bytes that are not text, a file too large or empty, YAML
 * that does not load, a file of no kind. */
#include <string.h>

#include "issues.h"
#include "ln.h"
#include "text.h"

/* LN1004 empty-file */
static void empty_file(struct diag_list *diags, struct source *src)
{
	diag_add(diags, src, R_LN1004, 1, 1, 1, 1, "the file is empty");
}

/* LN1003 binary-file */
static void binary_file(struct diag_list *diags, struct source *src, size_t where)
{
	uint32_t line, col;
	source_locate(src, where, &line, &col);
	diag_add(diags, src, R_LN1003, line, col, line, col + 1,
		 "NUL byte at offset %zu: this is a binary file, not text", where);
}

/* LN1002 invalid-utf8 */
static void invalid_utf8(struct diag_list *diags, struct source *src, size_t where)
{
	uint32_t line, col;
	source_locate(src, where, &line, &col);
	diag_add(diags, src, R_LN1002, line, col, line, col + 1,
		 "invalid UTF-8 byte 0x%02x at offset %zu", (unsigned char)src->text[where], where);
}

bool ln_check_bytes(struct diag_list *diags, struct source *src, bool named)
{
	size_t where;
	enum input_problem p = text_check_input(src->text, src->len, &where);
	if (p == INPUT_OK) {
		size_t i = 0;
		while (i < src->len && strchr(" \t\r\n", src->text[i]))
			i++;
		if (i < src->len)
			return true;
		if (named)
			empty_file(diags, src);
		return false;
	}
	if (!named)
		return false;
	if (p == INPUT_BINARY)
		binary_file(diags, src, where);
	else
		invalid_utf8(diags, src, where);
	return false;
}

/* LN1005 file-too-large */
void ln_file_too_large(struct diag_list *diags, struct source *src, unsigned long long size,
		       size_t limit)
{
	diag_add(diags, src, R_LN1005, 1, 1, 1, 1,
		 "the file is %llu bytes; the limit is %zu bytes", size, limit);
}

/* LN1008 unknown-kind */
void ln_unknown_kind(struct diag_list *diags, struct source *src, const char *why)
{
	diag_add(diags, src, R_LN1008, 1, 1, 1, 1, "%s", why);
}

/* LN1001, LN1006, LN1007 and LN1009 are the loader's issues, mapped in
 * core/report/issues.c with the kinds' duplicate-key rules. */
void ln_yaml_issues(struct diag_list *diags, struct source *src, const yamldoc *doc,
		    enum file_kind kind)
{
	issues_report(diags, src, doc, kind);
}
