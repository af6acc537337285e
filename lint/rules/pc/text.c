/* PC1004: non-ASCII characters that look like ASCII punctuation. A
 * hyphen pasted from a web page turns `p5-48xlarge` into a string no AWS
 * API knows, and the file still looks right. Comments are left alone. */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "pc.h"
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

/* Whether any byte is outside ASCII, eight at a time: most configs are
 * pure ASCII, and a large one is scanned on every run. */
static bool has_non_ascii(const char *p, size_t len)
{
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t word;
		memcpy(&word, p + i, 8);
		if (word & UINT64_C(0x8080808080808080))
			return true;
	}
	for (; i < len; i++)
		if ((unsigned char)p[i] >= 0x80)
			return true;
	return false;
}

void pc_check_text(const struct pc *pc)
{
	size_t len;
	const char *p;
	/* look-alikes are non-ASCII: a file without such bytes has none */
	bool any = has_non_ascii(pc->cl->src->text, pc->cl->src->len);
	for (uint32_t line = 1; any && (p = source_line(pc->cl->src, line, &len)); line++) {
		size_t end = comment_start(p, len);
		uint32_t col = 1;
		for (size_t i = 0; i < end; col++) {
			size_t adv;
			int32_t cp = utf8_decode(p + i, end - i, &adv);
			const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
			if (l) {
				struct diag *d = diag_add(pc->diags, pc->cl->src, R_PC1004, line, col,
							  line, col + 1,
							  "U+%04X (%s) looks like '%s' but is not ASCII",
							  (unsigned)cp, l->name, l->ascii);
				diag_set_help(d, "replace it with '%s'", l->ascii);
				diag_set_fix(d, l->ascii, true);
				yd_node at = yd_at(pc->cl->doc, line, col);
				if (at) {
					struct buf path = BUF_INIT;
					yd_path_json(pc->cl->doc, at, &path);
					d->yaml_path = buf_detach(&path);
				}
			}
			i += adv;
		}
	}
}
