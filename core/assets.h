/* Files compiled into the binary (schemas, templates) so that one binary
 * works anywhere. YAML and JSON assets also come as a ready-made yamldoc
 * image, so reading them costs no parse. */
#ifndef TF_ASSETS_H
#define TF_ASSETS_H

#include <stddef.h>

struct yd_image;
struct sch_table;

struct asset {
	const char *name;             /* file name, e.g. "parallelcluster.schema.json" */
	const char *text;             /* the file as written */
	size_t len;
	const struct yd_image *image; /* its parsed tree */
	const struct sch_table *schema; /* a JSON Schema's compiled objects, or NULL */
};

extern const struct asset assets[];
extern const size_t assets_count;

const struct asset *asset_find(const char *name);

#endif
