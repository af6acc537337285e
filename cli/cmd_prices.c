/* trainforge prices import FILE... [--prices FILE]
 * trainforge prices list [TYPE...] [--region R] [--format text|json] [--prices FILE]
 * trainforge prices where
 * The user's price store: AWS's own files in, what it holds out
 * (docs/prices.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli_options.h"
#include "commands.h"
#include "import.h"
#include "price_store.h"
#include "prices.h"
#include "prices_cli.h"
#include "xalloc.h"

static int do_import(const char *const *files, size_t n, const char *store)
{
	struct import_options o = { .store = store };
	struct import_report r;
	struct buf err = BUF_INIT;
	int rc = EXIT_CLEAN;

	if (!prices_import(files, n, &o, &r, &err)) {
		fprintf(stderr, "trainforge: %s\ntrainforge: nothing imported: %s is as it was\n",
			err.p ? err.p : "the import failed", store);
		rc = r.malformed ? EXIT_FINDINGS : EXIT_TROUBLE;
	} else {
		for (size_t i = 0; i < r.nfiles; i++) {
			const struct import_file_report *f = &r.files[i];
			bool types = !strcmp(f->format, "instance-types");
			bool rows = !strcmp(f->format, "price-list-csv") || !strcmp(f->format, "savings-plans-csv");
			printf("%s: %s%s%s: %llu %s read, %llu %s kept\n", f->path, f->format,
			       f->published[0] ? ", published " : "", f->published, f->records,
			       rows ? (f->records == 1 ? "row" : "rows") : (f->records == 1 ? "record" : "records"),
			       f->kept, types ? (f->kept == 1 ? "type" : "types") : (f->kept == 1 ? "price" : "prices"));
		}
		printf("%s: %llu facts, %llu of them new or newer\n", store, r.facts_after, r.facts_new);
	}
	import_report_free(&r);
	buf_free(&err);
	return rc;
}

struct list {
	const struct price_store *s;
	const char *region;
	bool json, first;
	unsigned long long n;
};

static void put_slice(struct buf *b, const char *p, size_t n, bool json)
{
	if (json) {
		buf_putc(b, '"');
		buf_put_json(b, p, n);
		buf_putc(b, '"');
	} else {
		buf_put(b, p, n);
	}
}

static bool list_line(const struct price_line *l, void *ctx)
{
	struct list *c = ctx;
	const struct price_store_source *src = price_store_source(c->s, l->source);
	struct buf b = BUF_INIT;

	if (c->region && !price_field_is(l->region, l->region_len, c->region))
		return true;
	c->n++;
	if (c->json) {
		buf_puts(&b, c->first ? "\n" : ",\n");
		c->first = false;
#define F(key, p, n) buf_puts(&b, "\"" key "\":"); put_slice(&b, p, n, true); buf_putc(&b, ',')
		buf_putc(&b, '{');
		F("type", l->type, l->type_len);
		F("region", l->region, l->region_len);
		F("term", l->kind, l->kind_len);
		F("variant", l->variant, l->variant_len);
		F("asOf", l->as_of, l->as_of_len);
		F("usdPerHour", l->usd, l->usd_len);
		F("hourly", l->hourly, l->hourly_len);
		F("upfront", l->upfront, l->upfront_len);
		F("effective", l->effective, l->effective_len);
		F("figures", l->figures, l->figures_len);
#undef F
		buf_puts(&b, "\"source\":");
		if (src) {
			buf_puts(&b, "{\"file\":");
			put_slice(&b, src->file, strlen(src->file), true);
			buf_printf(&b, ",\"format\":\"%s\",\"published\":\"%s\",\"imported\":\"%s\"}",
				   src->format, src->published, src->imported);
		} else {
			buf_puts(&b, "null");
		}
		buf_putc(&b, '}');
	} else {
		buf_printf(&b, "%-22.*s %-15.*s %-14.*s %-34.*s %-12.*s %-20.*s %s (%s, imported %s)%s%.*s\n",
			   (int)l->type_len, l->type, (int)l->region_len, l->region, (int)l->kind_len, l->kind,
			   (int)l->variant_len, l->variant, (int)l->usd_len, l->usd, (int)l->as_of_len, l->as_of,
			   src ? src->file : "?", src ? src->format : "?", src ? src->imported : "?",
			   l->figures_len ? " " : "", (int)l->figures_len, l->figures);
	}
	fputs(b.p, stdout);
	buf_free(&b);
	return true;
}

static int do_list(char **types, size_t n, const char *region, bool json)
{
	const struct price_store *s = prices_store();
	struct list c = { s, region, json, true, 0 };
	size_t bad = 0;

	if (s == NULL) {
		const char *why = prices_store_problem();
		if (json)
			puts("{\"schemaVersion\":1,\"facts\":[]}");
		fprintf(stderr, "trainforge: %s: %s\n", prices_store_in_use() ? prices_store_in_use() : "no store",
			why ? why : "nothing imported yet (trainforge prices import FILE...)");
		return why ? EXIT_TROUBLE : EXIT_CLEAN;
	}
	if (json)
		fputs("{\"schemaVersion\":1,\"facts\":[", stdout);
	else
		printf("%-22s %-15s %-14s %-34s %-12s %-20s %s\n", "TYPE", "REGION", "TERM",
		       "OFFER OR ZONE", "USD/H", "AS OF", "SOURCE");
	if (n == 0)
		price_store_all(s, list_line, &c, &bad);
	for (size_t i = 0; i < n; i++)
		price_store_each(s, types[i], strlen(types[i]), list_line, &c);
	if (json)
		puts("\n]}");
	fprintf(stderr, "%llu fact%s in %s%s\n", c.n, c.n == 1 ? "" : "s", prices_store_in_use(),
		bad ? "; some lines are not facts and were skipped" : "");
	return bad ? EXIT_FINDINGS : EXIT_CLEAN;
}

int cmd_prices(int argc, char **argv)
{
	const char *store = NULL, *region = NULL, *verb = NULL;
	bool json = false;
	char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
	size_t nops = 0;
	struct buf def = BUF_INIT;
	int rc = EXIT_TROUBLE;
	struct options p;

	options_init(&p, CMD_PRICES, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: rc = EXIT_CLEAN; goto out;
		case OPTS_ERROR: goto out;
		case OPT_PRICES: store = p.value; break;
		case OPT_REGION: region = p.value; break;
		case OPT_FORMAT:
			if (strcmp(p.value, "json") && strcmp(p.value, "text")) {
				options_bad_value(&p);
				goto out;
			}
			json = !strcmp(p.value, "json");
			break;
		case OPTS_OPERAND:
			if (verb == NULL)
				verb = p.value;
			else
				ops[nops++] = (char *)p.value;
			break;
		default:
			goto out;
		}
	}
	if (verb == NULL || (strcmp(verb, "import") && strcmp(verb, "list") && strcmp(verb, "where"))) {
		fprintf(stderr, "trainforge: prices needs import, list or where%s%s\n",
			verb ? ", not " : "", verb ? verb : "");
		options_usage(stderr, CMD_PRICES);
		goto out;
	}
	if (!store) {
		if (!cli_prices_default(&def)) {
			fputs("trainforge: neither XDG_DATA_HOME nor HOME is set: name the store with --prices FILE\n", stderr);
			goto out;
		}
		store = def.p;
	}
	if (!strcmp(verb, "where")) {
		printf("%s\n", store);
		rc = EXIT_CLEAN;
	} else if (!strcmp(verb, "import")) {
		if (nops == 0) {
			fputs("trainforge: prices import needs at least one FILE\n", stderr);
			options_usage(stderr, CMD_PRICES);
			goto out;
		}
		rc = do_import((const char *const *)ops, nops, store);
	} else {
		prices_use_store(store);
		rc = do_list(ops, nops, region, json);
		prices_release();
	}
out:
	buf_free(&def);
	free(ops);
	return rc;
}
