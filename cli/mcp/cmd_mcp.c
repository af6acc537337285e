/* trainforge mcp: a Model Context Protocol server on stdio. One JSON-RPC
 * message a line (cli/rpc); the revision is negotiated at initialize as
 * the specification says: the client's when the server speaks it, else
 * the newest, and every reply holds only what that revision defines.
 * Each tool call runs in a child process (mcp_child.c) under a time
 * bound, confined to the client's roots (mcp_roots.c), so that no input
 * can crash, hang or widen the server. docs/assistants.md describes it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_options.h"
#include "commands.h"
#include "mcp.h"
#include "xalloc.h"

/* The revisions of @modelcontextprotocol/sdk 1.32's SUPPORTED_PROTOCOL_VERSIONS
 * (its LATEST_PROTOCOL_VERSION first); the changelogs of
 * https://modelcontextprotocol.io/specification say what each added. */
const struct revision mcp_revisions[] = {
	{ "2025-11-25", REV_ANNOTATIONS | REV_STRUCTURED | REV_TITLE },
	{ "2025-06-18", REV_ANNOTATIONS | REV_STRUCTURED | REV_TITLE },
	{ "2025-03-26", REV_ANNOTATIONS | REV_BATCH },
	{ "2024-11-05", 0 },
	{ "2024-10-07", 0 },
};
const size_t mcp_n_revisions = sizeof mcp_revisions / sizeof mcp_revisions[0];

enum { DEFAULT_TIMEOUT = 60, QUEUE_MAX = 1024 };

/* ---- output ---------------------------------------------------------- */

void mcp_send_now(struct mcp_server *s, struct buf *b)
{
	struct buf *batch = s->batch;
	s->batch = NULL;
	mcp_send(s, b);
	s->batch = batch;
}

void mcp_send(struct mcp_server *s, struct buf *b)
{
	if (s->batch) {
		buf_puts(s->batch, s->batch->len > 1 ? "," : "");
		buf_put(s->batch, b->p ? b->p : "", b->len);
	} else if (!s->broken_pipe && !rpc_send(s->out, RPC_LINES, b)) {
		s->broken_pipe = true;
	}
	buf_free(b);
}

void mcp_reply(struct mcp_server *s, const yamldoc *doc, yd_node id, const char *result)
{
	struct buf b = BUF_INIT;
	rpc_result_response(&b, doc, id, result);
	mcp_send(s, &b);
}

void mcp_reply_error(struct mcp_server *s, const yamldoc *doc, yd_node id, int code,
		     const char *msg)
{
	struct buf b = BUF_INIT;
	if (id)
		rpc_error_response(&b, doc, id, code, msg);
	else
		rpc_error_without_id(&b, code, msg);
	mcp_send(s, &b);
}

/* ---- lifecycle ------------------------------------------------------- */

static const struct revision *revision_find(const char *name)
{
	for (size_t i = 0; name && i < mcp_n_revisions; i++)
		if (!strcmp(mcp_revisions[i].name, name))
			return &mcp_revisions[i];
	return NULL;
}

static void on_initialize(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	const char *asked = json_str(doc, params, "protocolVersion", NULL);
	if (!asked) {
		mcp_reply_error(s, doc, id, E_PARAMS, "initialize needs params.protocolVersion");
		return;
	}
	const struct revision *rev = revision_find(asked);
	s->rev = rev ? rev : &mcp_revisions[0];
	yd_node roots = json_get(doc, params, "capabilities.roots");
	s->client_roots = roots && yd_kind(doc, roots) == YD_MAPPING;
	if (!s->client_roots)
		mcp_roots_default(s);
	s->initialized = true;
	struct buf b = BUF_INIT;
	buf_printf(&b, "{\"protocolVersion\":\"%s\",\"capabilities\":{\"tools\":{\"listChanged\":false},"
		   "\"resources\":{\"subscribe\":false,\"listChanged\":false},"
		   "\"prompts\":{\"listChanged\":false}},\"serverInfo\":{\"name\":\"trainforge\",",
		   s->rev->name);
	if (s->rev->has & REV_TITLE)
		buf_puts(&b, "\"title\":\"trainforge\",");
	buf_printf(&b, "\"version\":\"%s\"},\"instructions\":", TF_VERSION);
	struct buf text = BUF_INIT;
	mcp_instructions(s, &text);
	json_put_str(&b, text.p, text.len);
	buf_free(&text);
	buf_putc(&b, '}');
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
}

