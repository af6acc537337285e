/* Checkstyle 4.3 XML, the format Jenkins' warnings plugin, reviewdog and
 * many CI dashboards read: one <file> per path, one <error> per finding. */
#include <string.h>

#include "format_internal.h"
#include "text.h"

/* XML 1.0 cannot hold most C0 controls, U+FFFE or U+FFFF even as
 * character references, nor bytes that are not UTF-8: those become
 * U+FFFD. Tab, LF and CR are written as references so that attribute
 * normalisation does not turn them into spaces. */
static void put_xml_attr(struct buf *b, const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		size_t adv;
		int32_t cp = utf8_decode(s + i, len - i, &adv);
		switch (cp) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&apos;"); break;
		case '\t': buf_puts(b, "&#9;"); break;
		case '\n': buf_puts(b, "&#10;"); break;
		case '\r': buf_puts(b, "&#13;"); break;
		default:
			if (cp < 0x20 || cp == 0xfffe || cp == 0xffff)
				buf_puts(b, "\xef\xbf\xbd");
			else
				buf_put(b, s + i, adv);
		}
		i += adv;
	}
}

static const char *const severity_of[] = {
	[SEV_INFO] = "info", [SEV_WARNING] = "warning", [SEV_ERROR] = "error",
};

void format_checkstyle(struct buf *b, const struct diag_list *list)
{
	buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<checkstyle version=\"4.3\">\n");
	/* The list is sorted by path, so each path's findings are adjacent. */
	for (size_t i = 0; i < list->len; i++) {
		const struct diag *d = &list->v[i];
		const char *path = d->src->path;
		if (i == 0 || strcmp(path, list->v[i - 1].src->path) != 0) {
			buf_puts(b, "  <file name=\"");
			put_xml_attr(b, path);
			buf_puts(b, "\">\n");
		}
		buf_printf(b, "    <error line=\"%u\" column=\"%u\" severity=\"%s\" message=\"",
			   d->line, d->col, severity_of[d->sev]);
		put_xml_attr(b, d->msg);
		char id[8];
		buf_printf(b, "\" source=\"trainforge.%s\"/>\n", diag_id(d, id));
		if (i + 1 == list->len || strcmp(path, list->v[i + 1].src->path) != 0)
			buf_puts(b, "  </file>\n");
	}
	buf_puts(b, "</checkstyle>\n");
}
