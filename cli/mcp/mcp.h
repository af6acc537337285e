/* What the files of `trainforge mcp` share: the server, the protocol
 * revisions it speaks, the tools, resources and prompts, and a tool run
 * in a child process. cmd_mcp.c runs the exchange. Not an API. */
#ifndef TF_MCP_H
#define TF_MCP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "rpc.h"
#include "shellcheck.h"
#include "yamldoc.h"

/* What a protocol revision has that the oldest does not; a reply holds
 * only what the negotiated revision defines. */
enum {
	REV_ANNOTATIONS = 1 << 0, /* tool annotations (2025-03-26) */
	REV_BATCH = 1 << 1,       /* JSON-RPC batches (2025-03-26 only) */
	REV_STRUCTURED = 1 << 2,  /* outputSchema, structuredContent (2025-06-18) */
	REV_TITLE = 1 << 3,       /* title beside name (2025-06-18) */
};

struct revision {
	const char *name;
	unsigned has;
};

/* Newest first; the first is what a client that asks for another gets. */
extern const struct revision mcp_revisions[];
extern const size_t mcp_n_revisions;

/* A message that came while the server was busy, to handle after. */
struct queued {
	char *body;
	size_t len;
};

struct mcp_server {
	struct rpc_in in;
	int out;
	bool broken_pipe, eof;
	bool initialized;            /* initialize answered */
	bool ready;                  /* notifications/initialized received */
	const struct revision *rev;  /* negotiated */
	/* roots: the client's, resolved; the working directory when it has none */
	bool client_roots;           /* the client declared the roots capability */
	bool roots_known;            /* an answer to roots/list is in roots */
	long long roots_request;     /* the id of the roots/list in flight; 0 none */
	char **roots;
	size_t n_roots;
	char *cwd;
	long long next_id;
	/* the tool call in a child process, if any */
	struct buf current_id;       /* its request id as JSON */
	bool cancelled;
	struct queued *queue;
	size_t q_head, q_len, q_cap;
	struct buf *batch;           /* the responses of a batch being answered */
	/* from the command line */
	double timeout;              /* seconds a tool call may take */
	bool in_process;             /* tools run in this process (a fuzz target) */
	const char *shellcheck_program;
	enum shellcheck_mode shellcheck;   /* the lint tools' default (--shellcheck) */
};

/* ---- the exchange (cmd_mcp.c) ---------------------------------------- */

/* A server on in and out, with the defaults of the command line. */
void mcp_server_init(struct mcp_server *s, int in, int out);
/* Answers messages until the input ends or the client is gone; false
 * when the client went away (a write failed). */
bool mcp_serve(struct mcp_server *s);
void mcp_server_free(struct mcp_server *s);

/* Sends b (and frees it); inside a batch, adds it to the batch's answer. */
void mcp_send(struct mcp_server *s, struct buf *b);
/* Sends b at once, inside a batch too (a request to the client). */
void mcp_send_now(struct mcp_server *s, struct buf *b);
void mcp_reply(struct mcp_server *s, const yamldoc *doc, yd_node id, const char *result);
void mcp_reply_error(struct mcp_server *s, const yamldoc *doc, yd_node id, int code,
		     const char *msg);
/* What came while the server waits for a child or for the client's
 * roots (with read, the input is readable: one read first): answers a
 * ping and takes a response or a cancellation at once, queues the rest. */
void mcp_take_input(struct mcp_server *s, bool read);

/* ---- roots (mcp_roots.c) --------------------------------------------- */

/* Asks the client for its roots (after notifications/initialized). */
void mcp_roots_request(struct mcp_server *s);
/* A response to roots/list (result or error). */
void mcp_roots_answer(struct mcp_server *s, const yamldoc *doc, yd_node result, yd_node error);
/* Waits (at most a few seconds) for the roots the client was asked for;
 * false when it did not answer. */
bool mcp_roots_wait(struct mcp_server *s);
/* The working directory as the one root when the client has none. */
void mcp_roots_default(struct mcp_server *s);
void mcp_roots_free(struct mcp_server *s);
/* "/a, /b": the roots, for messages. */
void mcp_roots_text(const struct mcp_server *s, struct buf *out);

/* ---- a tool run in a child (mcp_child.c) ----------------------------- */

