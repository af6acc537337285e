/* Sorting lines in bounded memory: lines go into a buffer of a fixed
 * size; a full buffer is sorted and written to a temporary file (a run,
 * unlinked as soon as it is made, so nothing is left behind whatever
 * happens), and the runs are merged at the end, or into one run when
 * there are sixteen. An import's memory is then the buffer's and
 * sixteen runs' read buffers, whatever the size of the files it reads. */
#ifndef TF_SORTER_H
#define TF_SORTER_H

#include <stdbool.h>
#include <stddef.h>

#define SORTER_MAX_LINE 4096

struct sorter;

/* Runs go to dir (created files are unlinked at once); mem is the
 * buffer's size in bytes. */
struct sorter *sorter_new(const char *dir, size_t mem);
/* Adds a line (no newline in it, at most SORTER_MAX_LINE bytes); false
 * on an error (sorter_error). */
bool sorter_add(struct sorter *s, const char *line, size_t len);
/* Calls emit with every line in bytewise order; false when emit returns
 * false or on an error. The sorter is empty afterwards. */
bool sorter_finish(struct sorter *s, bool (*emit)(const char *line, size_t len, void *ctx), void *ctx);
const char *sorter_error(const struct sorter *s);
/* The runs written so far (0: everything fitted in the buffer). */
size_t sorter_runs(const struct sorter *s);
unsigned long long sorter_lines(const struct sorter *s);
void sorter_free(struct sorter *s);

#endif
