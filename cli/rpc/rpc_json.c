/* Reading JSON with the YAML document. JSON is YAML 1.2 but libyaml
 * refuses a few things JSON allows, so they are rewritten first: tabs
 * between tokens, escaped surrogate pairs (\ud83d\ude00, as Python's
 * json.dumps writes), and raw DEL, C1 controls, U+2028/9 and U+FFFE/F
 * inside strings (libyaml rejects or folds them; JSON.stringify sends
 * them raw). */
#include "rpc.h"

#include <stdint.h>
#include <string.h>

#include "text.h"

static bool hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	char o[4];
	size_t n;
	if (cp < 0x80) {
		o[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		o[0] = (char)(0xf0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	buf_put(b, o, n);
}

/* Characters libyaml will not take raw inside a quoted scalar. */
static bool needs_escape(int32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0xfffe || cp == 0xffff;
}

/* One escape sequence at s[0] == '\\'; returns the bytes consumed. */
static size_t put_escape(struct buf *b, const char *s, size_t len)
{
	unsigned hi, lo;
	if (len < 6 || s[1] != 'u' || !hex4(s + 2, &hi)) {
		size_t n = len < 2 ? len : 2;
		buf_put(b, s, n);
		return n;
	}
	if (hi >= 0xd800 && hi <= 0xdbff && len >= 12 && s[6] == '\\' && s[7] == 'u' &&
	    hex4(s + 8, &lo) && lo >= 0xdc00 && lo <= 0xdfff) {
		put_utf8(b, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
		return 12;
	}
	if (hi >= 0xd800 && hi <= 0xdfff)
		buf_puts(b, "\\ufffd"); /* a lone surrogate, as JSON.parse would keep it */
	else
		buf_put(b, s, 6);
	return 6;
}

/* What JSON has outside strings: whitespace, the structure, numbers and
 * the letters of true, false and null. YAML has more (comments, anchors,
 * tags, single quotes, plain words); a text that uses any is not JSON. */
static bool json_outside(char c)
{
	return (c >= '0' && c <= '9') || (c && strchr(" \t\r\n{}[]:,-+.eEtrufalsn", c));
}

/* Returns false when s holds what JSON has not, outside strings. */
static bool normalize(const char *s, size_t len, struct buf *out)
{
	bool in_string = false, json = true;
	size_t i = 0;
	while (i < len) {
		char c = s[i];
		if (!in_string) {
			json &= c == '"' || json_outside(c);
			buf_putc(out, c == '\t' ? ' ' : c);
			in_string = c == '"';
			i++;
		} else if (c == '"') {
			buf_putc(out, c);
			in_string = false;
			i++;
		} else if (c == '\\') {
			i += put_escape(out, s + i, len - i);
		} else {
			size_t adv;
			int32_t cp = utf8_decode(s + i, len - i, &adv);
			if (cp >= 0 && needs_escape(cp))
				buf_printf(out, "\\u%04x", (unsigned)cp);
			else
				buf_put(out, s + i, adv); /* invalid UTF-8 fails the parse */
			i += adv;
		}
	}
	return json && !in_string;
}

static bool json_number(const char *s);

/* Keys are strings, and a value that is not one is a number, true,
 * false or null (YAML would read other plain words as strings). */
static bool json_shaped(const yamldoc *doc, yd_node n)
{
	size_t count;
	const yd_node *kids = yd_children(doc, n, &count);
	bool map = yd_kind(doc, n) == YD_MAPPING;
	for (size_t i = 0; i < count; i++) {
		if (map && !(i & 1) && (yd_kind(doc, kids[i]) != YD_SCALAR || !yd_quoted(doc, kids[i])))
			return false;
		if (!json_shaped(doc, kids[i]))
			return false;
	}
	if (yd_kind(doc, n) != YD_SCALAR || yd_quoted(doc, n))
		return true;
	const char *s = yd_str(doc, n, NULL);
	return s && (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null") || json_number(s));
}

yamldoc *json_parse(const char *text, size_t len)
{
	struct buf norm = BUF_INIT;
	if (!normalize(text, len, &norm)) {
		buf_free(&norm);
		return NULL;
	}
	yamldoc *doc = yamldoc_parse(norm.p ? norm.p : "", norm.len, NULL);
	buf_free(&norm);
	if (yamldoc_broken(doc) || !yd_root(doc) || !json_shaped(doc, yd_root(doc))) {
		yamldoc_free(doc);
		return NULL;
	}
	return doc;
}

yd_node json_get(const yamldoc *doc, yd_node n, const char *path)
{
	while (n && *path) {
		const char *dot = strchr(path, '.');
		size_t klen = dot ? (size_t)(dot - path) : strlen(path);
		char key[64];
		if (klen >= sizeof key || yd_kind(doc, n) != YD_MAPPING)
			return 0;
		memcpy(key, path, klen);
		key[klen] = '\0';
		n = yd_get(doc, n, key);
		path += klen + (dot != NULL);
	}
	return n;
}

const char *json_str(const yamldoc *doc, yd_node n, const char *path, size_t *len)
{
	n = json_get(doc, n, path);
	if (!n || yd_kind(doc, n) != YD_SCALAR || !yd_quoted(doc, n))
		return NULL;
	return yd_str(doc, n, len);
}

static bool json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

bool json_bool(const yamldoc *doc, yd_node n, bool *value)
{
	if (!n || yd_kind(doc, n) != YD_SCALAR || yd_quoted(doc, n))
		return false;
	if (yd_str_eq(doc, n, "true") || yd_str_eq(doc, n, "false")) {
		*value = yd_str_eq(doc, n, "true");
		return true;
	}
	return false;
}

bool json_put_scalar(const yamldoc *doc, yd_node n, struct buf *out)
{
	size_t len;
	const char *s = n && yd_kind(doc, n) == YD_SCALAR ? yd_str(doc, n, &len) : NULL;
	if (!s)
		return false;
	if (yd_quoted(doc, n)) {
		json_put_str(out, s, len);
		return true;
	}
	if (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null") || json_number(s)) {
		buf_puts(out, s);
		return true;
	}
	return false;
}

void json_put_str(struct buf *b, const char *s, size_t len)
{
	buf_putc(b, '"');
	buf_put_json_utf8(b, s, len);
	buf_putc(b, '"');
}

bool json_put_node(const yamldoc *doc, yd_node n, unsigned depth, struct buf *out)
{
	if (!depth)
		return false;
	enum yd_kind kind = yd_kind(doc, n);
	if (kind != YD_MAPPING && kind != YD_SEQUENCE)
		return json_put_scalar(doc, n, out);
	bool map = kind == YD_MAPPING;
	buf_putc(out, map ? '{' : '[');
	for (size_t i = 0; i < yd_len(doc, n); i++) {
		buf_puts(out, i ? "," : "");
		if (map) {
			size_t len;
			const char *key = yd_str(doc, yd_key(doc, n, i), &len);
			if (!key)
				return false;
			json_put_str(out, key, len);
			buf_putc(out, ':');
		}
		if (!json_put_node(doc, map ? yd_value(doc, n, i) : yd_item(doc, n, i), depth - 1, out))
			return false;
	}
	buf_putc(out, map ? '}' : ']');
	return true;
}
