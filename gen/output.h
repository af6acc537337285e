/* Writing generated files safely: never over an existing file without
 * force, always through a temporary file and a rename, so a reader sees
 * the old file or the new one and never half of one. */
#ifndef TF_OUTPUT_H
#define TF_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

enum output_result {
	OUTPUT_WRITTEN,
	OUTPUT_UNCHANGED,  /* the file already holds exactly this */
	OUTPUT_EXISTS,     /* differs, and force was not given */
	OUTPUT_DRIFT,      /* check mode: differs */
	OUTPUT_MISSING,    /* check mode: not there */
	OUTPUT_FAILED,     /* errno says why */
};

struct buf;
/* dir/name into path, without a doubled slash however dir ends
 * ("out/" and "out" give out/name; "/" gives /name). */
void output_path(struct buf *path, const char *dir, const char *name);
/* Writes text to dir/name (or, with check, only compares). */
enum output_result output_write(const char *dir, const char *name, const char *text,
				size_t len, bool force, bool check);

#endif
