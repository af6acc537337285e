/* trainforge lsp: a language server on stdio, for diagnostics and their
 * fixes (code actions, lsp_actions.c). Each open
 * document is linted as if it were the file at its URI's path (kind,
 * pairing and on-disk cluster configs as `trainforge lint` sees them),
 * after every queued message has been read, so a burst of edits lints
 * once; with `base:` in .trainforge.yaml, a cluster config's unsaved text
 * is also reviewed against its version at that git revision (PC5 rules).
 * docs/editors.md, "The language server", describes the exchange. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "settings.h"
#include "jobspec.h"
#include "lint.h"
#include "lsp.h"
#include "cli_options.h"
#include "prices_cli.h"
#include "selectors.h"
#include "text.h"
#include "xalloc.h"

/* Lint at least once per this many messages, even while input keeps coming. */
enum { MAX_BURST = 256 };

/* ---- output ---------------------------------------------------------- */

void lsp_send(struct server *s, struct buf *b)
{
	if (!s->broken_pipe && !rpc_send(s->out, RPC_HEADERS, b))
		s->broken_pipe = true;
	buf_free(b);
}

static void reply(struct server *s, const yamldoc *doc, yd_node id, const char *result)
{
	struct buf b = BUF_INIT;
	rpc_result_response(&b, doc, id, result);
	lsp_send(s, &b);
}

void lsp_reply_error(struct server *s, const yamldoc *doc, yd_node id, int code,
		     const char *msg)
{
	struct buf b = BUF_INIT;
	rpc_error_response(&b, doc, id, code, msg);
	lsp_send(s, &b);
}

/* ---- diagnostics ----------------------------------------------------- */

/* The LSP character offset of 1-based code-point column col: bytes under
 * utf-8, UTF-16 code units otherwise. Past the line's end, one per column. */
uint32_t lsp_char(const struct server *s, struct source *src, uint32_t line, uint32_t col)
{
	size_t len;
	const char *p = col > 1 ? source_line(src, line, &len) : NULL;
	if (!p)
		return col > 1 ? col - 1 : 0;
	uint32_t units = 0, at = 1;
	size_t i = 0;
	while (at < col && i < len) {
		size_t adv;
		int32_t cp = utf8_decode(p + i, len - i, &adv);
		units += s->utf8 ? (uint32_t)adv : cp >= 0x10000 ? 2 : 1;
		i += adv;
		at++;
	}
	return units + (col - at);
}

static void put_diag(struct buf *b, const uint32_t range[4], enum severity sev, enum rule_id rule,
		     const char *id, const char *msg, const char *help, int ext_code,
		     const char *docs_url)
{
	static const int lsp_severity[] = { [SEV_ERROR] = 1, [SEV_WARNING] = 2, [SEV_INFO] = 3 };
	struct buf url = BUF_INIT;
	rule_url(&url, rule, ext_code, docs_url);
	buf_printf(b, "{\"range\":{\"start\":{\"line\":%u,\"character\":%u},"
		   "\"end\":{\"line\":%u,\"character\":%u}},\"severity\":%d,\"code\":\"%s\","
		   "\"codeDescription\":{\"href\":",
		   range[0], range[1], range[2], range[3], lsp_severity[sev], id);
	json_put_str(b, url.p, url.len);
	buf_puts(b, "},\"source\":\"trainforge\",\"message\":\"");
	buf_free(&url);
	buf_put_json_utf8(b, msg, strlen(msg));
	if (help && *help) {
		buf_puts(b, "\\nhelp: ");
		buf_put_json_utf8(b, help, strlen(help));
	}
	buf_puts(b, "\"}");
}