static void on_request(struct mcp_server *s, const yamldoc *doc, yd_node id, const char *method,
		       yd_node params)
{
	if (!strcmp(method, "initialize")) {
		if (s->initialized)
			mcp_reply_error(s, doc, id, E_INVALID, "initialize was already received");
		else
			on_initialize(s, doc, id, params);
		return;
	}
	if (!strcmp(method, "ping")) {
		mcp_reply(s, doc, id, "{}");
		return;
	}
	if (!s->initialized) {
		mcp_reply_error(s, doc, id, E_INVALID, "the server is not initialized: send initialize first");
		return;
	}
	static const struct {
		const char *method;
		void (*fn)(struct mcp_server *, const yamldoc *, yd_node, yd_node);
	} methods[] = {
		{ "tools/call", mcp_tools_call },
		{ "resources/read", mcp_resources_read },
		{ "prompts/get", mcp_prompts_get },
	};
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (!strcmp(method, methods[i].method)) {
			if (params && yd_kind(doc, params) != YD_MAPPING)
				mcp_reply_error(s, doc, id, E_PARAMS, "params must be an object");
			else
				methods[i].fn(s, doc, id, params);
			return;
		}
	/* the lists come in one page: a cursor is one the server never gave */
	static const struct {
		const char *method;
		void (*fn)(struct mcp_server *, const yamldoc *, yd_node);
	} lists[] = {
		{ "tools/list", mcp_tools_list },
		{ "resources/list", mcp_resources_list },
		{ "resources/templates/list", mcp_resource_templates },
		{ "prompts/list", mcp_prompts_list },
	};
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		if (!strcmp(method, lists[i].method)) {
			if (json_get(doc, params, "cursor"))
				mcp_reply_error(s, doc, id, E_PARAMS, "unknown cursor: every list comes in one page");
			else
				lists[i].fn(s, doc, id);
			return;
		}
	char msg[160];
	snprintf(msg, sizeof msg, "method not found: %.100s", method);
	mcp_reply_error(s, doc, id, E_NO_METHOD, msg);
}

static void on_notification(struct mcp_server *s, const yamldoc *doc, const char *method,
			    yd_node params)
{
	(void)doc;
	(void)params;
	if (!strcmp(method, "notifications/initialized")) {
		if (s->initialized && !s->ready) {
			s->ready = true;
			if (s->client_roots)
				mcp_roots_request(s);
		}
	} else if (!strcmp(method, "notifications/roots/list_changed")) {
		if (s->ready && s->client_roots) {
			s->roots_known = false;
			mcp_roots_request(s);
		}
	}
	/* notifications/cancelled for a call that is over, progress and
	 * the rest need nothing */
}

/* JSON-RPC 2.0 says "jsonrpc": "2.0" in every message. */
static bool versioned(const yamldoc *doc, yd_node n)
{
	size_t len;
	const char *v = json_str(doc, n, "jsonrpc", &len);
	return v && len == 3 && !memcmp(v, "2.0", 3);
}

static void dispatch(struct mcp_server *s, struct rpc_msg *m)
{
	if (m->kind != RPC_INVALID && !versioned(m->doc, m->root))
		m->kind = RPC_INVALID;
	switch (m->kind) {
	case RPC_RESPONSE:
		if (s->roots_request && m->id && yd_kind(m->doc, m->id) == YD_SCALAR) {
			long long id;
			if (yd_int(m->doc, m->id, &id) && id == s->roots_request)
				mcp_roots_answer(s, m->doc, m->result, m->error);
		}
		break;
	case RPC_INVALID:
		mcp_reply_error(s, m->doc, m->good_id ? m->id : 0, E_INVALID, "invalid request");
		break;
	case RPC_BAD_PARAMS:
		mcp_reply_error(s, m->doc, m->id, E_PARAMS, "params must be an object");
		break;
	case RPC_REQUEST: on_request(s, m->doc, m->id, m->method, m->params); break;
	case RPC_NOTIFICATION: on_notification(s, m->doc, m->method, m->params); break;
	}
}

