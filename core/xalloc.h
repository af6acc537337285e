/* Allocation that cannot fail: out of memory is handled in one place
 * (xalloc_die), so no caller carries an error path for it. */
#ifndef TF_XALLOC_H
#define TF_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows an array of `*cap` elements of `elem` bytes so that it holds at
 * least `need`; doubling keeps appends amortised O(1). */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t len);
_Noreturn void xalloc_die(void);

#endif