struct source *lsp_lint(struct server *s, struct document *d, struct lsp_linted *out,
		       struct trouble *trouble)
{
	/* .trainforge.yaml is found again for every lint: an edit to it
	 * applies on the next keystroke, with nothing to watch. A broken one
	 * is set aside (lenient): the files still get the defaults' findings,
	 * and the editor says why (lsp_show_settings_trouble) */
	struct settings_flags flags = { .fail_level = -1, .shellcheck_set = true, .lenient = true };
	memset(&out->settings_trouble, 0, sizeof out->settings_trouble);
	out->cfg = settings_new(&s->opt, &flags, &out->settings_trouble);
	out->opt = s->opt;
	if (out->cfg) {
		out->opt.options_for = settings_options_for;
		out->opt.options_ctx = out->cfg;
	}
	lint_run_init(&out->run, &out->opt);
	lint_text(&out->run, d->path, d->text, d->len, true);
	struct source *src = out->run.files[0]->src;
	lint_run_finish(&out->run);
	for (size_t i = 0; i < out->settings_trouble.len; i++)
		trouble_add(trouble, "%s", out->settings_trouble.msgs[i]);
	for (size_t i = 0; i < out->run.trouble.len; i++)
		trouble_add(trouble, "%s", out->run.trouble.msgs[i]);
	diag_list_sort(&out->run.diags);
	return src;
}

void lsp_linted_free(struct lsp_linted *l)
{
	lint_run_fini(&l->run);
	settings_free(l->cfg);
	trouble_free(&l->settings_trouble);
}

/* window/showMessage: a message the user sees (type 1 error, 2 warning). */
static void show_message(struct server *s, int type, const char *msg)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"window/showMessage\","
		       "\"params\":{\"type\":%d,\"message\":", type);
	json_put_str(&b, msg, strlen(msg));
	buf_puts(&b, "}}");
	lsp_send(s, &b);
}

void lsp_show_settings_trouble(struct server *s, const struct trouble *t)
{
	struct buf all = BUF_INIT;
	for (size_t i = 0; i < t->len; i++)
		buf_printf(&all, "%s%s", i ? "\n" : "", t->msgs[i]);
	if (!all.len) {
		free(s->shown); /* fixed: the next breakage is news again */
		s->shown = NULL;
	} else if (!s->shown || strcmp(s->shown, all.p)) {
		struct buf msg = BUF_INIT;
		buf_printf(&msg, "trainforge: a settings file is invalid and is not used; files are "
				 "linted with the defaults until it is fixed:\n%s", all.p);
		show_message(s, 1, msg.p);
		buf_free(&msg);
		free(s->shown);
		s->shown = buf_detach(&all);
	}
	buf_free(&all);
}

void lsp_put_diag(const struct server *s, struct buf *b, const struct diag *g, const char *docs_url)
{
	uint32_t range[4] = {
		g->line ? g->line - 1 : 0, lsp_char(s, g->src, g->line, g->col),
		g->end_line ? g->end_line - 1 : 0, lsp_char(s, g->src, g->end_line, g->end_col),
	};
	char idbuf[8];
	put_diag(b, range, g->sev, g->rule, diag_id(g, idbuf), g->msg, g->help, g->ext_code, docs_url);
}

static void put_findings(struct server *s, struct document *d, struct buf *b,
			 struct trouble *trouble)
{
	if (d->len > s->opt.max_bytes) {
		char msg[96];
		snprintf(msg, sizeof msg, "the file is %zu bytes; the limit is %zu bytes",
			 d->len, s->opt.max_bytes);
		put_diag(b, (const uint32_t[4]){ 0, 0, 0, 0 }, SEV_ERROR,
			 (enum rule_id)rule_find("LN1005", 6), "LN1005", msg, NULL, 0, s->opt.docs_url);
		return;
	}
	struct lsp_linted l;
	struct source *src = lsp_lint(s, d, &l, trouble);
	lsp_show_settings_trouble(s, &l.settings_trouble);
	bool first = true;
	for (size_t i = 0; i < l.run.diags.len; i++) {
		const struct diag *g = &l.run.diags.v[i];
		if (g->src != src) /* a finding in a cluster config read from disk */
			continue;
		if (!first)
			buf_putc(b, ',');
		first = false;
		lsp_put_diag(s, b, g, lint_options_of(&l.run, src)->docs_url);
	}
	lsp_linted_free(&l);
}

/* What kept the linter from its job (an invalid .trainforge.yaml, a
 * shellcheck that cannot run) goes to the client's log. */
void lsp_log_trouble(struct server *s, const struct trouble *t)
{
	for (size_t i = 0; i < t->len; i++) {
		struct buf b = BUF_INIT;
		buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"window/logMessage\","
			     "\"params\":{\"type\":2,\"message\":");
		json_put_str(&b, t->msgs[i], strlen(t->msgs[i]));
		buf_puts(&b, "}}");
		lsp_send(s, &b);
	}
}

