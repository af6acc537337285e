/* The storage behind a yamldoc, shared by the files that build it
 * (yamldoc_load.c, yamldoc_scalar.c) and read it (yamldoc.c,
 * yamldoc_path.c). Not part of the API. */
#ifndef TF_YAMLDOC_INTERNAL_H
#define TF_YAMLDOC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "yamldoc.h"
#include "yamldoc_image.h"

/* One node in 16 bytes: a large config has half a million of them, and
 * the tree must stay within a few times the input. A container's end
 * position is stored in kids, just before its children. A scalar's is
 * kept only where it does not follow from the start and the text: one on
 * one line ends len columns (plus its quotes) after it starts; the
 * others (multi-line, escaped or non-ASCII) are in doc->ends. */
struct yd_cell {
	unsigned kind : 2;       /* enum yd_kind */
	unsigned type : 3;       /* enum yd_type or YD_T__NUM12, scalars only */
	unsigned quoted : 1;     /* quoted (on one line, the end is past two
				    quotes) or a block scalar */
	unsigned end_listed : 1; /* a scalar's end is in doc->ends */
	unsigned interned : 1;   /* key text shared by every equal key */
	unsigned col : 24;       /* 1-based; 0 when wider, see doc->wide */
	uint32_t line;
	uint32_t off; /* scalar: text in strings; container: kids, or CELL_OPEN */
	uint32_t len; /* scalar: bytes; container: children */
};

_Static_assert(sizeof(struct yd_cell) == 16, "a cell is 16 bytes");

enum { CELL_COL_MAX = (1 << 24) - 1 };

/* The off of a container not closed yet: an alias to it is a cycle. */
#define CELL_OPEN UINT32_MAX

/* A position kept beside its cell, by node. Entries are made when their
 * node is, so each list is sorted by node. */
struct yd_end {
	uint32_t node, line, col;
};

struct yd_wide {
	uint32_t node, col; /* a start column past CELL_COL_MAX */
};

struct yd_met;
struct yd_met_key;

struct yamldoc {
	struct yd_cell *cells;
	size_t n_cells, cap_cells;
	struct yd_end *ends;
	size_t n_ends, cap_ends;
	struct yd_wide *wide;
	size_t n_wide, cap_wide;
	uint32_t *kids; /* per container: end line, end column, children */
	size_t n_kids, cap_kids;
	char *strings;
	size_t n_strings, cap_strings;
	struct yd_issue *issues;
	size_t n_issues, cap_issues;
	const struct yd_rec *image; /* a compiled-in tree: spans are read
				       from it, its cells have no column */
	struct yd_rec *image_of;    /* made by yamldoc_image_of, freed with doc */
	/* where paths meet nodes, made on demand (yamldoc_path.c) */
	struct yd_met *met;
	struct yd_met_key *met_keys;
	size_t n_met_keys, path_searches;
	yd_node root;
	bool broken;
	bool pyyaml; /* yamldoc_set_pyyaml */
};

/* ---- scalar text (yamldoc_scalar.c) ---- */

/* A cell's type beyond enum yd_type: a number only YAML 1.2 reads
 * (7.5e9, 176e9), which yd_type gives as a number or, in a document read
 * as PyYAML reads it, as a string. */
enum { YD_T__NUM12 = 7 };

/* PyYAML's YAML 1.1 resolution of a plain scalar of len bytes, s[len]
 * being NUL: an enum yd_type or YD_T__NUM12. */
unsigned yd_resolve_plain(const char *s, size_t len);

/* Appends len bytes and a NUL to doc's text; returns their offset. */
uint32_t yd_text_add(yamldoc *doc, const char *s, size_t len);

/* Key text stored once per distinct key, and how it resolves. The table
 * lives while a document loads. */
struct yd_intern {
	uint32_t off, len, hash;
	uint8_t type; /* as yd_resolve_plain reads it as a plain scalar */
	bool used;
};

struct yd_interns {
	struct yd_intern *v; /* open addressing */
	size_t cap, n;
};

/* The stored copy of key text; NULL for a long key or when the table is
 * full, which the caller then copies like any value. */
const struct yd_intern *yd_intern(struct yd_interns *t, yamldoc *doc,
				  const char *s, size_t len);

#endif
