/* Mustache templates (the spec's required modules: variables, sections,
 * inverted sections, comments, partials, set delimiters; no lambdas).
 * A template is compiled once, with positions for every tag, and then
 * rendered against a tv context. Rendering is bounded: section and
 * partial nesting, output size and work each have a limit that ends
 * the render with an error, so a hostile template or context cannot
 * crash or hang it. */
#ifndef TF_MUSTACHE_H
#define TF_MUSTACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "escape.h"
#include "tvalue.h"

struct tpl;
struct tpl_partials;

/* Where and why compiling or rendering failed. Fixed-size fields, so
 * the caller has nothing to free; long names and messages are cut. */
struct tpl_error {
	char name[128];     /* the template or partial the position is in */
	uint32_t line, col; /* 1-based; col counts code points */
	char msg[256];
};

enum {
	TPL_DEFAULT_DEPTH = 64, /* sections and partials nested */
	TPL_MAX_DEPTH = 1024,   /* cap on max_depth: render recursion is C recursion */
};
#define TPL_DEFAULT_OUTPUT ((size_t)64 << 20)  /* bytes */
#define TPL_DEFAULT_STEPS ((size_t)20000000)   /* tags and texts visited */

struct tpl_render_opts {
	/* A missing variable, section or partial is an error (a silently
	 * empty --partition= is a bug); off, it renders as empty, as the
	 * spec wants. A null value is not missing. */
	bool strict;
	/* Applied to string values of {{name}}; {{{name}}} and {{&name}}
	 * are never escaped. Numbers, booleans and null print bare (their
	 * text is inert everywhere), so they keep their type in YAML.
	 * NULL means esc_none. */
	esc_fn escaper;
	unsigned max_depth; /* 0: TPL_DEFAULT_DEPTH; capped at TPL_MAX_DEPTH */
	size_t max_output;  /* 0: TPL_DEFAULT_OUTPUT */
	size_t max_steps;   /* 0: TPL_DEFAULT_STEPS; stops output-free blowups */
};

/* Compiles text (len bytes). name is used in error positions. On error
 * returns NULL and fills err (if not NULL), e.g. 3:5 "unclosed section
 * 'queues' opened at 3:5" or 7:1 "mismatched close 'a' for section 'b'
 * opened at 2:1". */
struct tpl *tpl_compile(const char *name, const char *text, size_t len,
			struct tpl_error *err);
void tpl_free(struct tpl *t);
const char *tpl_name(const struct tpl *t);

/* Named partials for {{> name}}. Each is compiled on its own, with the
 * default delimiters, when added; adding a name again replaces it. */
struct tpl_partials *tpl_partials_new(void);
bool tpl_partials_add(struct tpl_partials *p, const char *name,
		      const char *text, size_t len, struct tpl_error *err);
void tpl_partials_free(struct tpl_partials *p);

/* Renders t with ctx (any kind; NULL reads as null) as the root of the
 * context stack and appends the result to out. partials and opts may be
 * NULL (no partials; defaults, not strict). On error out is left as it
 * was and err (if not NULL) says where, in t or in a partial. */
bool tpl_render(const struct tpl *t, const struct tv *ctx,
		const struct tpl_partials *partials,
		const struct tpl_render_opts *opts, struct buf *out,
		struct tpl_error *err);

/* Appends "name:line:col: msg". */
void tpl_error_format(const struct tpl_error *err, struct buf *out);

#endif
