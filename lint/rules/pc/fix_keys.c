/* Fixes that add keys to a block mapping of a cluster config, as a
 * person would type them: new lines at the mapping's own indentation,
 * the rest of the file untouched. They go above the mapping's first key
 * when it starts its line, or below it when it opens a list item (`-
 * Name: train`) and its value ends on that line; a flow mapping
 * ({...}) gets no fix. */
#include <string.h>

#include "buf.h"
#include "pc.h"

/* Whether only blanks come before byte `at` on its line. */
static bool starts_line(const struct source *src, size_t at)
{
	while (at > 0 && src->text[at - 1] != '\n') {
		if (src->text[at - 1] != ' ')
			return false;
		at--;
	}
	return true;
}

static size_t next_line(const struct source *src, size_t at)
{
	const char *nl = memchr(src->text + at, '\n', src->len - at);
	return nl ? (size_t)(nl - src->text) + 1 : src->len;
}

bool pc_fix_add_keys(struct diag *g, const yamldoc *d, yd_node map, const char *lines)
{
	struct source *src = g->src;
	if (yd_kind(d, map) != YD_MAPPING || !yd_len(d, map))
		return false;
	yd_node key = yd_key(d, map, 0);
	struct yd_span ks = yd_span(d, key), vs = yd_span(d, yd_value(d, map, 0));
	size_t key_at = source_offset(src, ks.line, ks.col);
	size_t at;
	if (starts_line(src, key_at))
		at = key_at - (ks.col - 1);
	else if (ks.col >= 3 && key_at >= 2 && !memcmp(src->text + key_at - 2, "- ", 2) &&
		 starts_line(src, key_at - 2) && vs.end_line == ks.line)
		at = next_line(src, key_at);
	else
		return false; /* a flow mapping, or a key after another on its line */
	if (at >= src->len && src->len && src->text[src->len - 1] != '\n')
		return false;
	struct buf b = BUF_INIT;
	for (const char *p = lines; *p;) {
		size_t n = strcspn(p, "\n");
		buf_printf(&b, "%*s%.*s\n", (int)(ks.col - 1), "", (int)n, p);
		p += n + (p[n] == '\n');
	}
	diag_set_fix_bytes(g, at, at, b.p);
	buf_free(&b);
	return true;
}