/* A batch (2025-03-26 only): each message in turn, the responses as one
 * array; none when it held only notifications and responses. */
static void dispatch_batch(struct mcp_server *s, yamldoc *doc)
{
	yd_node root = yd_root(doc);
	if (!s->rev || !(s->rev->has & REV_BATCH) || !yd_len(doc, root)) {
		mcp_reply_error(s, doc, 0, E_INVALID, !s->rev || !(s->rev->has & REV_BATCH)
			? "invalid request: a batch (protocol revision 2025-03-26 alone has them)"
			: "invalid request: an empty batch");
		return;
	}
	struct buf answer = BUF_INIT;
	buf_putc(&answer, '[');
	s->batch = &answer;
	for (size_t i = 0; i < yd_len(doc, root); i++) {
		struct rpc_msg m;
		rpc_msg_classify(&m, doc, yd_item(doc, root, i));
		if (m.kind == RPC_REQUEST && !strcmp(m.method, "initialize"))
			mcp_reply_error(s, doc, m.id, E_INVALID, "initialize cannot be part of a batch");
		else
			dispatch(s, &m);
	}
	s->batch = NULL;
	buf_putc(&answer, ']');
	if (answer.len > 2)
		mcp_send(s, &answer);
	buf_free(&answer);
}

static void handle(struct mcp_server *s, const char *body, size_t len)
{
	struct rpc_msg m;
	rpc_msg_parse(&m, body, len);
	if (!m.doc)
		mcp_reply_error(s, NULL, 0, E_PARSE, "parse error: the message is not JSON");
	else if (yd_kind(m.doc, m.root) == YD_SEQUENCE)
		dispatch_batch(s, m.doc);
	else
		dispatch(s, &m);
	rpc_msg_free(&m);
}

/* ---- input while busy ------------------------------------------------ */

/* What must not wait for the call in progress: a ping, a response to
 * our roots/list, the cancellation of the call. */
static bool answer_now(struct mcp_server *s, const char *body, size_t len)
{
	struct rpc_msg m;
	rpc_msg_parse(&m, body, len);
	bool now = false;
	struct buf *batch = s->batch; /* what is answered now is not the batch's */
	s->batch = NULL;
	if (m.doc && m.kind == RPC_RESPONSE) {
		dispatch(s, &m);
		now = true;
	} else if (m.doc && m.kind == RPC_REQUEST && !strcmp(m.method, "ping") && s->initialized) {
		dispatch(s, &m);
		now = true;
	} else if (m.doc && m.kind == RPC_NOTIFICATION &&
		   !strcmp(m.method, "notifications/cancelled")) {
		struct buf id = BUF_INIT;
		yd_node req = json_get(m.doc, m.params, "requestId");
		if (req && json_put_scalar(m.doc, req, &id) && s->current_id.len &&
		    id.len == s->current_id.len && !memcmp(id.p, s->current_id.p, id.len))
			s->cancelled = true;
		buf_free(&id);
		now = true;
	}
	s->batch = batch;
	rpc_msg_free(&m);
	return now;
}

void mcp_take_input(struct mcp_server *s, bool read)
{
	if (read && !rpc_fill(&s->in))
		s->eof = true;
	for (;;) {
		const char *body;
		size_t len;
		enum rpc_status st = rpc_read_buffered(&s->in, &body, &len);
		if (st == RPC_AGAIN || st == RPC_EOF)
			return;
		if (st == RPC_TOO_LARGE) {
			mcp_reply_error(s, NULL, 0, E_INVALID, "message too large");
			continue;
		}
		if (answer_now(s, body, len))
			continue;
		if (s->q_len == QUEUE_MAX) {
			mcp_reply_error(s, NULL, 0, E_INTERNAL, "the server is busy: too many messages queued");
			continue;
		}
		s->queue = xgrow(s->queue, &s->q_cap, s->q_head + s->q_len + 1, sizeof *s->queue);
		s->queue[s->q_head + s->q_len++] = (struct queued){ xstrndup(body, len), len };
	}
}

