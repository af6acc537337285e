/* The built-in catalog corrected and extended by the instance figures of
 * the user's price store (catalog_overlay.c). catalog.c asks here first;
 * nothing else needs to. */
#ifndef TF_CATALOG_OVERLAY_H
#define TF_CATALOG_OVERLAY_H

#include <stddef.h>

#include "catalog.h"

/* builtin (NULL when the catalog lacks the type) with the store's figures
 * of name[0..len) over it; NULL when the store has none. The same object
 * for the whole run, until catalog_overlay_release. */
const struct instance_type *catalog_overlay(const struct instance_type *builtin, const char *name,
					    size_t len);
/* The types the store has figures for that the built-in catalog lacks,
 * sorted by name. */
size_t catalog_overlay_extra(const char *const **names);
void catalog_overlay_release(void);

/* The built-in entry alone (catalog.c). */
const struct instance_type *catalog_builtin_find(const char *name, size_t len);

#endif
