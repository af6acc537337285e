/* Text facts the linter needs everywhere: UTF-8 decoding, columns in
 * code points, edit distance for suggestions, and look-alike characters
 * that silently break configs when pasted from a web page. */
#ifndef TF_TEXT_H
#define TF_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 sequence at s (at most len bytes). Returns the code
 * point and sets *adv to its length, or returns -1 (and *adv = 1) for an
 * invalid, overlong or truncated sequence or a surrogate. */
int32_t utf8_decode(const char *s, size_t len, size_t *adv);
/* Number of code points in s[0..len). */
size_t utf8_count(const char *s, size_t len);
/* Byte offset of 1-based code point column col in a line (clamped). */
size_t utf8_offset_of_col(const char *line, size_t len, uint32_t col);

enum input_problem { INPUT_OK, INPUT_BINARY, INPUT_BAD_UTF8 };
/* Finds why raw bytes cannot be text: a NUL byte makes it binary, an
 * invalid sequence makes it bad UTF-8. *where gets the byte offset. */
enum input_problem text_check_input(const char *s, size_t len, size_t *where);

/* A shell or envsubst variable name: [A-Za-z_][A-Za-z0-9_]*. */
static inline bool text_is_name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static inline bool text_is_name_char(int c)
{
	return text_is_name_start(c) || (c >= '0' && c <= '9');
}

/* FNV-1a of len bytes, for open-addressing tables; seed mixes in a
 * number kept beside the text (a scope), 0 for none. */
static inline uint64_t text_hash(const char *s, size_t len, uint64_t seed)
{
	uint64_t h = 1469598103934665603ull ^ seed;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Levenshtein distance, ASCII case folded; stops early and returns
 * limit + 1 once the distance must exceed limit. */
size_t text_edit_distance(const char *a, size_t alen, const char *b,
			  size_t blen, size_t limit);

struct lookalike {
	int32_t cp;
	const char *ascii;
	const char *name;
};
/* The look-alike entry for code point cp, or NULL. */
const struct lookalike *text_lookalike(int32_t cp);

#endif
