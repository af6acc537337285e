/* The values templates render from: a small JSON-like tree (null, bool,
 * number, string, list, map with ordered keys). The generator builds one
 * in C; the spec tests convert one from a parsed JSON/YAML document.
 * A tree owns its children: containers take ownership of what is added
 * to them and one tv_free releases the whole tree. */
#ifndef TF_TVALUE_H
#define TF_TVALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "yamldoc.h"

struct tv;

enum tv_kind { TV_NULL, TV_BOOL, TV_NUM, TV_STR, TV_LIST, TV_MAP };

/* Constructors; each returns a new tree the caller owns. */
struct tv *tv_null(void);
struct tv *tv_bool(bool b);
struct tv *tv_num(double n);
/* Copies s; tv_str(NULL) gives null so optional fields need no branch. */
struct tv *tv_str(const char *s);
struct tv *tv_strn(const char *s, size_t len);
struct tv *tv_list_new(void);
struct tv *tv_map_new(void);

/* Both take ownership of the value. tv_map_set replaces (and frees) the
 * value of an existing key, keeping its place in the key order. Adding
 * to something that is not a list or map is a programming error and
 * aborts. */
void tv_list_push(struct tv *list, struct tv *item);
void tv_map_set(struct tv *map, const char *key, struct tv *value);

/* Frees the whole tree, without recursion; NULL is a no-op. */
void tv_free(struct tv *v);

/* Readers. NULL reads as null. */
enum tv_kind tv_kind(const struct tv *v);
/* Items of a list, pairs of a map, bytes of a string, else 0. */
size_t tv_len(const struct tv *v);
const struct tv *tv_item(const struct tv *list, size_t i);
const char *tv_map_key(const struct tv *map, size_t i);
const struct tv *tv_map_value(const struct tv *map, size_t i);
/* The value under key (len bytes), or NULL when v is not a map or has no
 * such key: NULL means missing, a TV_NULL value means present but null. */
const struct tv *tv_map_get(const struct tv *v, const char *key, size_t len);
/* String bytes (NUL-terminated) or NULL for a non-string. */
const char *tv_str_get(const struct tv *v, size_t *len);
double tv_num_get(const struct tv *v);
bool tv_bool_get(const struct tv *v);

/* Mustache truthiness: null, false, "" and [] are false; numbers (0
 * included), other strings, other lists and every map are true. */
bool tv_truthy(const struct tv *v);

/* Appends the text of a scalar: null is empty, booleans are true/false,
 * integral numbers print without ".0", others as the shortest %g that
 * reads back to the same double (1.21, not 1.2100000000000000). Returns
 * false, appending nothing, for a list or map. */
bool tv_format(const struct tv *v, struct buf *out);

/* Converts node n of doc (JSON parses as YAML). Scalars take the type
 * yd_type gives them; a number that does not fit a double keeps its text
 * as a string; pairs whose key is not a scalar are dropped. Aliases are
 * copied, within the budget the loader already put on them. */
struct tv *tv_from_yaml(const yamldoc *doc, yd_node n);

#endif
