/* The storage behind a yamldoc, shared by the files that build it
 * (yamldoc_load.c) and read it (yamldoc.c). Not part of the API. */
#ifndef TF_YAMLDOC_INTERNAL_H
#define TF_YAMLDOC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "yamldoc.h"
#include "yamldoc_image.h"

enum { REC_OPEN = 1 }; /* container not closed yet: an alias to it is a cycle */

struct yamldoc {
	struct yd_rec *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t *kids;
	size_t n_kids, cap_kids;
	char *strings;
	size_t n_strings, cap_strings;
	struct yd_issue *issues;
	size_t n_issues, cap_issues;
	yd_node root;
	bool broken;
	bool is_image; /* storage is static: free nothing but the struct */
};

/* PyYAML's YAML 1.1 resolution of a plain scalar (yamldoc_scalar.c). */
enum yd_type yd_resolve_plain(const char *s);

#endif
