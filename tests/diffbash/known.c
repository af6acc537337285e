/* The checked-in list of disagreements that are known: a run fails on
 * a disagreement the list lacks and on a listed one that no longer
 * disagrees, so the list stays exact and can only shrink as the model
 * is fixed. */
#include "diffbash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void known_add(struct known *k, const char *key, const char *dir, const char *why)
{
	k->v = xgrow(k->v, &k->cap, k->n + 1, sizeof *k->v);
	k->v[k->n++] = (struct known_entry){ xstrdup(key), xstrdup(dir), xstrdup(why), false };
}

bool known_load(struct known *k, const char *path)
{
	size_t len;
	char *text = db_slurp(path, &len);
	if (!text)
		return false;
	k->loaded = true;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "# run: ", 7) == 0) {
			free(k->run);
			k->run = xstrdup(line + 7);
			continue;
		}
		if (line[0] == '#' || !line[0])
			continue;
		char *dir = strchr(line, '\t');
		char *why = dir ? strchr(dir + 1, '\t') : NULL;
		if (dir)
			*dir++ = '\0';
		if (why)
			*why++ = '\0';
		known_add(k, line, dir ? dir : "", why ? why : "");
	}
	free(text);
	return true;
}

struct known_entry *known_find(struct known *k, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->v[i].key, key) == 0)
			return &k->v[i];
	return NULL;
}

/* gen:12 before gen:100; other keys by text */
static int key_cmp(const void *pa, const void *pb)
{
	const struct known_entry *a = pa, *b = pb;
	bool ga = strncmp(a->key, "gen:", 4) == 0, gb = strncmp(b->key, "gen:", 4) == 0;
	if (ga && gb) {
		unsigned long long x = strtoull(a->key + 4, NULL, 10), y = strtoull(b->key + 4, NULL, 10);
		return x < y ? -1 : x > y;
	}
	if (ga != gb)
		return ga ? 1 : -1;
	return strcmp(a->key, b->key);
}

bool known_write(const struct known *k, const char *path, const char *header, const char *run)
{
	struct known_entry *v = xcalloc(k->n ? k->n : 1, sizeof *v);
	memcpy(v, k->v, k->n * sizeof *v);
	qsort(v, k->n, sizeof *v, key_cmp);
	FILE *f = fopen(path, "w");
	if (!f) {
		free(v);
		return false;
	}
	fputs(header, f);
	if (run)
		fprintf(f, "# run: %s\n", run);
	for (size_t i = 0; i < k->n; i++)
		fprintf(f, "%s\t%s\t%s\n", v[i].key, v[i].dir, v[i].why);
	free(v);
	return fclose(f) == 0;
}

void known_free(struct known *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].dir);
		free(k->v[i].why);
	}
	free(k->v);
	free(k->run);
	memset(k, 0, sizeof *k);
}
