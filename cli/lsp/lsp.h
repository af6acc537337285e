/* What the files of `trainforge lsp` share: the server and its open
 * documents, the replies, a lint of one document, and positions in the
 * client's encoding. cmd_lsp.c runs the exchange; lsp_actions.c answers
 * textDocument/codeAction. Not an API. */
#ifndef TF_LSP_H
#define TF_LSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lint.h"
#include "rpc.h"
#include "settings.h"

enum { E_NOT_INITIALIZED = -32002 }; /* the LSP's own; the others are rpc.h's */

struct document {
	char *uri, *path, *text;
	size_t len;
	long long version;
	bool dirty;
};

struct server {
	struct rpc_in in;
	int out;
	struct lint_options opt;
	bool initialized, shut_down, exiting, utf8, broken_pipe;
	struct document *docs;
	size_t n_docs, cap_docs;
	char *shown;        /* the settings trouble last shown (window/showMessage),
			       so that a broken file is said once, not per keystroke */
};

/* A lint of one document, as `trainforge lint` would lint the file at its
 * path, with the settings that apply there. */
struct lsp_linted {
	struct lint_run run;
	struct lint_options opt;
	settings *cfg;
	struct trouble settings_trouble; /* what was wrong with .trainforge.yaml */
};

/* Sends b (and frees it). */
void lsp_send(struct server *s, struct buf *b);
void lsp_reply_error(struct server *s, const yamldoc *doc, yd_node id, int code, const char *msg);
void lsp_log_trouble(struct server *s, const struct trouble *t);
struct document *lsp_find_doc(struct server *s, const char *uri);
/* Lints d; returns its source in out->run, which lsp_linted_free ends. */
struct source *lsp_lint(struct server *s, struct document *d, struct lsp_linted *out,
			struct trouble *trouble);
void lsp_linted_free(struct lsp_linted *l);
/* The LSP character offset of 1-based code-point column col: bytes under
 * utf-8, UTF-16 code units otherwise. */
uint32_t lsp_char(const struct server *s, struct source *src, uint32_t line, uint32_t col);
/* The Diagnostic of g, as publishDiagnostics sends it. */
void lsp_put_diag(const struct server *s, struct buf *b, const struct diag *g,
		  const char *docs_url);

/* Shows the settings trouble of a lint once (window/showMessage), until
 * it changes; its lines also go to the log. */
void lsp_show_settings_trouble(struct server *s, const struct trouble *t);

/* textDocument/codeAction (lsp_actions.c). */
void lsp_code_action(struct server *s, const yamldoc *doc, yd_node id, yd_node params);

#endif
