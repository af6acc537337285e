#define PCRE2_CODE_UNIT_WIDTH 8
#include "regex.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

#include "xalloc.h"

/* JIT compiling costs as much as a few hundred interpreted matches of the
 * short patterns a schema has: a pattern is JIT compiled once it has been
 * used this often (a large config), never for the few uses of a small
 * one, whose run is mostly start-up. */
enum { JIT_AFTER = 256 };

struct regex {
	pcre2_code *code;
	unsigned uses;
};

/* One match data for every pattern: a match only says yes or no, and
 * PCRE2 keeps its backtracking frames (20 KiB and up) in the match data,
 * so that one set serves every pattern instead of one set each. Freed
 * with the last pattern. */
static pcre2_match_data *shared_match;
static size_t live;

static bool jit_wanted(void)
{
	const char *v = getenv("TRAINFORGE_NO_JIT");
	return !(v && *v && *v != '0');
}

static struct regex *wrap(pcre2_code *c)
{
	if (!shared_match && !(shared_match = pcre2_match_data_create(1, NULL)))
		xalloc_die();
	struct regex *re = xmalloc(sizeof *re);
	re->code = c;
	re->uses = 0;
	live++;
	return re;
}

struct regex *regex_new(const char *pattern, size_t len, char *err, size_t errcap)
{
	int code;
	PCRE2_SIZE where;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)pattern, len, PCRE2_UTF, &code,
				      &where, NULL);
	if (!c) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		snprintf(err, errcap, "%s at offset %zu", (char *)msg, (size_t)where);
		return NULL;
	}
	return wrap(c);
}

unsigned char *regex_encode(const struct regex *re, size_t *len)
{
	const pcre2_code *codes[1] = { re->code };
	uint8_t *bytes;
	PCRE2_SIZE size;
	if (pcre2_serialize_encode(codes, 1, &bytes, &size, NULL) != 1)
		return NULL;
	*len = size;
	return bytes;
}

void regex_bytes_free(unsigned char *bytes)
{
	pcre2_serialize_free(bytes);
}

struct regex *regex_decode(const unsigned char *bytes, size_t len)
{
	/* the header says how many codes follow and for which PCRE2 build;
	 * decode checks the build, the length is checked here */
	if (len < 16 || pcre2_serialize_get_number_of_codes(bytes) != 1)
		return NULL;
	pcre2_code *c;
	if (pcre2_serialize_decode(&c, 1, bytes, NULL) != 1)
		return NULL;
	return wrap(c);
}

bool regex_match(struct regex *re, const char *s, size_t len)
{
	if (++re->uses == JIT_AFTER && jit_wanted())
		pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE); /* falls back if absent */
	/* >= 0: 0 is a match whose groups the one-pair data cannot hold */
	return pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, shared_match, NULL) >= 0;
}

void regex_free(struct regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re);
	if (--live == 0) {
		pcre2_match_data_free(shared_match);
		shared_match = NULL;
	}
}
