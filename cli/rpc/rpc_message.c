/* The JSON-RPC 2.0 envelope: what a message is (request, notification,
 * response, or none of them), and the envelope of a response. */
#include <string.h>

#include "rpc.h"

void rpc_msg_classify(struct rpc_msg *m, yamldoc *doc, yd_node n)
{
	memset(m, 0, sizeof *m);
	m->doc = doc;
	m->root = n;
	m->kind = RPC_INVALID;
	if (yd_kind(doc, n) != YD_MAPPING)
		return;
	m->id = yd_get(doc, n, "id");
	m->method = json_str(doc, n, "method", NULL);
	m->params = yd_get(doc, n, "params");
	m->result = yd_get(doc, n, "result");
	m->error = yd_get(doc, n, "error");
	struct buf probe = BUF_INIT;
	m->good_id = !m->id || json_put_scalar(doc, m->id, &probe); /* a string, number or null */
	buf_free(&probe);
	if (!m->method && m->id && m->good_id && (m->result || m->error))
		m->kind = RPC_RESPONSE;
	else if (!m->method || !m->good_id)
		m->kind = RPC_INVALID;
	else if (m->params && yd_kind(doc, m->params) != YD_MAPPING &&
		 yd_kind(doc, m->params) != YD_SEQUENCE)
		m->kind = RPC_BAD_PARAMS;
	else
		m->kind = m->id ? RPC_REQUEST : RPC_NOTIFICATION;
}

void rpc_msg_parse(struct rpc_msg *m, const char *body, size_t len)
{
	yamldoc *doc = json_parse(body, len);
	if (!doc) {
		memset(m, 0, sizeof *m);
		m->kind = RPC_INVALID;
		return;
	}
	rpc_msg_classify(m, doc, yd_root(doc));
}

void rpc_msg_free(struct rpc_msg *m)
{
	yamldoc_free(m->doc);
	m->doc = NULL;
}

void rpc_begin_response(struct buf *b, const yamldoc *doc, yd_node id)
{
	buf_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
	if (!id || !json_put_scalar(doc, id, b))
		buf_puts(b, "null");
}

void rpc_result_response(struct buf *b, const yamldoc *doc, yd_node id, const char *result)
{
	rpc_begin_response(b, doc, id);
	buf_printf(b, ",\"result\":%s}", result);
}

static void put_error(struct buf *b, int code, const char *msg)
{
	buf_printf(b, ",\"error\":{\"code\":%d,\"message\":", code);
	json_put_str(b, msg, strlen(msg));
	buf_puts(b, "}}");
}

void rpc_error_response(struct buf *b, const yamldoc *doc, yd_node id, int code, const char *msg)
{
	rpc_begin_response(b, doc, id);
	put_error(b, code, msg);
}

void rpc_error_without_id(struct buf *b, int code, const char *msg)
{
	buf_puts(b, "{\"jsonrpc\":\"2.0\"");
	put_error(b, code, msg);
}
