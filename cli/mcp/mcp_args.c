/* Reading a tool call's arguments in the child, after the input schema
 * passed them: the paths (inside the roots, or a tool error that says
 * which roots), content laid over its path, and --target values. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "mcp.h"
#include "target.h"

bool mcp_fail(struct mcp_call *c, const char *fmt, ...)
{
	if (c->error.len)
		buf_putc(&c->error, '\n');
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&c->error, fmt, ap);
	va_end(ap);
	return false;
}

yd_node mcp_arg(const struct mcp_call *c, const char *key)
{
	return yd_kind(c->doc, c->args) == YD_MAPPING ? yd_get(c->doc, c->args, key) : 0;
}

const char *mcp_arg_str(const struct mcp_call *c, const char *key)
{
	return json_str(c->doc, c->args, key, NULL);
}

bool mcp_arg_bool(const struct mcp_call *c, const char *key)
{
	bool v = false;
	return json_bool(c->doc, mcp_arg(c, key), &v) && v;
}

bool mcp_path_ok(struct mcp_call *c, const char *what, const char *path, bool content)
{
	if (file_allowed(path) || (content && errno == ENOENT))
		return true;
	struct buf roots = BUF_INIT;
	mcp_roots_text(c->s, &roots);
	if (errno == EACCES && c->s->client_roots)
		mcp_fail(c, "%s %s is outside the roots the client shares (%s); trainforge reads and "
			 "writes only inside them", what, path, roots.p ? roots.p : "");
	else if (errno == EACCES)
		mcp_fail(c, "%s %s is outside %s, the server's working directory, where trainforge reads "
			 "and writes (the client shares no roots)", what, path, roots.p ? roots.p : "");
	else
		mcp_fail(c, "%s %s: %s (a relative path is relative to %s)", what, path, strerror(errno),
			 c->s->n_roots ? c->s->roots[0] : ".");
	buf_free(&roots);
	return false;
}

bool mcp_take_file(struct mcp_call *c, const char *what, yd_node n, const char **path)
{
	size_t len, plen;
	*path = json_str(c->doc, n, "path", &plen);
	const char *content = json_str(c->doc, n, "content", &len);
	if (!*path || memchr(*path, '\0', plen))
		return mcp_fail(c, "%s: the path must be a string without NUL characters", what);
	if (!strcmp(*path, "-")) /* the CLI's stdin, which a call has not */
		return mcp_fail(c, "%s: - is no file here; give the text as content with a path", what);
	if (!mcp_path_ok(c, what, *path, content != NULL))
		return false;
	if (content)
		file_overlay(*path, content, len);
	return true;
}

bool mcp_target(struct mcp_call *c, struct target_request *req)
{
	yd_node t = mcp_arg(c, "target");
	for (size_t i = 0; t && i < yd_len(c->doc, t); i++) {
		const char *key = yd_str(c->doc, yd_key(c->doc, t, i), NULL);
		const char *value = yd_str(c->doc, yd_value(c->doc, t, i), NULL);
		char arg[160], err[1024];
		snprintf(arg, sizeof arg, "%.64s=%.64s", key ? key : "", value ? value : "");
		if (!target_parse_arg(arg, req, err, sizeof err))
			return mcp_fail(c, "target: %s", err);
	}
	return true;
}
