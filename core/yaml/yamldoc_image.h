/* A yamldoc as static tables, written by the build-time program that turns
 * embedded JSON/YAML (the schemas) into C, so that lint never parses them
 * at start-up. Each record holds its full span; a loaded document keeps
 * a smaller record (yamldoc_internal.h) and wrapping an image copies the
 * fields that one needs. */
#ifndef TF_YAMLDOC_IMAGE_H
#define TF_YAMLDOC_IMAGE_H

#include <stdint.h>

struct yd_rec {
	uint8_t kind;   /* enum yd_kind */
	uint8_t type;   /* enum yd_type, scalars only */
	uint8_t quoted; /* scalar was quoted or a block scalar */
	uint8_t flags;
	uint32_t line, col, end_line, end_col;
	uint32_t off, len; /* scalar: bytes in strings; container: kids */
};

struct yd_cell;

struct yd_image {
	const struct yd_rec *nodes; /* nodes[0] is the unused "no node" */
	const struct yd_cell *cells; /* the same nodes as a document's cells */
	uint32_t n_nodes;
	const uint32_t *kids;
	const char *strings;
	uint32_t root;
};

struct yamldoc;
/* Describes doc's storage as an image (for the embedding program). */
void yamldoc_image_of(const struct yamldoc *doc, struct yd_image *out);

#endif
