/* The reader of pyargs.h: tokens first (one pass, linear in the text),
 * then the calls that define the command line. */
#include "pyargs.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum tok_kind { T_NAME, T_STR, T_DYNSTR, T_NUM, T_PUNCT };

struct tok {
	enum tok_kind kind;
	char punct;          /* T_PUNCT */
	const char *s;       /* T_NAME, T_NUM: the text; T_STR: the value */
	size_t len;
	char *owned;         /* T_STR with escapes: the unescaped value */
	unsigned depth;      /* brackets open before it */
	uint32_t line;
};

struct toks {
	struct tok *v;
	size_t n, cap;
	const char *why;     /* the text could not be read to its end */
	uint32_t why_line;
};

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

static struct tok *push(struct toks *t, enum tok_kind kind, const char *s, size_t len,
			unsigned depth, uint32_t line)
{
	t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
	struct tok *k = &t->v[t->n++];
	memset(k, 0, sizeof *k);
	k->kind = kind;
	k->s = s;
	k->len = len;
	k->depth = depth;
	k->line = line;
	return k;
}

/* A string literal at s[i] (after its prefix): returns the index past
 * its closing quote, or len when it does not close. */
static size_t read_string(const char *s, size_t len, size_t i, bool raw, struct tok *k,
			  uint32_t *line)
{
	char q = s[i];
	bool triple = i + 2 < len && s[i + 1] == q && s[i + 2] == q;
	size_t open = triple ? 3 : 1, start = i + open;
	size_t j = start;
	bool escapes = false;
	while (j < len) {
		if (s[j] == '\n') {
			(*line)++;
			if (!triple)
				break;
		}
		if (s[j] == '\\' && j + 1 < len) {
			escapes = escapes || !raw;
			if (s[j + 1] == '\n')
				(*line)++;
			j += 2;
			continue;
		}
		if (s[j] == q && (!triple || (j + 2 < len && s[j + 1] == q && s[j + 2] == q)))
			break;
		j++;
	}
	if (j >= len || (!triple && s[j] != q))
		return len;
	k->s = s + start;
	k->len = j - start;
	if (escapes) { /* the escapes flag names contain: \\ \' \" */
		char *o = xmalloc(k->len + 1);
		size_t n = 0;
		for (size_t p = start; p < j; p++) {
			if (s[p] == '\\' && p + 1 < j)
				p++;
			o[n++] = s[p];
		}
		o[n] = '\0';
		k->owned = o;
		k->s = o;
		k->len = n;
	}
	return j + open;
}

static void tokenize(const char *s, size_t len, struct toks *t)
{
	unsigned depth = 0;
	uint32_t line = 1;
	for (size_t i = 0; i < len;) {
		char c = s[i];
		if (c == '\n') {
			line++;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\\') {
			i++;
		} else if (c == '#') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (name_start(c)) {
			size_t j = i;
			while (j < len && name_char(s[j]))
				j++;
			bool raw = false, dyn = false, prefix = j - i <= 2;
			for (size_t p = i; p < j && prefix; p++) {
				char l = (char)(s[p] | 0x20);
				prefix = l == 'r' || l == 'b' || l == 'u' || l == 'f';
				raw |= l == 'r';
				dyn |= l == 'f';
			}
			if (prefix && j < len && (s[j] == '\'' || s[j] == '"')) {
				uint32_t at = line;
				struct tok *k = push(t, dyn ? T_DYNSTR : T_STR, NULL, 0, depth, at);
				i = read_string(s, len, j, raw, k, &line);
				if (!k->s) {
					t->n--; /* no token: the text ends inside it */
					t->why = "a string that does not close";
					t->why_line = at;
					return;
				}
				continue;
			}
			push(t, T_NAME, s + i, j - i, depth, line);
			i = j;
		} else if (c == '\'' || c == '"') {
			uint32_t at = line;
			struct tok *k = push(t, T_STR, NULL, 0, depth, at);
			i = read_string(s, len, i, false, k, &line);
			if (!k->s) {
				t->n--;
				t->why = "a string that does not close";
				t->why_line = at;
				return;
			}
		} else if (c >= '0' && c <= '9') {
			size_t j = i;
			while (j < len && (name_char(s[j]) || s[j] == '.'))
				j++;
			push(t, T_NUM, s + i, j - i, depth, line);
			i = j;
		} else {
			if (c == ')' || c == ']' || c == '}')
				depth = depth ? depth - 1 : 0;
			push(t, T_PUNCT, s + i, 1, depth, line)->punct = c;
			if (c == '(' || c == '[' || c == '{') {
				if (++depth > PY_MAX_DEPTH) {
					t->why = "brackets nested deeper than the reader follows";
					t->why_line = line;
					return;
				}
			}
			i++;
		}
	}
}