/* Publishes d's findings, or an empty set when closing. */
static void publish(struct server *s, struct document *d, bool closing)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\","
		     "\"params\":{\"uri\":");
	json_put_str(&b, d->uri, strlen(d->uri));
	if (!closing)
		buf_printf(&b, ",\"version\":%lld", d->version);
	buf_puts(&b, ",\"diagnostics\":[");
	struct trouble trouble = { 0 };
	if (!closing)
		put_findings(s, d, &b, &trouble);
	buf_puts(&b, "]}}");
	lsp_send(s, &b);
	d->dirty = false;
	lsp_log_trouble(s, &trouble);
	trouble_free(&trouble);
}

static void lint_dirty(struct server *s)
{
	for (size_t i = 0; i < s->n_docs && !s->broken_pipe; i++)
		if (s->docs[i].dirty)
			publish(s, &s->docs[i], false);
}

/* ---- documents ------------------------------------------------------- */

/* The path a URI names: file URIs are percent-decoded; other schemes
 * (untitled:) keep their last segment, named .yaml for YAML documents so
 * that kind detection treats them as YAML. */
static char *uri_path(const char *uri, const char *language)
{
	struct buf b = BUF_INIT;
	const char *p = uri;
	if (strncmp(p, "file://", 7) == 0) {
		p += 7;
		if (strncmp(p, "localhost/", 10) == 0)
			p += 9;
	} else {
		const char *slash = strrchr(p, '/'), *colon = strchr(p, ':');
		p = slash ? slash + 1 : colon ? colon + 1 : p;
	}
	uri_decode(p, &b);
	size_t n = b.len;
	bool yaml = n >= 5 && (!strcmp(b.p + n - 5, ".yaml") || !strcmp(b.p + n - 4, ".yml"));
	if (strncmp(uri, "file://", 7) != 0 && language && !strcmp(language, "yaml") && !yaml)
		buf_puts(&b, ".yaml");
	if (!b.len)
		buf_puts(&b, "untitled");
	return buf_detach(&b);
}

struct document *lsp_find_doc(struct server *s, const char *uri)
{
	for (size_t i = 0; i < s->n_docs; i++)
		if (!strcmp(s->docs[i].uri, uri))
			return &s->docs[i];
	return NULL;
}

static void set_text(struct document *d, const char *text, size_t len)
{
	free(d->text);
	d->text = xstrndup(text, len);
	d->len = len;
	d->dirty = true;
}

static void doc_free(struct document *d)
{
	free(d->uri);
	free(d->path);
	free(d->text);
}

/* ---- methods --------------------------------------------------------- */

static void on_initialize(struct server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	yd_node encs = json_get(doc, params, "capabilities.general.positionEncodings");
	for (size_t i = 0; encs && yd_kind(doc, encs) == YD_SEQUENCE && i < yd_len(doc, encs); i++)
		if (yd_str_eq(doc, yd_item(doc, encs, i), "utf-8"))
			s->utf8 = true;
	s->initialized = true;
	char result[480];
	snprintf(result, sizeof result,
		 "{\"capabilities\":{\"positionEncoding\":\"%s\",\"textDocumentSync\":"
		 "{\"openClose\":true,\"change\":1,\"save\":{\"includeText\":false}},"
		 "\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\","
		 "\"source.fixAll.trainforge\"]}},"
		 "\"serverInfo\":{\"name\":\"trainforge\",\"version\":\"%s\"}}",
		 s->utf8 ? "utf-8" : "utf-16", TF_VERSION);
	reply(s, doc, id, result);
}

static void on_open(struct server *s, const yamldoc *doc, yd_node params)
{
	size_t len;
	const char *uri = json_str(doc, params, "textDocument.uri", NULL);
	const char *text = json_str(doc, params, "textDocument.text", &len);
	if (!uri || !text) {
		fputs("trainforge lsp: didOpen without uri or text; ignored\n", stderr);
		return;
	}
	struct document *d = lsp_find_doc(s, uri);
	if (!d) {
		s->docs = xgrow(s->docs, &s->cap_docs, s->n_docs + 1, sizeof *s->docs);
		d = &s->docs[s->n_docs++];
		*d = (struct document){ .uri = xstrdup(uri) };
		d->path = uri_path(uri, json_str(doc, params, "textDocument.languageId", NULL));
	}
	long long version = 0;
	yd_int(doc, json_get(doc, params, "textDocument.version"), &version);
	d->version = version;
	set_text(d, text, len);
}

