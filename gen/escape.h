/* Escapers: each appends one value to out so that it reads back as
 * exactly that value in its output language, whatever bytes it holds.
 * tpl_render applies the chosen one to the string value of every
 * {{name}}. */
#ifndef TF_ESCAPE_H
#define TF_ESCAPE_H

#include <stddef.h>

#include "buf.h"

typedef void (*esc_fn)(struct buf *out, const char *s, size_t len);

/* & < > " as entities: exactly what the Mustache spec expects. */
void esc_html(struct buf *out, const char *s, size_t len);
/* A complete YAML double-quoted scalar, quotes included. \ and " are
 * escaped, and so is every character YAML (and PyYAML) would not carry
 * verbatim inside quotes: C0 and C1 controls, DEL, U+2028/2029, BOM and
 * non-characters. Invalid UTF-8 becomes U+FFFD, since a YAML stream
 * cannot hold it at all. */
void esc_yaml(struct buf *out, const char *s, size_t len);
/* One POSIX shell word: single-quoted, ' written as '\'' and "" as '';
 * a value holding $ or a backquote double-quoted, with $ ` " \ escaped.
 * Nothing inside expands. NUL bytes are dropped: no shell word can
 * hold one (the shell drops them too). */
void esc_shell(struct buf *out, const char *s, size_t len);
/* Verbatim. */
void esc_none(struct buf *out, const char *s, size_t len);

#endif
