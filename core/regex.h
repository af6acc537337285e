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

/* A compiled pattern as bytes, for a table made at build time: reading
 * it back (regex_decode) costs a copy where a compile costs thousands of
 * instructions, which is most of what a small config's patterns cost.
 * Free with regex_bytes_free; NULL when PCRE2 cannot encode it. */
unsigned char *regex_encode(const struct regex *re, size_t *len);
void regex_bytes_free(unsigned char *bytes);
/* The pattern the bytes hold, or NULL when this PCRE2 cannot read them
 * (another version than the one that wrote them): compile it then. */
struct regex *regex_decode(const unsigned char *bytes, size_t len);

#endif
