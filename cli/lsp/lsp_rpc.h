/* JSON-RPC for `trainforge lsp`: Content-Length framing on file
 * descriptors, and reading JSON through the YAML document (JSON is YAML
 * once a few things libyaml refuses are rewritten). */
#ifndef TF_LSP_RPC_H
#define TF_LSP_RPC_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "yamldoc.h"

/* The largest message body read; a larger one is discarded unread. */
enum { RPC_MAX_MESSAGE = 64u << 20 };

struct rpc_in {
	int fd;
	char *buf;
	size_t start, len, cap; /* unread bytes are buf[start..len) */
	bool eof;
};

enum rpc_status {
	RPC_MESSAGE,   /* *body holds a message body (owned by the reader) */
	RPC_TOO_LARGE, /* a body over RPC_MAX_MESSAGE was skipped */
	RPC_EOF,
};

void rpc_in_init(struct rpc_in *in, int fd);
void rpc_in_free(struct rpc_in *in);
/* Blocks for the next framed message. Header blocks without a usable
 * Content-Length are skipped (with a note on stderr). *body stays valid
 * until the next call. */
enum rpc_status rpc_read(struct rpc_in *in, const char **body, size_t *len);
/* True when input is waiting: buffered bytes, or a readable descriptor. */
bool rpc_pending(struct rpc_in *in);
/* Writes one framed message; false when the peer is gone. */
bool rpc_send(int fd, const struct buf *body);

/* Parses a JSON text. NULL when it is not well-formed. */
yamldoc *json_parse(const char *text, size_t len);
/* The node at a dotted path of mapping keys under n ("params.textDocument.uri"), or 0. */
yd_node json_get(const yamldoc *doc, yd_node n, const char *path);
/* The string at path, or NULL when absent or not a JSON string. */
const char *json_str(const yamldoc *doc, yd_node n, const char *path, size_t *len);
/* Appends node n as JSON: a string, number, true, false or null. False
 * (and nothing appended) for anything else. */
bool json_put_scalar(const yamldoc *doc, yd_node n, struct buf *out);

#endif
