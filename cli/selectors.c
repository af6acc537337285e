#include "selectors.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"

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
		if (n && !settings_select(s, n, mark, value)) {
			fprintf(stderr, "trainforge: unknown rule selector '%.*s'\n", (int)n, s);
			return false;
		}
		p += len + (p[len] == ',');
	}
	return true;
}
