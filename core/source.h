/* One input file held in memory: its display path, its bytes, its kind
 * and a line map that is built only when a finding needs a line. */
#ifndef TF_SOURCE_H
#define TF_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* What a file is, once classified (KIND_AUTO: not decided, or --kind
 * auto on the command line; KIND_UNKNOWN: none of the kinds). */
enum file_kind { KIND_AUTO, KIND_PCLUSTER, KIND_JOBSPEC, KIND_SBATCH, KIND_UNKNOWN,
		 KIND_SETTINGS /* .trainforge.yaml */ };

struct source {
	char *path;        /* as shown to the user */
	char *text;        /* NUL-terminated; len excludes the NUL */
	size_t len;
	enum file_kind kind;
	uint32_t *lines;   /* byte offset of each line start, lazily */
	size_t n_lines;
};

/* Takes ownership of text (which must have room for a NUL at len). */
struct source *source_new(const char *path, char *text, size_t len);
void source_free(struct source *src);
/* "pcluster", "jobspec" or "sbatch"; NULL for no kind. */
const char *file_kind_name(enum file_kind kind);
/* Line `line` (1-based) without its newline, or NULL past the end. */
const char *source_line(struct source *src, uint32_t line, size_t *len);
/* 1-based line and code-point column of a byte offset. */
void source_locate(struct source *src, size_t offset, uint32_t *line,
		   uint32_t *col);
/* Byte offset of a 1-based line and code-point column. */
size_t source_offset(struct source *src, uint32_t line, uint32_t col);

#endif
