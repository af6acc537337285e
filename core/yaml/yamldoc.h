/* A YAML document as a compact, read-only tree with a position for every
 * key and value, built from libyaml events. Problems in the input
 * (syntax, duplicate keys, limits) are collected as issues with
 * positions; the caller turns them into diagnostics of its own kind.
 * Aliases share the anchored node, so the tree is a DAG: walkers must
 * bound their visits, and the loader bounds what aliases can expand to. */
#ifndef TF_YAMLDOC_H
#define TF_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct yamldoc yamldoc;
typedef uint32_t yd_node; /* 0 is "no node" */

enum yd_kind { YD_NONE, YD_SCALAR, YD_MAPPING, YD_SEQUENCE };
/* How a scalar resolves under YAML 1.1, as PyYAML (and so
 * ParallelCluster) reads it; quoted and block scalars are strings. Two
 * readings depend on the document's mode (yamldoc_read_as_pyyaml):
 * numbers only YAML 1.2 knows (7.5e9, 176e9) are numbers unless the
 * document is read as PyYAML reads it, where they are strings; dates
 * (2024-01-01) are timestamps only there, strings otherwise. A value
 * with a template placeholder in it (${SUBNET}, subnet-<ID>) is of no
 * type yet: YD_T_UNKNOWN. */
enum yd_type { YD_T_NULL, YD_T_BOOL, YD_T_INT, YD_T_FLOAT, YD_T_STRING, YD_T_TIMESTAMP,
	       YD_T_UNKNOWN };

struct yd_span {
	uint32_t line, col, end_line, end_col; /* 1-based, end exclusive */
};

enum yd_issue_code {
	YD_ISSUE_SYNTAX,
	YD_ISSUE_DUPLICATE_KEY,
	YD_ISSUE_DEPTH,
	YD_ISSUE_ALIAS_BUDGET,
	YD_ISSUE_MULTI_DOC,
};

struct yd_issue {
	enum yd_issue_code code;
	struct yd_span span;
	char *msg;
};

struct yd_limits {
	unsigned max_depth;       /* nesting of mappings and sequences */
	size_t max_alias_nodes;   /* nodes that aliases may re-expose */
};

extern const struct yd_limits yd_default_limits;

/* Parses text (len bytes, UTF-8). Never returns NULL; a document with
 * issues holds what was parsed before the first fatal one. */
yamldoc *yamldoc_parse(const char *text, size_t len,
		       const struct yd_limits *limits);
/* Parses the text prepared from a template (tmpl.h), which must outlive
 * the call: positions are the original text's, a scalar that holds a
 * placeholder without a value is YD_T_UNKNOWN, and a key in two arms of
 * one {% if %} is no duplicate. */
struct tmpl;
yamldoc *yamldoc_parse_tmpl(const struct tmpl *t, const struct yd_limits *limits);
void yamldoc_free(yamldoc *doc);
/* Reads the scalars as PyYAML's safe_load does (YAML 1.1 only: dates,
 * no 1.2 numbers), which is how ParallelCluster reads its config. */
void yamldoc_set_pyyaml(yamldoc *doc, bool on);

size_t yamldoc_issue_count(const yamldoc *doc);
const struct yd_issue *yamldoc_issue(const yamldoc *doc, size_t i);
/* True when an issue stops the tree from being trusted (syntax, limits). */
bool yamldoc_broken(const yamldoc *doc);
size_t yamldoc_node_count(const yamldoc *doc);

yd_node yd_root(const yamldoc *doc);
enum yd_kind yd_kind(const yamldoc *doc, yd_node n);
/* Pairs of a mapping, items of a sequence, bytes of a scalar. */
size_t yd_len(const yamldoc *doc, yd_node n);
yd_node yd_key(const yamldoc *doc, yd_node map, size_t i);
yd_node yd_value(const yamldoc *doc, yd_node map, size_t i);
yd_node yd_item(const yamldoc *doc, yd_node seq, size_t i);
/* The children in order, for walks that visit them all: keys and values
 * alternating (2 * yd_len of them) in a mapping, items in a sequence;
 * NULL with *count 0 for anything else. */
const yd_node *yd_children(const yamldoc *doc, yd_node n, size_t *count);
/* The value under the first scalar key equal to key, or 0. */
yd_node yd_get(const yamldoc *doc, yd_node map, const char *key);
/* The key node itself, for positions. */
yd_node yd_get_key(const yamldoc *doc, yd_node map, const char *key);
/* Scalar text (NUL-terminated) or NULL for a non-scalar. */
const char *yd_str(const yamldoc *doc, yd_node n, size_t *len);
bool yd_str_eq(const yamldoc *doc, yd_node n, const char *s);
enum yd_type yd_type(const yamldoc *doc, yd_node n);
bool yd_quoted(const yamldoc *doc, yd_node n);
/* Typed reads; false (and *out untouched) when n is not of that type. */
bool yd_bool(const yamldoc *doc, yd_node n, bool *out);
bool yd_int(const yamldoc *doc, yd_node n, long long *out);
bool yd_number(const yamldoc *doc, yd_node n, double *out);
struct yd_span yd_span(const yamldoc *doc, yd_node n);
/* The last line that holds content of n (block collections end where the
 * next token starts, which is often the following line). */
uint32_t yd_last_line(const yamldoc *doc, yd_node n);
/* Appends the JSON array path from the root to n (first path found, with
 * a visit budget); writes "null" when n cannot be found. */
void yd_path_json(const yamldoc *doc, yd_node n, struct buf *out);
/* The same path in dotted form: Scheduling.SlurmQueues[0].Name */
void yd_path_dotted(const yamldoc *doc, yd_node n, struct buf *out);

/* The innermost scalar whose span holds line:col, or 0. */
yd_node yd_at(const yamldoc *doc, uint32_t line, uint32_t col);

/* A tree compiled into the binary (see yamldoc_image.h). */
struct yd_image;
yamldoc *yamldoc_from_image(const struct yd_image *image);

#endif
