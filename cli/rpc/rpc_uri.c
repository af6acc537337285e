/* file URIs, as editors and assistants name files and folders (RFC 8089):
 * file:///path, file://localhost/path and file:/path, percent-encoded. */
#include <string.h>

#include "rpc.h"

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

void uri_decode(const char *p, struct buf *out)
{
	for (; *p && *p != '?' && *p != '#'; p++) {
		int hi, lo;
		if (*p == '%' && (hi = hexval(p[1])) >= 0 && (lo = hexval(p[2])) >= 0 && (hi | lo)) {
			buf_putc(out, (char)(hi << 4 | lo));
			p += 2;
		} else {
			buf_putc(out, *p);
		}
	}
}

char *uri_file_path(const char *uri)
{
	const char *p;
	if (strncmp(uri, "file://", 7) == 0) {
		p = uri + 7;
		if (strncmp(p, "localhost/", 10) == 0)
			p += 9;
		else if (*p != '/')
			return NULL; /* another host's file */
	} else if (strncmp(uri, "file:/", 6) == 0) {
		p = uri + 5;
	} else {
		return NULL;
	}
	struct buf b = BUF_INIT;
	uri_decode(p, &b);
	if (!b.len || memchr(b.p, '\0', b.len)) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}