enum child_end { CHILD_DONE, CHILD_TIMEOUT, CHILD_CANCELLED, CHILD_TOO_LARGE, CHILD_GONE,
		 CHILD_FAILED };

struct child_result {
	struct buf out;   /* what the child wrote to its result descriptor */
	struct buf err;   /* the head of its stderr */
	int status;       /* from waitpid */
	enum child_end end;
};

/* Runs fn(ctx, fd) in a child process, which writes its result to fd;
 * stdin and stdout are /dev/null there. The child is killed at the
 * server's timeout, when the client cancels the call or goes away, and
 * when its result grows past the limit. */
void mcp_child_run(struct mcp_server *s, void (*fn)(void *ctx, int fd), void *ctx,
		   struct child_result *r);
void child_result_free(struct child_result *r);
/* In a child: runs fn(argc, argv) (a command) with its stdout into out
 * and its stderr into err; its exit code, -1 when it could not run. */
int mcp_capture(int (*fn)(int, char **), int argc, char **argv, struct buf *out, struct buf *err);

/* ---- tools (mcp_tools.c) --------------------------------------------- */

/* One call, as a tool sees it in the child. */
struct mcp_call {
	const struct mcp_server *s;
	const yamldoc *doc;
	yd_node args;       /* the arguments, valid by the tool's input schema */
	struct buf text;    /* the text rendering */
	struct buf json;    /* the structured result: one object */
	struct buf error;   /* a tool error, for a person; set: the call failed */
};

void mcp_tools_list(struct mcp_server *s, const yamldoc *doc, yd_node id);
void mcp_tools_call(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params);

/* Sets a tool error (printf-style); returns false for `return mcp_fail(...)`. */
bool mcp_fail(struct mcp_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The argument key, or 0. */
yd_node mcp_arg(const struct mcp_call *c, const char *key);
/* A string argument, or NULL. */
const char *mcp_arg_str(const struct mcp_call *c, const char *key);
bool mcp_arg_bool(const struct mcp_call *c, const char *key);
/* Checks that path (a file argument) is inside the roots and, unless
 * content stands for it, exists; sets a tool error otherwise. */
bool mcp_path_ok(struct mcp_call *c, const char *what, const char *path, bool content);
/* A file argument ({path, content?}) at n: checks it and, when content is
 * given, lays it over its path (file_overlay). */
bool mcp_take_file(struct mcp_call *c, const char *what, yd_node n, const char **path);
/* The target argument applied over the default into *t; false (a tool
 * error) on a value --target refuses. */
struct target;
struct target_request;
bool mcp_target(struct mcp_call *c, struct target_request *req);

/* The report of a finished lint run (mcp_report.c): the JSON format's
 * object with a summary and the messages that are not findings (more's,
 * then the run's) into json; the text format and summary into text
 * (NULL: none). base: the run's target when it linted no file. */
struct lint_run;
struct trouble;
void mcp_report(const struct lint_run *run, const struct target *base, const struct trouble *more,
		struct buf *json, struct buf *text);

/* The tools themselves, each in its file. */
void tool_lint(struct mcp_call *c);
void tool_fix(struct mcp_call *c);
void tool_diff(struct mcp_call *c);
void tool_gen(struct mcp_call *c);
void tool_gen_write(struct mcp_call *c);
void tool_plan(struct mcp_call *c);
void tool_explain(struct mcp_call *c);
void tool_instances(struct mcp_call *c);

/* ---- schemas (mcp_schema.c) ------------------------------------------ */

/* Appends $defs.NAME of schemas/mcp.schema.json as one self-contained
 * schema (every $ref written out); false when there is none. */
bool mcp_schema_put(const char *def, struct buf *out);
/* Validates the arguments at n against $defs.NAME; each error, for a
 * person, into out (one a line). False when any. */
bool mcp_schema_check(const char *def, const yamldoc *doc, yd_node n, struct buf *out);

/* ---- resources and prompts ------------------------------------------- */

void mcp_resources_list(struct mcp_server *s, const yamldoc *doc, yd_node id);
void mcp_resource_templates(struct mcp_server *s, const yamldoc *doc, yd_node id);
void mcp_resources_read(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params);
void mcp_prompts_list(struct mcp_server *s, const yamldoc *doc, yd_node id);
void mcp_prompts_get(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params);

/* The instructions of the initialize result. */
void mcp_instructions(const struct mcp_server *s, struct buf *out);

#endif