static bool is_name(const struct tok *k, const char *name)
{
	return k->kind == T_NAME && k->len == strlen(name) && !memcmp(k->s, name, k->len);
}

static bool is_punct(const struct tok *k, char c)
{
	return k->kind == T_PUNCT && k->punct == c;
}

/* The token after the call's ')' , from the '(' at open. */
static size_t call_end(const struct toks *t, size_t open)
{
	size_t i = open + 1;
	while (i < t->n && !(is_punct(&t->v[i], ')') && t->v[i].depth == t->v[open].depth))
		i++;
	return i;
}

static void incomplete(struct py_args *a, const char *why, uint32_t line)
{
	if (a->complete) {
		a->complete = false;
		a->why = why;
		a->why_line = line;
	}
}

static char *dup_tok(const struct tok *k)
{
	return xstrndup(k->s, k->len);
}

static enum py_action action_of(const struct tok *k)
{
	static const struct { const char *name; enum py_action act; } actions[] = {
		{ "store", PY_STORE }, { "store_true", PY_SWITCH }, { "store_false", PY_SWITCH },
		{ "store_const", PY_SWITCH }, { "count", PY_SWITCH }, { "help", PY_SWITCH },
		{ "version", PY_SWITCH }, { "append", PY_APPEND }, { "extend", PY_APPEND },
		{ "append_const", PY_SWITCH },
	};
	for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
		if (k->len == strlen(actions[i].name) && !memcmp(k->s, actions[i].name, k->len))
			return actions[i].act;
	return PY_OTHER;
}

/* One keyword argument key=value of add_argument, value tokens [v, end). */
static void keyword(struct py_args *a, struct py_arg *arg, const struct tok *key,
		    const struct toks *t, size_t v, size_t end)
{
	const struct tok *val = v < end ? &t->v[v] : NULL;
	bool one = v + 1 == end;
	if (is_name(key, "dest") && val && val->kind == T_STR && one) {
		free((char *)arg->dest);
		arg->dest = dup_tok(val);
	} else if (is_name(key, "action") && val) {
		if (val->kind == T_STR && one) {
			arg->action = action_of(val);
		} else {
			bool negatable = false;
			for (size_t i = v; i < end; i++)
				negatable |= is_name(&t->v[i], "BooleanOptionalAction");
			arg->action = negatable ? PY_SWITCH : PY_OTHER;
			for (size_t f = 0, n = arg->n_flags; negatable && f < n; f++) {
				const char *fl = arg->flags[f];
				if (strncmp(fl, "--", 2) || arg->n_flags >= PY_MAX_FLAGS)
					continue;
				char *no = xmalloc(strlen(fl) + 4);
				strcpy(no, "--no-");
				strcat(no, fl + 2);
				arg->flags[arg->n_flags++] = no;
			}
		}
	} else if (is_name(key, "required") && val && one) {
		arg->required = is_name(val, "True");
		if (!is_name(val, "True") && !is_name(val, "False"))
			incomplete(a, "required= that is not True or False", key->line);
	} else if (is_name(key, "nargs") && val && one) {
		arg->nargs_zero = (val->kind == T_STR && val->len == 1 && (val->s[0] == '?' || val->s[0] == '*')) ||
				  (val->kind == T_NUM && val->len == 1 && val->s[0] == '0');
	}
}

