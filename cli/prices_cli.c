/* The price store of a run (prices_cli.h). The user's store is data
 * the user made and would have to make again by downloading the files
 * once more, not a cache a tool may drop: it lives under XDG_DATA_HOME,
 * which the XDG Base Directory spec reserves for user-specific data
 * files, rather than XDG_CACHE_HOME, which cleaners empty freely and
 * where a vanished store would change every plan without a word. */
#include "prices_cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "price_store.h"
#include "prices.h"

bool cli_prices_default(struct buf *out)
{
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	/* the spec: a relative XDG_DATA_HOME is invalid and ignored */
	if (data && data[0] == '/')
		buf_printf(out, "%s/trainforge/prices.tsv", data);
	else if (home && home[0])
		buf_printf(out, "%s/.local/share/trainforge/prices.tsv", home);
	else
		return false;
	return true;
}

static void release(void)
{
	prices_release();
}

bool cli_prices_setup(const char *explicit_path, bool isolated)
{
	struct buf path = BUF_INIT;
	const char *why;

	atexit(release);
	if (explicit_path) {
		bool missing;
		struct price_store *s = price_store_open(explicit_path, &why, &missing);
		if (s == NULL) {
			fprintf(stderr, "trainforge: --prices %s: %s\n", explicit_path,
				missing ? "no such file (trainforge prices import --prices FILE writes one)" : why);
			return false;
		}
		price_store_close(s);
		prices_use_store(explicit_path);
		return true;
	}
	if (isolated || !cli_prices_default(&path)) {
		prices_use_store(NULL);
		buf_free(&path);
		return true;
	}
	prices_use_store(path.p);
	if ((why = prices_store_problem()) != NULL)
		fprintf(stderr, "trainforge: warning: the price store %s %s; its prices are not used (trainforge prices import writes a new one once it is moved away)\n",
			path.p, why);
	buf_free(&path);
	return true;
}
