/* PCRE2 patterns compiled once, on first use, and JIT compiled (where
 * available) once they are used often enough to pay for it
 * (TRAINFORGE_NO_JIT=1 turns JIT off, as valgrind needs). */
#ifndef TF_REGEX_H
#define TF_REGEX_H

#include <stdbool.h>
#include <stddef.h>

struct regex;

/* Returns NULL and writes a message into err when the pattern is bad. */
struct regex *regex_new(const char *pattern, size_t len, char *err, size_t errcap);
bool regex_match(struct regex *re, const char *s, size_t len);
void regex_free(struct regex *re);

#endif
