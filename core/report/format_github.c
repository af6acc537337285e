/* GitHub Actions workflow commands: one annotation per finding, shown on
 * the pull request's diff. The escapes are the ones @actions/core applies
 * (escapeData and escapeProperty in its command.ts); GitHub decodes them. */
#include <stdbool.h>

#include "format_internal.h"

static void put_escaped(struct buf *b, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': buf_puts(b, "%25"); break;
		case '\r': buf_puts(b, "%0D"); break;
		case '\n': buf_puts(b, "%0A"); break;
		case ':': buf_puts(b, property ? "%3A" : ":"); break;
		case ',': buf_puts(b, property ? "%2C" : ","); break;
		default: buf_putc(b, *s);
		}
	}
}

static const char *const command_of[] = {
	[SEV_INFO] = "notice", [SEV_WARNING] = "warning", [SEV_ERROR] = "error",
};

static void github_line(struct buf *b, const struct diag *d)
{
	char buf[8];
	const char *id = diag_id(d, buf);
	buf_printf(b, "::%s file=", command_of[d->sev]);
	put_escaped(b, d->src->path, true);
	buf_printf(b, ",line=%u", d->line);
	/* GitHub rejects col and endColumn on an annotation over several
	 * lines, so a multi-line range keeps only its lines. */
	bool one_line = d->end_line <= d->line;
	if (one_line)
		buf_printf(b, ",col=%u", d->col);
	buf_printf(b, ",endLine=%u", one_line ? d->line : d->end_line);
	if (one_line)
		buf_printf(b, ",endColumn=%u", d->end_col > d->col ? d->end_col : d->col);
	buf_printf(b, ",title=trainforge %s::", id);
	put_escaped(b, d->src->path, false);
	buf_printf(b, ":%u:%u: ", d->line, d->col);
	put_escaped(b, d->msg, false);
	buf_printf(b, " [%s]\n", id);
}

void format_github(struct buf *b, const struct diag_list *list)
{
	for (size_t i = 0; i < list->len; i++)
		github_line(b, &list->v[i]);
}
