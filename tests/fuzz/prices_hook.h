/* Shared by the price import targets: the input becomes a file in a
 * private directory (wrapped in the envelope of the target's format),
 * which `prices import` reads into a store that already holds facts.
 * The contracts (core/prices/import.h, docs/prices.md):
 *   - all or nothing: a failed import leaves the store byte for byte as
 *     it was and says why, naming the file or the store; a malformed
 *     file is reported with a line (PATH:LINE:COL);
 *   - a store an import wrote reads back whole (every fact line parses,
 *     every source it names is there), keeps every key it had, and
 *     price_find answers each on-demand fact it holds with a price;
 *   - nothing is left in the directory but the store and its lock. */
#ifndef TF_FUZZ_PRICES_HOOK_H
#define TF_FUZZ_PRICES_HOOK_H

#include <dirent.h>
#include <stdbool.h>
#include <unistd.h>

#include "buf.h"
#include "fuzz.h"
#include "import.h"
#include "price_store.h"
#include "prices.h"
#include "xalloc.h"

/* The store every input starts from: two files' facts, one price each kind. */
static const char fuzz_store_base[] =
	"trainforge-prices 1\n"
	"source\t1\tprice-list-csv\t2026-09-12\t2026-11-20\t/data/index.csv\n"
	"source\t2\tspot-price-history\t-\t2026-11-21\t/data/spot.json\n"
	"m5.large\tus-east-1\ton-demand\t-\t2026-09-01\t0.096\t0.096\t-\t2026-09-01\t1\n"
	"p5.48xlarge\tus-east-1\treserved\t1yr/no-upfront/standard\t2026-09-01\t40\t40\t0\t2026-09-01\t1\n"
	"p5.48xlarge\tus-east-1\tspot\tus-east-1a\t2026-11-10T00:00:00Z\t22\t22\t-\t-\t2\n";

enum fuzz_wrap {
	FUZZ_RAW,         /* the input is the file */
	FUZZ_JSON_STRING, /* the input is one JSON string's content, escaped */
};

struct fuzz_prices_dir {
	char dir[64], file[96], store[96];
};

static struct fuzz_prices_dir fuzz_dir;

static void fuzz_prices_cleanup(void)
{
	char lock[128];

	snprintf(lock, sizeof lock, "%s.lock", fuzz_dir.store);
	unlink(fuzz_dir.file);
	unlink(fuzz_dir.store);
	unlink(lock);
	rmdir(fuzz_dir.dir);
}

/* A directory of its own, in memory where there is one: every import
 * syncs the store it writes, which on a disk would be most of a run. */
static inline const struct fuzz_prices_dir *fuzz_prices_dir(void)
{
	struct fuzz_prices_dir *d = &fuzz_dir;

	if (d->dir[0] == '\0') {
		const char *base = getenv("TMPDIR") ? getenv("TMPDIR")
				   : access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(d->dir, sizeof d->dir, "%s/tf-fuzz-prices-XXXXXX", base);
		FUZZ_CHECK(mkdtemp(d->dir) != NULL);
		snprintf(d->file, sizeof d->file, "%s/input", d->dir);
		snprintf(d->store, sizeof d->store, "%s/prices.tsv", d->dir);
		setenv("SOURCE_DATE_EPOCH", "1796083200", 1); /* 2026-12-01 */
		atexit(fuzz_prices_cleanup);
	}
	return d;
}

static inline void fuzz_write(const char *path, const char *a, size_t an, const uint8_t *data,
			      size_t size, enum fuzz_wrap wrap, const char *b)
{
	FILE *f = fopen(path, "wb");

	FUZZ_CHECK(f != NULL);
	fwrite(a, 1, an, f);
	if (wrap == FUZZ_RAW) {
		fwrite(data, 1, size, f);
	} else {
		for (size_t i = 0; i < size; i++) {
			unsigned char c = data[i];
			if (c == '"' || c == '\\')
				fprintf(f, "\\%c", c);
			else if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				putc(c, f);
		}
	}
	fputs(b, f);
	FUZZ_CHECK(fclose(f) == 0);
}

static inline char *fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n;

	FUZZ_CHECK(f != NULL);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return b.p ? b.p : xstrdup("");
}

