#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "text.h"

void esc_none(struct buf *out, const char *s, size_t len)
{
	buf_put(out, s, len);
}

/* Runs of bytes that need nothing are copied in one call; only bytes
 * with an entry in the table are replaced. */
void esc_html(struct buf *out, const char *s, size_t len)
{
	static const char *const entity[256] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;",
	};
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		const char *e = entity[(unsigned char)s[i]];
		if (!e)
			continue;
		buf_put(out, s + run, i - run);
		buf_puts(out, e);
		run = i + 1;
	}
	buf_put(out, s + run, len - run);
}

/* Short escapes YAML 1.1 and 1.2 share (libyaml and PyYAML both read
 * them); other ASCII controls become \xNN. */
static const char *const yaml_short[128] = {
	['\\'] = "\\\\", ['"'] = "\\\"", ['\n'] = "\\n",
	['\t'] = "\\t",  ['\r'] = "\\r",
};

/* Code points YAML does not allow verbatim in a stream (outside its
 * printable set) or that a reader treats as a line break or a byte
 * order mark, which would change the scalar when read back. */
static bool yaml_needs_escape(int32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
	       cp == 0x2028 || cp == 0x2029 || cp == 0xfeff || cp == 0xfffe ||
	       cp == 0xffff;
}

void esc_yaml(struct buf *out, const char *s, size_t len)
{
	buf_putc(out, '"');
	size_t run = 0, i = 0;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t adv = 1;
		int32_t cp = c < 0x80 ? c : utf8_decode(s + i, len - i, &adv);
		bool special = cp < 0 || yaml_needs_escape(cp) ||
			       (cp < 0x80 && yaml_short[cp]);
		if (!special) {
			i += adv;
			continue;
		}
		buf_put(out, s + run, i - run);
		if (cp < 0)
			buf_puts(out, "\\uFFFD"); /* one per invalid byte */
		else if (cp < 0x80 && yaml_short[cp])
			buf_puts(out, yaml_short[cp]);
		else if (cp < 0x100)
			buf_printf(out, "\\x%02X", (unsigned)cp);
		else
			buf_printf(out, "\\u%04X", (unsigned)cp);
		i += adv;
		run = i;
	}
	buf_put(out, s + run, len - run);
	buf_putc(out, '"');
}

/* Inside single quotes a POSIX shell expands nothing, newlines
 * included; the only character that cannot appear is the quote itself,
 * so it closes the quote, adds an escaped quote and reopens. */
/* A word holding $ or a backquote is written in double quotes with those
 * escaped: just as inert as single quotes, and shellcheck does not take
 * it for an expansion the author forgot (SC2016). */
static void esc_shell_double(struct buf *out, const char *s, size_t len)
{
	buf_putc(out, '"');
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\0')
			continue;
		if (strchr("$`\"\\", s[i]))
			buf_putc(out, '\\');
		buf_putc(out, s[i]);
	}
	buf_putc(out, '"');
}

void esc_shell(struct buf *out, const char *s, size_t len)
{
	if (memchr(s, '$', len) || memchr(s, '`', len)) {
		esc_shell_double(out, s, len);
		return;
	}
	buf_putc(out, '\'');
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\'' && s[i] != '\0')
			continue;
		buf_put(out, s + run, i - run);
		if (s[i] == '\'')
			buf_puts(out, "'\\''");
		run = i + 1;
	}
	buf_put(out, s + run, len - run);
	buf_putc(out, '\'');
}
