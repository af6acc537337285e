/* Release numbers: parse, compare, print. */
#include "version.h"

#include <stdio.h>

/* One number of a version: 1 to 3 digits, 0..254. */
static bool read_part(const char *s, size_t len, size_t *pos, unsigned char *out)
{
	size_t start = *pos;
	unsigned v = 0;
	while (*pos < len && s[*pos] >= '0' && s[*pos] <= '9' && *pos - start < 3)
		v = v * 10 + (unsigned)(s[(*pos)++] - '0');
	if (*pos == start || v > 254 || (*pos < len && s[*pos] >= '0' && s[*pos] <= '9'))
		return false;
	*out = (unsigned char)v;
	return true;
}

bool version_parse(const char *s, size_t len, struct version *out)
{
	struct version v = { 0, 0, 0, true };
	size_t pos = 0;
	if (!s || !read_part(s, len, &pos, &v.major) || pos >= len || s[pos++] != '.' ||
	    !read_part(s, len, &pos, &v.minor))
		return false;
	if (pos < len) {
		if (s[pos++] != '.' || !read_part(s, len, &pos, &v.patch) || pos != len)
			return false;
		v.line = false;
	}
	if (!version_is_set(v))
		return false; /* 0.0 would read as "no version" */
	*out = v;
	return true;
}

int version_cmp(struct version a, struct version b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.line || b.line)
		return a.line - b.line;
	return (a.patch > b.patch) - (a.patch < b.patch);
}

bool version_is_set(struct version v)
{
	return v.major || v.minor || v.patch;
}

bool version_same_line(struct version a, struct version b)
{
	return a.major == b.major && a.minor == b.minor;
}

struct version version_line_of(struct version v)
{
	v.patch = 0;
	v.line = true;
	return v;
}

static struct version_text print(struct version v, unsigned minor_digits, bool patch)
{
	struct version_text t;
	if (!version_is_set(v))
		snprintf(t.s, sizeof t.s, "none");
	else if (patch)
		snprintf(t.s, sizeof t.s, "%u.%0*u.%u", v.major, (int)minor_digits, v.minor, v.patch);
	else
		snprintf(t.s, sizeof t.s, "%u.%0*u", v.major, (int)minor_digits, v.minor);
	return t;
}

struct version_text version_text(struct version v, unsigned minor_digits)
{
	return print(v, minor_digits, !v.line);
}

struct version_text version_release_text(struct version v, unsigned minor_digits)
{
	return print(v, minor_digits, !v.line && v.patch);
}