static void on_change(struct server *s, const yamldoc *doc, yd_node params)
{
	const char *uri = json_str(doc, params, "textDocument.uri", NULL);
	struct document *d = uri ? lsp_find_doc(s, uri) : NULL;
	yd_node changes = json_get(doc, params, "contentChanges");
	if (!d || !changes || yd_kind(doc, changes) != YD_SEQUENCE || !yd_len(doc, changes)) {
		fputs("trainforge lsp: didChange for a document that is not open, or without changes; ignored\n", stderr);
		return;
	}
	/* full sync: the last change holds the whole text */
	yd_node last = yd_item(doc, changes, yd_len(doc, changes) - 1);
	size_t len;
	const char *text = json_str(doc, last, "text", &len);
	if (!text || json_get(doc, last, "range")) {
		fputs("trainforge lsp: didChange without the full text (this server syncs whole documents); ignored\n", stderr);
		return;
	}
	yd_int(doc, json_get(doc, params, "textDocument.version"), &d->version);
	set_text(d, text, len);
}

/* A save re-lints every open document: a batch script's findings depend
 * on the cluster config on disk that it pairs with. */
static void on_save(struct server *s, const yamldoc *doc, yd_node params)
{
	const char *uri = json_str(doc, params, "textDocument.uri", NULL);
	struct document *d = uri ? lsp_find_doc(s, uri) : NULL;
	size_t len;
	const char *text = json_str(doc, params, "text", &len);
	if (d && text)
		set_text(d, text, len);
	for (size_t i = 0; i < s->n_docs; i++)
		s->docs[i].dirty = true;
}

static void on_close(struct server *s, const yamldoc *doc, yd_node params)
{
	const char *uri = json_str(doc, params, "textDocument.uri", NULL);
	struct document *d = uri ? lsp_find_doc(s, uri) : NULL;
	if (!d)
		return;
	publish(s, d, true);
	doc_free(d);
	*d = s->docs[--s->n_docs];
}

static void on_request(struct server *s, const yamldoc *doc, yd_node id, const char *method,
		       yd_node params)
{
	if (!strcmp(method, "initialize")) {
		if (s->initialized)
			lsp_reply_error(s, doc, id, E_INVALID, "initialize was already received");
		else if (s->shut_down)
			lsp_reply_error(s, doc, id, E_INVALID, "the server is shut down");
		else
			on_initialize(s, doc, id, params);
	} else if (s->shut_down) {
		lsp_reply_error(s, doc, id, E_INVALID, "the server is shut down");
	} else if (!s->initialized) {
		lsp_reply_error(s, doc, id, E_NOT_INITIALIZED, "the server is not initialized");
	} else if (!strcmp(method, "textDocument/codeAction")) {
		lsp_code_action(s, doc, id, params);
	} else if (!strcmp(method, "shutdown")) {
		s->shut_down = true;
		for (size_t i = 0; i < s->n_docs; i++)
			s->docs[i].dirty = false;
		reply(s, doc, id, "null");
	} else {
		lsp_reply_error(s, doc, id, E_NO_METHOD, "method not found");
	}
}

static void on_notification(struct server *s, const yamldoc *doc, const char *method,
			    yd_node params)
{
	if (!strcmp(method, "exit")) {
		s->exiting = true;
		return;
	}
	if (!s->initialized || s->shut_down)
		return;
	if (!strcmp(method, "textDocument/didOpen"))
		on_open(s, doc, params);
	else if (!strcmp(method, "textDocument/didChange"))
		on_change(s, doc, params);
	else if (!strcmp(method, "textDocument/didSave"))
		on_save(s, doc, params);
	else if (!strcmp(method, "textDocument/didClose"))
		on_close(s, doc, params);
	/* initialized, $/cancelRequest, $/setTrace and the rest need nothing */
}

