/* PC1004: non-ASCII characters that look like ASCII punctuation. A
 * hyphen pasted from a web page turns `p5-48xlarge` into a string no AWS
 * API knows, and the file still looks right. Comments are left alone. */
#include <string.h>

#include "buf.h"
#include "pcluster.h"
#include "text.h"
#include "xalloc.h"

/* The byte where a comment starts on this line, or len. */
static size_t comment_start(const char *p, size_t len)
{
	char quote = 0;
	for (size_t i = 0; i < len; i++) {
		if (quote) {
			if (p[i] == quote)
				quote = 0;
		} else if (p[i] == '"' || p[i] == '\'') {
			if (i == 0 || strchr(" \t:[{,-", p[i - 1]))
				quote = p[i];
		} else if (p[i] == '#' && (i == 0 || p[i - 1] == ' ' || p[i - 1] == '\t')) {
			return i;
		}
	}
	return len;
}

void pc_check_text(const struct pc *pc)
{
	size_t len;
	const char *p;
	/* look-alikes are non-ASCII: a file without such bytes has none */
	bool any = false;
	for (size_t i = 0; i < pc->src->len && !any; i++)
		any = (unsigned char)pc->src->text[i] >= 0x80;
	for (uint32_t line = 1; any && (p = source_line(pc->src, line, &len)); line++) {
		size_t end = comment_start(p, len);
		uint32_t col = 1;
		for (size_t i = 0; i < end; col++) {
			size_t adv;
			int32_t cp = utf8_decode(p + i, end - i, &adv);
			const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
			if (l) {
				struct diag *d = diag_add(pc->diags, pc->src, R_PC1004, line, col,
							  line, col + 1,
							  "U+%04X (%s) looks like '%s' but is not ASCII",
							  (unsigned)cp, l->name, l->ascii);
				diag_set_help(d, "replace it with '%s'", l->ascii);
				diag_set_fix(d, l->ascii, true);
				yd_node at = yd_at(pc->doc, line, col);
				if (at) {
					struct buf path = BUF_INIT;
					yd_path_json(pc->doc, at, &path);
					d->yaml_path = buf_detach(&path);
				}
			}
			i += adv;
		}
	}
}
