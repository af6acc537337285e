/* The storage of compiled templates, shared by compiling (mustache.c)
 * and rendering (mustache_render.c). Not an API. */
#ifndef TF_MUSTACHE_INTERNAL_H
#define TF_MUSTACHE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "mustache.h"

/* A compiled template is a flat node array: a section's body is the run
 * of nodes after it, up to its `end`, so compiling needs no recursion
 * and rendering recurses only once per nesting level. */
enum node_kind {
	N_TEXT,     /* literal bytes */
	N_BOL,      /* a line of the template starts here: partial indentation */
	N_VAR,      /* {{name}}: escaped */
	N_RAW,      /* {{{name}}} and {{&name}} */
	N_SECTION,
	N_INVERTED,
	N_PARTIAL,
};

struct node {
	enum node_kind kind;
	size_t off, len;         /* the text, or the name (trimmed), in src */
	size_t tag;              /* the tag's opening delimiter, for errors */
	size_t end;              /* sections: first node after the body */
	size_t ind_off, ind_len; /* standalone partial: its indentation */
	bool standalone;         /* partial: indent it (spec "Indentation") */
};

struct tpl {
	char *name;
	char *src; /* a copy: nodes point into it, errors count lines in it */
	size_t len;
	struct node *v;
	size_t n, cap;
};

struct tpl_partials {
	struct tpl **v;
	size_t len, cap;
};

/* Names are shown in messages up to this many bytes. */
#define NAME_MAX_SHOWN 64
#define SHOW(len) ((int)((len) < NAME_MAX_SHOWN ? (len) : NAME_MAX_SHOWN))

/* Fills err with t's name, the line and column of off, and the message. */
void tpl_verror(struct tpl_error *err, const struct tpl *t, size_t off,
		const char *fmt, va_list ap);
/* The named partial, or NULL. */
struct tpl **tpl_partial_slot(const struct tpl_partials *p, const char *name, size_t len);

#endif