struct fuzz_facts {
	const struct price_store *s;
	size_t n, od, od_found;
	bool sources_ok;
};

static inline bool fuzz_fact(const struct price_line *l, void *ctx)
{
	struct fuzz_facts *c = ctx;

	c->n++;
	if (price_store_source(c->s, l->source) == NULL)
		c->sources_ok = false;
	if (price_field_is(l->kind, l->kind_len, "on-demand") && l->type_len < 64 && l->region_len < 32) {
		char type[64], region[32];
		struct price p;
		memcpy(type, l->type, l->type_len);
		type[l->type_len] = '\0';
		memcpy(region, l->region, l->region_len);
		region[l->region_len] = '\0';
		c->od++;
		c->od_found += price_find(type, region, TERM_ON_DEMAND, NULL, &p) && p.usd_per_hour >= 0;
	}
	return true;
}

/* Anything in the directory besides the input, the store and its lock. */
static inline bool fuzz_leftovers(const struct fuzz_prices_dir *d)
{
	DIR *dir = opendir(d->dir);
	struct dirent *e;
	bool left = false;

	FUZZ_CHECK(dir != NULL);
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "input") &&
		    strcmp(e->d_name, "prices.tsv") && strcmp(e->d_name, "prices.tsv.lock"))
			left = true;
	closedir(dir);
	return left;
}

/* Imports prefix + data (wrapped) + suffix into the base store and checks
 * the contracts; into a store text of its own when store_text is not
 * NULL (hostile: out of order or with keys twice, so that only the
 * reader's promises hold for what the import writes). */
static inline void fuzz_prices_import(const char *prefix, const uint8_t *data, size_t size,
				      enum fuzz_wrap wrap, const char *suffix, const char *store_text,
				      size_t store_len, bool hostile)
{
	const struct fuzz_prices_dir *d = fuzz_prices_dir();
	const char *files[1] = { d->file };
	struct import_options o = { .store = d->store, .sort_memory = 1 }; /* runs on disk from the first */
	struct import_report r;
	struct buf err = BUF_INIT;
	size_t before_len, after_len;
	char *before, *after;

	if (store_text == NULL) {
		store_text = fuzz_store_base;
		store_len = sizeof fuzz_store_base - 1;
	}
	fuzz_write(d->store, store_text, store_len, (const uint8_t *)"", 0, FUZZ_RAW, "");
	fuzz_write(d->file, prefix, strlen(prefix), data, size, wrap, suffix);
	before = fuzz_slurp(d->store, &before_len);
	bool ok = prices_import(files, 1, &o, &r, &err);
	after = fuzz_slurp(d->store, &after_len);
	if (!ok) {
		FUZZ_CHECK(err.p != NULL && err.len > 0);
		FUZZ_CHECK(strncmp(err.p, d->file, strlen(d->file)) == 0 ||
			   strncmp(err.p, d->store, strlen(d->store)) == 0 ||
			   strncmp(err.p, d->dir, strlen(d->dir)) == 0);
		if (r.malformed) /* PATH:LINE:COL: */
			FUZZ_CHECK(strncmp(err.p, d->file, strlen(d->file)) == 0 &&
				   err.p[strlen(d->file)] == ':');
		FUZZ_CHECK(before_len == after_len && memcmp(before, after, before_len) == 0);
	} else {
		const char *why;
		bool missing;
		struct price_store *s = price_store_open(d->store, &why, &missing);
		FUZZ_CHECK(s != NULL);
		struct fuzz_facts c = { .s = s, .sources_ok = true };
		size_t bad = 0;
		prices_release();
		prices_use_store(d->store);
		price_store_all(s, fuzz_fact, &c, &bad);
		FUZZ_CHECK(bad == 0);
		FUZZ_CHECK(c.sources_ok);
		FUZZ_CHECK(c.n == r.facts_after);
		if (!hostile) {
			FUZZ_CHECK(c.od_found == c.od);
			FUZZ_CHECK(r.facts_after >= r.facts_before);
		}
		prices_release();
		price_store_close(s);
	}
	FUZZ_CHECK(!fuzz_leftovers(d));
	import_report_free(&r);
	buf_free(&err);
	free(before);
	free(after);
}

#endif
