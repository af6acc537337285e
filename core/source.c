#include "source.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "xalloc.h"

struct source *source_new(const char *path, char *text, size_t len)
{
	struct source *src = xcalloc(1, sizeof *src);
	src->path = xstrdup(path);
	src->text = text;
	src->len = len;
	src->text[len] = '\0';
	return src;
}

void source_free(struct source *src)
{
	if (!src)
		return;
	free(src->path);
	free(src->text);
	free(src->lines);
	free(src);
}

static void source_map_lines(struct source *src)
{
	if (src->lines)
		return;
	size_t cap = 0, n = 0;
	uint32_t *v = NULL;
	v = xgrow(v, &cap, 1, sizeof *v);
	/* a byte-order mark is not part of line 1: columns start after it,
	 * as editors and the YAML loader count them */
	v[n++] = src->len >= 3 && memcmp(src->text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (size_t i = 0; i < src->len; i++) {
		if (src->text[i] == '\n' && i + 1 < src->len) {
			v = xgrow(v, &cap, n + 1, sizeof *v);
			v[n++] = (uint32_t)(i + 1);
		}
	}
	src->lines = v;
	src->n_lines = n;
}

const char *source_line(struct source *src, uint32_t line, size_t *len)
{
	source_map_lines(src);
	if (line == 0 || line > src->n_lines)
		return NULL;
	size_t start = src->lines[line - 1];
	size_t end = line < src->n_lines ? src->lines[line] : src->len;
	while (end > start && (src->text[end - 1] == '\n' ||
			       src->text[end - 1] == '\r'))
		end--;
	*len = end - start;
	return src->text + start;
}

void source_locate(struct source *src, size_t offset, uint32_t *line,
		   uint32_t *col)
{
	source_map_lines(src);
	size_t lo = 0, hi = src->n_lines;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (src->lines[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	*line = (uint32_t)lo + 1;
	if (offset < src->lines[lo])
		offset = src->lines[lo]; /* inside the byte-order mark */
	*col = (uint32_t)utf8_count(src->text + src->lines[lo],
				    offset - src->lines[lo]) + 1;
}

size_t source_offset(struct source *src, uint32_t line, uint32_t col)
{
	size_t len;
	const char *p = source_line(src, line, &len);
	if (!p)
		return src->len;
	return (size_t)(p - src->text) + utf8_offset_of_col(p, len, col);
}

const char *file_kind_name(enum file_kind kind)
{
	static const char *const names[] = {
		[KIND_PCLUSTER] = "pcluster", [KIND_JOBSPEC] = "jobspec", [KIND_SBATCH] = "sbatch",
		[KIND_SETTINGS] = "settings",
	};
	return kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}
