/* Delta debugging: shrinks a text while a predicate holds, by lines,
 * then by blank-separated tokens, then by characters. */
#ifndef TF_DIFFBASH_MINIMISE_H
#define TF_DIFFBASH_MINIMISE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* True when text still shows what is being minimised. */
typedef bool (*dbm_pred)(void *ctx, const char *text, size_t len);

/* Shrinks *text in place; the first `keep` bytes (a shebang line) are
 * never removed. At most `budget` predicate calls. Returns the calls
 * made. */
unsigned dbm_minimise(struct buf *text, size_t keep, dbm_pred pred, void *ctx, unsigned budget);

#endif
