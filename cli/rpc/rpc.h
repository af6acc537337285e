/* JSON-RPC 2.0 for the servers on stdio, `trainforge lsp` and `trainforge
 * mcp`: one layer with two framings (the LSP base protocol's
 * Content-Length headers; MCP stdio's one message a line), JSON read
 * through the YAML document (JSON is YAML once a few things libyaml
 * refuses are rewritten), and the envelope of a message. */
#ifndef TF_RPC_H
#define TF_RPC_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "yamldoc.h"

/* The largest message body read; a larger one is discarded unread. */
enum { RPC_MAX_MESSAGE = 64u << 20 };

/* JSON-RPC 2.0's own error codes. */
enum { E_PARSE = -32700, E_INVALID = -32600, E_NO_METHOD = -32601, E_PARAMS = -32602,
       E_INTERNAL = -32603 };

enum rpc_framing {
	RPC_HEADERS, /* Content-Length: N, a blank line, N bytes (LSP) */
	RPC_LINES,   /* one message a line, no newline inside (MCP stdio) */
};

struct rpc_in {
	int fd;
	enum rpc_framing framing;
	const char *who;        /* "trainforge lsp": the prefix of notes on stderr */
	char *buf;
	size_t start, len, cap; /* unread bytes are buf[start..len) */
	size_t scanned;         /* lines: bytes after start known to hold no newline */
	bool skipping;          /* lines: inside a line over the limit */
	bool eof;
};

enum rpc_status {
	RPC_MESSAGE,   /* *body holds a message body (owned by the reader) */
	RPC_TOO_LARGE, /* a body over RPC_MAX_MESSAGE was skipped */
	RPC_EOF,
	RPC_AGAIN,     /* rpc_read_buffered: no whole message buffered yet */
};

void rpc_in_init(struct rpc_in *in, int fd, enum rpc_framing framing, const char *who);
void rpc_in_free(struct rpc_in *in);
/* Blocks for the next framed message. Header blocks without a usable
 * Content-Length and blank lines are skipped (with a note on stderr).
 * *body stays valid until the next call. */
enum rpc_status rpc_read(struct rpc_in *in, const char **body, size_t *len);
/* The next message only if it is already buffered (lines framing;
 * RPC_AGAIN otherwise), so that a server busy with a request can look
 * at what came meanwhile without blocking on half a line. */
enum rpc_status rpc_read_buffered(struct rpc_in *in, const char **body, size_t *len);
/* Reads what the descriptor has (one read); false at end of input. */
bool rpc_fill(struct rpc_in *in);
/* True when input is waiting: buffered bytes, or a readable descriptor. */
bool rpc_pending(struct rpc_in *in);
/* Writes one framed message; false when the peer is gone. Under lines
 * framing a newline in body (never inside a JSON string this layer
 * writes) goes out as a space. */
bool rpc_send(int fd, enum rpc_framing framing, struct buf *body);

/* ---- JSON ------------------------------------------------------------ */

/* Parses a JSON text. NULL when it is not well-formed. */
yamldoc *json_parse(const char *text, size_t len);
/* The node at a dotted path of mapping keys under n ("params.textDocument.uri"), or 0. */
yd_node json_get(const yamldoc *doc, yd_node n, const char *path);
/* The string at path, or NULL when absent or not a JSON string. */
const char *json_str(const yamldoc *doc, yd_node n, const char *path, size_t *len);
/* Whether n is true or false; the value in *value. */
bool json_bool(const yamldoc *doc, yd_node n, bool *value);
/* Appends node n as JSON: a string, number, true, false or null. False
 * (and nothing appended) for anything else. */
bool json_put_scalar(const yamldoc *doc, yd_node n, struct buf *out);
/* Appends node n as JSON, whatever it is; false (part of it appended)
 * for what JSON cannot say or nesting deeper than depth. */
bool json_put_node(const yamldoc *doc, yd_node n, unsigned depth, struct buf *out);
/* Appends s[0..len) as a quoted JSON string; bytes that are not UTF-8
 * become U+FFFD, so that the output is always valid JSON. */
void json_put_str(struct buf *b, const char *s, size_t len);

/* ---- file URIs (rpc_uri.c) ------------------------------------------- */

/* Appends p percent-decoded, up to a '?' or '#'. */
void uri_decode(const char *p, struct buf *out);
/* The local path a file URI names (file:///p, file://localhost/p,
 * file:/p), or NULL for another scheme or host. The caller frees it. */
char *uri_file_path(const char *uri);

/* ---- messages -------------------------------------------------------- */

enum rpc_kind {
	RPC_REQUEST,      /* method and id */
	RPC_NOTIFICATION, /* method, no id */
	RPC_RESPONSE,     /* result or error, and an id */
	RPC_INVALID,      /* not a request, notification or response */
	RPC_BAD_PARAMS,   /* params neither an object nor an array */
};

/* One message, parsed (doc is NULL when the body is not JSON). */
struct rpc_msg {
	yamldoc *doc;
	yd_node root, id, params, result, error;
	const char *method;
	enum rpc_kind kind;
	bool good_id; /* id is a string, a number or null (reply to it) */
};

/* Parses a body; m->doc NULL: not JSON (reply E_PARSE to a null id). */
void rpc_msg_parse(struct rpc_msg *m, const char *body, size_t len);
/* The envelope of the value at n of doc (a message of a batch). */
void rpc_msg_classify(struct rpc_msg *m, yamldoc *doc, yd_node n);
void rpc_msg_free(struct rpc_msg *m);

/* {"jsonrpc":"2.0","id":ID  (the caller adds the result or error and
 * the closing brace); id 0 is null. */
void rpc_begin_response(struct buf *b, const yamldoc *doc, yd_node id);
/* A whole response whose result is the JSON text result. */
void rpc_result_response(struct buf *b, const yamldoc *doc, yd_node id, const char *result);
/* A whole error response (to id null when id is 0, as JSON-RPC has it). */
void rpc_error_response(struct buf *b, const yamldoc *doc, yd_node id, int code, const char *msg);
/* An error response without an id, as MCP's schema has one to a message
 * whose id is unknown. */
void rpc_error_without_id(struct buf *b, int code, const char *msg);

#endif
