/* A pull scanner of JSON (RFC 8259) that holds one token at a time: the
 * price importers read files of gigabytes with it, in memory that does
 * not grow with the file (docs/prices.md). Strict: what json.loads and
 * the AWS CLI accept, nothing more (no comments, no trailing commas);
 * strings come back decoded as UTF-8, numbers as their text. Bounded:
 * nesting deeper than JSON_MAX_DEPTH and a string or number longer than
 * JSON_MAX_TOKEN are errors, never a crash or unbounded memory. */
#ifndef TF_JSONSCAN_H
#define TF_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 64
#define JSON_MAX_TOKEN (8u << 20)

enum json_tok {
	JT_ERROR, JT_END, JT_OBJECT, JT_OBJECT_END, JT_ARRAY, JT_ARRAY_END,
	JT_KEY, JT_STRING, JT_NUMBER, JT_TRUE, JT_FALSE, JT_NULL,
};

struct json_scan;

/* Reads fd (from its current offset) or, with fd < 0, the len bytes at
 * text (not copied: they outlive the scanner). */
struct json_scan *json_scan_fd(int fd);
struct json_scan *json_scan_mem(const char *text, size_t len);
void json_scan_free(struct json_scan *s);

/* The next token; JT_END after the one top-level value (and nothing but
 * white space after it), JT_ERROR on anything else (json_error says
 * what; every later call returns JT_ERROR). */
enum json_tok json_next(struct json_scan *s);
/* The text of the last KEY, STRING or NUMBER (NUL-ended; strings may
 * hold NUL bytes, len counts them). Valid until the next call. */
const char *json_text(const struct json_scan *s, size_t *len);
/* Where the last token started: 1-based line and column (bytes). */
unsigned long json_line(const struct json_scan *s);
unsigned long json_col(const struct json_scan *s);
const char *json_error(const struct json_scan *s);
/* Makes the scanner fail with msg at the last token (an importer's
 * "expected a string" goes through here, so one place reports). */
enum json_tok json_fail(struct json_scan *s, const char *msg);
/* Skips the rest of a value whose first token was tok (for an OBJECT or
 * ARRAY, up to its end); false on an error. */
bool json_skip(struct json_scan *s, enum json_tok tok);
/* The next token as a value: true when it is a string (or, with
 * numbers, a number), whose text is then in json_text; any other value
 * is skipped and false returned, with json_error set only on an error. */
bool json_string_value(struct json_scan *s, bool numbers);
/* Rewinds an fd scanner to the start of its input (a second pass);
 * false when the input cannot seek. */
bool json_rewind(struct json_scan *s);
/* Bytes consumed so far. */
unsigned long long json_offset(const struct json_scan *s);

#endif