static void handle(struct server *s, const char *body, size_t len)
{
	struct rpc_msg m;
	rpc_msg_parse(&m, body, len);
	if (!m.doc) {
		lsp_reply_error(s, NULL, 0, E_PARSE, "parse error: the message is not JSON");
		return;
	}
	switch (m.kind) {
	case RPC_RESPONSE: break; /* a response to a request we never send */
	case RPC_INVALID:
		lsp_reply_error(s, m.doc, m.good_id ? m.id : 0, E_INVALID, "invalid request");
		break;
	case RPC_BAD_PARAMS:
		lsp_reply_error(s, m.doc, m.id, E_PARAMS, "params must be an object or an array");
		break;
	case RPC_REQUEST: on_request(s, m.doc, m.id, m.method, m.params); break;
	case RPC_NOTIFICATION: on_notification(s, m.doc, m.method, m.params); break;
	}
	rpc_msg_free(&m);
}

/* ---- main ------------------------------------------------------------ */

static int parse_args(struct server *s, int argc, char **argv, const char **select,
		      const char **ignore)
{
	struct options p;
	options_init(&p, CMD_LSP, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		const char *v = p.value;
		switch (id) {
		case OPTS_HELP: return -1;
		case OPT_STDIO:
		case OPT_CLIENT_PROCESS_ID:
			break; /* what generic clients pass; stdio is the only transport */
		case OPT_SHELLCHECK:
			if (!strcmp(v, "auto"))
				s->opt.shellcheck = SHELLCHECK_AUTO;
			else if (!strcmp(v, "off"))
				s->opt.shellcheck = SHELLCHECK_OFF;
			else if (!strcmp(v, "required") || strchr(v, '/')) {
				s->opt.shellcheck = SHELLCHECK_REQUIRED;
				s->opt.shellcheck_program = strchr(v, '/') ? v : NULL;
			} else {
				return options_bad_value(&p);
			}
			break;
		case OPT_SELECT: *select = v; break;
		case OPT_IGNORE: *ignore = v; break;
		default:
			if (id == OPTS_OPERAND) {
				fprintf(stderr, "trainforge: unexpected '%s'\n", v);
				options_usage(stderr, CMD_LSP);
			}
			return EXIT_TROUBLE;
		}
	}
	return EXIT_CLEAN;
}

static int apply_selection(struct server *s, const char *select, const char *ignore)
{
	if (select) {
		memset(s->opt.enabled, 0, sizeof s->opt.enabled);
		if (!selectors_apply(select, s->opt.enabled, true))
			return EXIT_TROUBLE;
	}
	if (ignore && !selectors_apply(ignore, s->opt.enabled, false))
		return EXIT_TROUBLE;
	return EXIT_CLEAN;
}

int cmd_lsp(int argc, char **argv)
{
	struct server s = { .out = STDOUT_FILENO };
	lint_options_init(&s.opt);
	s.opt.check_jobspec_at = jobspec_lint_at;
	s.opt.shellcheck = SHELLCHECK_OFF;
	s.opt.pair_tracked = true; /* one file at a time: git says which config */
	const char *select = NULL, *ignore = NULL;
	int rc = parse_args(&s, argc, argv, &select, &ignore);
	if (!rc)
		rc = apply_selection(&s, select, ignore);
	if (!rc && !cli_prices_setup(NULL, false))
		rc = EXIT_TROUBLE;
	if (rc)
		return rc < 0 ? EXIT_CLEAN : rc;
	signal(SIGPIPE, SIG_IGN); /* a vanished client is a failed write, not a death */
	rpc_in_init(&s.in, STDIN_FILENO, RPC_HEADERS, "trainforge lsp");
	unsigned burst = 0;
	while (!s.exiting && !s.broken_pipe) {
		bool dirty = false;
		for (size_t i = 0; i < s.n_docs; i++)
			dirty |= s.docs[i].dirty;
		if (dirty && (burst >= MAX_BURST || !rpc_pending(&s.in))) {
			lint_dirty(&s);
			burst = 0;
		}
		const char *body;
		size_t len;
		enum rpc_status st = rpc_read(&s.in, &body, &len);
		if (st == RPC_EOF)
			break;
		if (st == RPC_TOO_LARGE)
			lsp_reply_error(&s, NULL, 0, E_INVALID, "message too large");
		else
			handle(&s, body, len);
		burst++;
	}
	for (size_t i = 0; i < s.n_docs; i++)
		doc_free(&s.docs[i]);
	free(s.docs);
	free(s.shown);
	rpc_in_free(&s.in);
	return s.shut_down && !s.broken_pipe ? EXIT_CLEAN : EXIT_FINDINGS;
}
