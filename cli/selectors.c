#include "selectors.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool select_one(const char *s, size_t len, bool *mark, bool value)
{
	if (len == 3 && strncasecmp(s, "ALL", 3) == 0) {
		for (int i = 0; i < RULE__COUNT; i++)
			mark[i] = value;
		return true;
	}
	int exact = rule_find(s, len);
	if (exact >= 0) {
		mark[exact] = value;
		return true;
	}
	bool any = false;
	bool prefix = len >= 2 && len < 6 && isalpha((unsigned char)s[0]) &&
		      isalpha((unsigned char)s[1]);
	for (size_t i = 2; prefix && i < len; i++)
		prefix = isdigit((unsigned char)s[i]);
	for (int i = 0; prefix && i < RULE__COUNT; i++)
		if (strncasecmp(rule_table[i].id, s, len) == 0) {
			mark[i] = value;
			any = true;
		}
	return any;
}

bool selectors_apply(const char *list, bool *mark, bool value)
{
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *s = p;
		size_t n = len;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
		if (n && !select_one(s, n, mark, value)) {
			fprintf(stderr, "trainforge: unknown rule selector '%.*s'\n", (int)n, s);
			return false;
		}
		p += len + (p[len] == ',');
	}
	return true;
}