/* ---- main ------------------------------------------------------------ */

static int parse_args(struct mcp_server *s, int argc, char **argv)
{
	struct options p;
	options_init(&p, CMD_MCP, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		const char *v = p.value;
		char *end;
		switch (id) {
		case OPTS_HELP: return -1;
		case OPT_SHELLCHECK:
			if (!strcmp(v, "auto"))
				s->shellcheck = SHELLCHECK_AUTO;
			else if (!strcmp(v, "off"))
				s->shellcheck = SHELLCHECK_OFF;
			else if (!strcmp(v, "required") || strchr(v, '/')) {
				s->shellcheck = SHELLCHECK_REQUIRED;
				s->shellcheck_program = strchr(v, '/') ? v : NULL;
			} else {
				return options_bad_value(&p);
			}
			break;
		case OPT_TIMEOUT:
			s->timeout = strtod(v, &end);
			if (*end || end == v || !(s->timeout > 0 && s->timeout <= 86400))
				return options_bad_value(&p);
			break;
		default:
			if (id == OPTS_OPERAND) {
				fprintf(stderr, "trainforge: unexpected '%s'\n", v);
				options_usage(stderr, CMD_MCP);
			}
			return EXIT_TROUBLE;
		}
	}
	return EXIT_CLEAN;
}

/* The next message: a queued one first. */
static enum rpc_status next_message(struct mcp_server *s, char **owned, const char **body,
				    size_t *len)
{
	*owned = NULL;
	if (s->q_len) {
		struct queued q = s->queue[s->q_head++];
		if (--s->q_len == 0)
			s->q_head = 0;
		*owned = q.body;
		*body = q.body;
		*len = q.len;
		return RPC_MESSAGE;
	}
	if (s->eof)
		return RPC_EOF;
	return rpc_read(&s->in, body, len);
}

void mcp_server_init(struct mcp_server *s, int in, int out)
{
	*s = (struct mcp_server){ .out = out, .timeout = DEFAULT_TIMEOUT,
				  .shellcheck = SHELLCHECK_AUTO, .next_id = 1 };
	s->cwd = getcwd(NULL, 0);
	rpc_in_init(&s->in, in, RPC_LINES, "trainforge mcp");
}

bool mcp_serve(struct mcp_server *s)
{
	while (!s->broken_pipe) {
		char *owned;
		const char *body;
		size_t len;
		enum rpc_status st = next_message(s, &owned, &body, &len);
		if (st == RPC_EOF)
			break;
		if (st == RPC_TOO_LARGE)
			mcp_reply_error(s, NULL, 0, E_INVALID, "message too large");
		else
			handle(s, body, len);
		free(owned);
	}
	return !s->broken_pipe;
}

void mcp_server_free(struct mcp_server *s)
{
	for (size_t i = 0; i < s->q_len; i++)
		free(s->queue[s->q_head + i].body);
	free(s->queue);
	buf_free(&s->current_id);
	mcp_roots_free(s);
	free(s->cwd);
	rpc_in_free(&s->in);
}

int cmd_mcp(int argc, char **argv)
{
	struct mcp_server s;
	mcp_server_init(&s, STDIN_FILENO, STDOUT_FILENO);
	int rc = parse_args(&s, argc, argv);
	if (!rc && !s.cwd) {
		perror("trainforge: mcp: the working directory");
		rc = EXIT_TROUBLE;
	}
	if (!rc) {
		signal(SIGPIPE, SIG_IGN); /* a vanished client is a failed write, not a death */
		rc = mcp_serve(&s) ? EXIT_CLEAN : EXIT_FINDINGS;
	}
	mcp_server_free(&s);
	return rc < 0 ? EXIT_CLEAN : rc;
}
