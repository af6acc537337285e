/* The schemas of the files embedded in the binary, wrapped once per run
 * (their objects were compiled at build time: tools/embed.c) and released
 * at exit, so a leak checker sees a clean exit. */
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "schema_internal.h"

enum { MAX_EMBEDDED = 8 };

static struct {
	const char *name;
	yamldoc *doc;
	schema *s;
} cache[MAX_EMBEDDED];
static size_t n_cached;

static void release(void)
{
	for (size_t i = 0; i < n_cached; i++) {
		schema_free(cache[i].s);
		yamldoc_free(cache[i].doc);
	}
	n_cached = 0;
}

schema *schema_embedded(const char *name)
{
	for (size_t i = 0; i < n_cached; i++)
		if (strcmp(cache[i].name, name) == 0)
			return cache[i].s;
	const struct asset *a = asset_find(name);
	if (!a || !a->image || n_cached == MAX_EMBEDDED)
		return NULL;
	if (n_cached == 0)
		atexit(release);
	cache[n_cached].name = a->name;
	cache[n_cached].doc = yamldoc_from_image(a->image);
	cache[n_cached].s = a->schema ? schema_from_table(cache[n_cached].doc, a->schema)
				      : schema_new(cache[n_cached].doc);
	return cache[n_cached++].s;
}
