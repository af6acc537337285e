/* The price store as a run reads it (core/facts/price_store.c: mapped,
 * found by binary search) and as an import merges into it: the input is
 * the store file. Each type it names is looked up for every term and
 * through the catalog's overlay; then a small valid spot file is
 * imported into it (all or nothing: a store that cannot be read is left
 * as it was). A hostile store may be out of order or repeat keys, so the
 * import's own-store checks are the reader's, not the sort's. */
#include "catalog.h"
#include "prices_hook.h"

static const uint8_t spot[] =
	"{\"SpotPriceHistory\": [{\"AvailabilityZone\": \"us-east-1a\", \"InstanceType\": \"p5.48xlarge\","
	" \"ProductDescription\": \"Linux/UNIX\", \"SpotPrice\": \"21.500000\","
	" \"Timestamp\": \"2026-11-30T10:00:00+00:00\"}]}\n";

static bool look_up(const struct price_line *l, void *ctx)
{
	char type[64];
	struct price p;

	(void)ctx;
	if (l->type_len >= sizeof type)
		return true;
	memcpy(type, l->type, l->type_len);
	type[l->type_len] = '\0';
	for (int t = 0; t < TERM__COUNT; t++) {
		bool found = price_find(type, "us-east-1", (enum price_term)t, NULL, &p);
		FUZZ_CHECK(found == (p.origin != ORIGIN_NONE));
		FUZZ_CHECK(!found || p.usd_per_hour >= 0);
		FUZZ_CHECK(found || p.usd_per_hour < 0);
	}
	(void)catalog_find(type, strlen(type));
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fuzz_prices_dir *d = fuzz_prices_dir();
	const char *why;
	bool missing;
	size_t bad;

	fuzz_write(d->store, "", 0, data, size, FUZZ_RAW, "");
	struct price_store *s = price_store_open(d->store, &why, &missing);
	FUZZ_CHECK(s != NULL || why != NULL);
	if (s) {
		prices_release();
		prices_use_store(d->store);
		price_store_all(s, look_up, NULL, &bad);
		for (size_t i = 0; i < catalog_count() && i < 64; i++)
			(void)catalog_at(i);
		prices_release();
		price_store_close(s);
	}
	fuzz_prices_import("", spot, sizeof spot - 1, FUZZ_RAW, "", (const char *)data, size, true);
	return 0;
}