/* add_argument( ... ) from the '(' at open to its ')' at end. */
static void add_argument(struct py_args *a, const struct toks *t, size_t open, size_t end)
{
	struct py_arg arg = { .line = t->v[open].line };
	bool positional = false;
	unsigned d = t->v[open].depth + 1;
	for (size_t i = open + 1; i < end;) {
		size_t j = i;
		while (j < end && !(is_punct(&t->v[j], ',') && t->v[j].depth == d))
			j++;
		if (j > i + 1 && t->v[i].kind == T_NAME && is_punct(&t->v[i + 1], '=')) {
			keyword(a, &arg, &t->v[i], t, i + 2, j);
		} else if (j > i && is_punct(&t->v[i], '*')) {
			incomplete(a, "add_argument with *args or **kwargs", t->v[i].line);
		} else if (j == i + 1 && t->v[i].kind == T_STR) {
			const struct tok *k = &t->v[i];
			if (k->len && k->s[0] == '-' && arg.n_flags < PY_MAX_FLAGS) {
				arg.flags[arg.n_flags++] = dup_tok(k);
			} else if (!positional && !arg.n_flags) {
				positional = true;
				free((char *)arg.dest);
				arg.dest = dup_tok(k);
			}
		} else if (j > i && !arg.n_flags && !positional) {
			incomplete(a, "add_argument with a flag that is not a literal string", t->v[i].line);
		}
		i = j + 1;
	}
	if (positional)
		a->positionals++;
	a->v = xgrow(a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->v[a->n++] = arg;
}

void py_args_read(const char *text, size_t len, struct py_args *out)
{
	memset(out, 0, sizeof *out);
	out->complete = true;
	out->abbrev = true;
	if (len > PY_MAX_BYTES) {
		incomplete(out, "a file larger than the reader's limit", 1);
		return;
	}
	struct toks t = { 0 };
	tokenize(text, len, &t);
	if (t.why)
		incomplete(out, t.why, t.why_line);
	for (size_t i = 0; i < t.n; i++) {
		const struct tok *k = &t.v[i];
		bool call = i + 1 < t.n && is_punct(&t.v[i + 1], '(');
		if (is_name(k, "parse_known_args") || is_name(k, "parse_known_intermixed_args")) {
			out->known_args = true;
		} else if (is_name(k, "HfArgumentParser") && call) {
			out->parser = true;
			incomplete(out, "a parser HfArgumentParser builds from dataclasses", k->line);
		} else if (is_name(k, "add_subparsers")) {
			incomplete(out, "subcommands (add_subparsers)", k->line);
		} else if (is_name(k, "ArgumentParser") && call) {
			out->parser = true;
			size_t end = call_end(&t, i + 1);
			for (size_t p = i + 2; p + 2 < end; p++) {
				if (is_name(&t.v[p], "allow_abbrev") && is_punct(&t.v[p + 1], '='))
					out->abbrev = !is_name(&t.v[p + 2], "False");
				if (is_name(&t.v[p], "parents") && is_punct(&t.v[p + 1], '='))
					incomplete(out, "a parser built on parents=", t.v[p].line);
			}
		} else if (is_name(k, "add_argument") && call && i && is_punct(&t.v[i - 1], '.')) {
			size_t end = call_end(&t, i + 1);
			add_argument(out, &t, i + 1, end);
		}
	}
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].owned);
	free(t.v);
}

void py_args_free(struct py_args *a)
{
	for (size_t i = 0; i < a->n; i++) {
		for (size_t f = 0; f < a->v[i].n_flags; f++)
			free((char *)a->v[i].flags[f]);
		free((char *)a->v[i].dest);
	}
	free(a->v);
	memset(a, 0, sizeof *a);
}

const struct py_arg *py_args_match(const struct py_args *a, const char *flag, size_t len,
				   bool *ambiguous)
{
	*ambiguous = false;
	const struct py_arg *prefix = NULL;
	size_t prefixes = 0;
	for (size_t i = 0; i < a->n; i++)
		for (size_t f = 0; f < a->v[i].n_flags; f++) {
			const char *fl = a->v[i].flags[f];
			size_t n = strlen(fl);
			if (n == len && !memcmp(fl, flag, len))
				return &a->v[i];
			if (a->abbrev && len > 2 && !strncmp(flag, "--", 2) && n > len &&
			    !memcmp(fl, flag, len) && prefix != &a->v[i]) {
				prefix = &a->v[i];
				prefixes++;
			}
		}
	*ambiguous = prefixes > 1;
	return prefixes == 1 ? prefix : NULL;
}
