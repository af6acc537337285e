/* trainforge instances [--family F] [--region R] [--format text|json]
 * [--prices FILE] [--isolated]: the instance catalog (core/facts/catalog.h)
 * as the linter and the planner read it, the user's imported figures and
 * prices included, every figure with where it comes from and unknown
 * ones shown as such. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "commands.h"
#include "cli_options.h"
#include "prices.h"
#include "prices_cli.h"

/* The built-in prices are for us-east-1: the default region of a listing. */
#define DEFAULT_REGION "us-east-1"

static bool in_family(const struct instance_type *t, const char *family)
{
	size_t n = catalog_family_len(t->name, strlen(t->name));
	return !family || (strlen(family) == n && strncmp(t->name, family, n) == 0);
}

static const char *accel_model(const struct instance_type *t)
{
	return t->accel_model ? t->accel_model : catalog_accel_kind_name(t->accel);
}

/* "8 x H100", "none", "? x Trainium2" */
static void accel_text(const struct instance_type *t, char *out, size_t cap)
{
	if (t->accel == ACCEL_NONE)
		snprintf(out, cap, "none");
	else if (t->accel_count < 0)
		snprintf(out, cap, "? x %s", accel_model(t));
	else
		snprintf(out, cap, "%d x %s", t->accel_count, accel_model(t));
}

static void int_text(int v, char *out, size_t cap)
{
	if (v < 0)
		snprintf(out, cap, "?");
	else
		snprintf(out, cap, "%d", v);
}

/* The cheapest of each region's latest Capacity Block rate: a block is
 * bought in one region, so rates of two regions are never summed. */
static const struct catalog_price *cheapest_block(const struct instance_type *t, bool *several)
{
	const struct catalog_price *best = NULL;
	*several = false;
	for (int i = 0; i < t->capacity_block_count; i++) {
		*several |= strcmp(t->capacity_block[i].region, t->capacity_block[0].region) != 0;
		const struct catalog_price *p = catalog_capacity_block(t, t->capacity_block[i].region, NULL);
		if (p && (!best || p->usd_per_hour < best->usd_per_hour))
			best = p;
	}
	return best;
}

/* The distinct sources of the listing, numbered as first met; each entry's
 * "fields: title <location> (date); ..." names its own. */
struct legend {
	char **text;
	size_t n;
};

static size_t legend_id(struct legend *l, const char *s, size_t len)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->text[i]) == len && !memcmp(l->text[i], s, len))
			return i + 1;
	l->text = realloc(l->text, (l->n + 1) * sizeof *l->text);
	if (l->text == NULL)
		abort();
	l->text[l->n] = strndup(s, len);
	return ++l->n;
}

/* "1,3": the entry's sources in the legend. */
static void source_ids(struct legend *l, const char *source, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = source; p && *p;) {
		const char *end = strstr(p, "; "), *colon = strstr(p, ": ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (colon && colon < p + len) { /* "fields: source" */
			size_t id = legend_id(l, colon + 2, len - (size_t)(colon + 2 - p));
			int w = snprintf(out + n, cap - n, "%s%zu", n ? "," : "", id);
			if (w > 0 && (size_t)w < cap - n)
				n += (size_t)w;
		}
		p = end ? end + 2 : NULL;
	}
}

static void price_text(const struct price *p, char *out, size_t cap)
{
	long age;

	if (p->origin == ORIGIN_NONE) {
		snprintf(out, cap, "unknown");
		return;
	}
	age = prices_age_days(p->as_of);
	snprintf(out, cap, "%.4f (%s %s, %ldd)", p->usd_per_hour,
		 p->origin == ORIGIN_IMPORTED ? "imported" : "built in", p->as_of, age < 0 ? 0 : age);
}

static void write_text(const char *family, const char *region)
{
	struct legend l = { 0 };
	printf("%-22s %-22s %6s %8s %-9s %9s %-36s %-28s %s\n", "TYPE", "ACCELERATORS", "VCPUS",
	       "MEM GIB", "EFA", "NET GBPS", "ON-DEMAND USD/H", "CAPACITY BLOCK USD/H", "SOURCES");
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		if (!in_family(t, family))
			continue;
		char accel[48], vcpus[16], mem[16], efa[16], net[16], price[96], block[96], ids[64];
		struct price od;
		accel_text(t, accel, sizeof accel);
		int_text(t->vcpus, vcpus, sizeof vcpus);
		int_text(t->memory_gib, mem, sizeof mem);
		if (t->network_mbps < 0)
			snprintf(net, sizeof net, "?");
		else
			snprintf(net, sizeof net, "%.4g", t->network_mbps / 1000.0);
		if (t->efa == TRI_YES && t->max_efa_interfaces > 0)
			snprintf(efa, sizeof efa, "yes x%d", t->max_efa_interfaces);
		else
			snprintf(efa, sizeof efa, "%s", catalog_tri_name(t->efa));
		price_find(t->name, region, TERM_ON_DEMAND, NULL, &od);
		price_text(&od, price, sizeof price);
		bool several;
		const struct catalog_price *cb = cheapest_block(t, &several);
		if (cb)
			snprintf(block, sizeof block, "%s%.2f (%s, %s)", several ? "from " : "",
				 cb->usd_per_hour, cb->region, cb->date);
		else
			snprintf(block, sizeof block, "-");
		source_ids(&l, t->source, ids, sizeof ids);
		printf("%-22s %-22s %6s %8s %-9s %9s %-36s %-28s %s\n", t->name, accel, vcpus, mem, efa,
		       net, price, block, ids);
	}
	printf("\nPrices per instance-hour, Linux, in %s (--region), each with where it came from, its date and age in days; %s\n",
	       region, prices_store_in_use()
	       ? "imported prices from the price store (trainforge prices list) when newer than the built-in ones."
	       : "no price store read (--isolated).");
	printf("Sources (every figure of a type with its source: --format json):\n");
	for (size_t i = 0; i < l.n; i++) {
		printf("  %zu  %s\n", i + 1, l.text[i]);
		free(l.text[i]);
	}
	free(l.text);
}

static void json_str(struct buf *b, const char *s)
{
	if (!s) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	buf_put_json(b, s, strlen(s));
	buf_putc(b, '"');
}

static void json_int(struct buf *b, int v)
{
	if (v < 0)
		buf_puts(b, "null");
	else
		buf_printf(b, "%d", v);
}

static void json_price(struct buf *b, const char *key, const struct price *p)
{
	buf_printf(b, ",\"%s\":", key);
	if (p->origin == ORIGIN_NONE) {
		buf_puts(b, "null");
		return;
	}
	buf_printf(b, "{\"usdPerHour\":%.10g,\"region\":", p->usd_per_hour);
	json_str(b, p->region);
	buf_printf(b, ",\"from\":\"%s\",\"date\":", p->origin == ORIGIN_IMPORTED ? "imported" : "built-in");
	json_str(b, p->as_of);
	buf_printf(b, ",\"ageDays\":%ld,\"effective\":", prices_age_days(p->as_of));
	json_str(b, p->effective[0] ? p->effective : NULL);
	buf_puts(b, ",\"imported\":");
	json_str(b, p->imported[0] ? p->imported : NULL);
	buf_puts(b, ",\"format\":");
	json_str(b, p->format);
	buf_puts(b, ",\"source\":");
	json_str(b, p->source);
	if (p->term == TERM_RESERVED || p->term == TERM_SAVINGS_PLAN) {
		char offer[96];
		price_offer_text(p->term, &p->offer, offer, sizeof offer);
		buf_puts(b, ",\"offer\":");
		json_str(b, offer);
		buf_printf(b, ",\"hourly\":%.10g,\"upfront\":%.10g", p->hourly_usd, p->upfront_usd);
	}
	if (p->term == TERM_SPOT && p->zones > 0)
		buf_printf(b, ",\"zones\":%d,\"lowUsdPerHour\":%.10g", p->zones, p->low_usd);
	buf_putc(b, '}');
}

static void json_one(struct buf *b, const struct instance_type *t, const char *region)
{
	size_t family = catalog_family_len(t->name, strlen(t->name));
	struct price p;
	buf_puts(b, "{\"name\":");
	json_str(b, t->name);
	buf_printf(b, ",\"family\":\"%.*s\",\"arch\":", (int)family, t->name);
	json_str(b, t->arch);
	buf_puts(b, ",\"vcpus\":");
	json_int(b, t->vcpus);
	buf_puts(b, ",\"memoryGiB\":");
	json_int(b, t->memory_gib);
	buf_puts(b, ",\"memoryMiB\":");
	json_int(b, t->memory_mib);
	buf_printf(b, ",\"accelerators\":{\"kind\":\"%s\",\"model\":", catalog_accel_kind_name(t->accel));
	json_str(b, t->accel_model);
	buf_puts(b, ",\"count\":");
	json_int(b, t->accel_count);
	buf_puts(b, ",\"memoryGiB\":");
	json_int(b, t->accel_memory_gib);
	buf_puts(b, ",\"memorySource\":");
	json_str(b, t->accel_memory_source);
	buf_puts(b, ",\"perGpuMemoryGiB\":");
	json_int(b, t->accel == ACCEL_NVIDIA_GPU ? t->gpu_memory_gib : -1);
	buf_puts(b, ",\"perGpuMemoryMiB\":");
	json_int(b, t->accel == ACCEL_NVIDIA_GPU ? t->gpu_memory_mib : -1);
	buf_puts(b, ",\"neuronCores\":");
	json_int(b, t->neuron_cores_physical);
	buf_puts(b, ",\"logicalNeuronCores\":");
	json_int(b, t->neuron_cores_logical);
	buf_puts(b, ",\"peakBf16Tflops\":");
	if (t->accel_peak_bf16_tflops >= 0)
		buf_printf(b, "%.10g", t->accel_peak_bf16_tflops);
	else
		buf_puts(b, "null");
	buf_puts(b, ",\"peakSource\":");
	json_str(b, t->peak_source);
	buf_puts(b, ",\"peakUnknownBecause\":");
	json_str(b, t->peak_note);
	buf_printf(b, "},\"efa\":{\"supported\":\"%s\",\"interfaces\":", catalog_tri_name(t->efa));
	json_int(b, t->max_efa_interfaces);
	buf_puts(b, ",\"gbps\":");
	json_int(b, t->efa_gbps);
	buf_puts(b, ",\"source\":");
	json_str(b, t->efa_gbps_source);
	buf_puts(b, "},\"networkMbps\":");
	json_int(b, t->network_mbps);
	buf_puts(b, ",\"price\":{\"currency\":\"USD\"");
	price_find(t->name, region, TERM_ON_DEMAND, NULL, &p);
	json_price(b, "onDemand", &p);
	price_find(t->name, region, TERM_SPOT, NULL, &p);
	json_price(b, "spot", &p);
	price_find(t->name, region, TERM_RESERVED, NULL, &p);
	json_price(b, "reserved", &p);
	price_find(t->name, region, TERM_SAVINGS_PLAN, NULL, &p);
	json_price(b, "savingsPlan", &p);
	/* every dated rate the catalog has, by region, then date */
	buf_puts(b, ",\"capacityBlock\":[");
	for (int i = 0; i < t->capacity_block_count; i++) {
		const struct catalog_price *c = &t->capacity_block[i];
		buf_printf(b, "%s{\"usdPerHour\":%.4f,\"region\":", i ? "," : "", c->usd_per_hour);
		json_str(b, c->region);
		buf_puts(b, ",\"date\":");
		json_str(b, c->date);
		buf_printf(b, ",\"ageDays\":%ld,\"source\":", prices_age_days(c->date));
		json_str(b, c->source);
		buf_putc(b, '}');
	}
	buf_puts(b, "]},\"provisional\":");
	json_str(b, t->provisional);
	buf_puts(b, ",\"source\":");
	json_str(b, t->source);
	buf_puts(b, ",\"derived\":");
	json_str(b, t->derived_note);
	buf_putc(b, '}');
}

static void write_json(const char *family, const char *region)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "{\"schemaVersion\":1,\"tool\":{\"name\":\"trainforge\",\"version\":\"%s\"},\"region\":",
		   TF_VERSION);
	json_str(&b, region);
	buf_puts(&b, ",\"priceStore\":");
	json_str(&b, prices_store_in_use());
	buf_puts(&b, ",\"instances\":[");
	bool first = true;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		if (!in_family(t, family))
			continue;
		if (!first)
			buf_putc(&b, ',');
		first = false;
		json_one(&b, t, region);
		if (b.len > (1u << 16)) { /* out in pieces: every type is a megabyte of JSON */
			fputs(b.p, stdout);
			buf_reset(&b);
		}
	}
	buf_puts(&b, "]}\n");
	fputs(b.p, stdout);
	buf_free(&b);
}

/* The families, for a message about one that is not there. */
static void families(struct buf *out)
{
	const char *last = NULL;
	size_t last_n = 0;
	for (size_t i = 0; i < catalog_count(); i++) {
		const char *name = catalog_at(i)->name;
		size_t n = catalog_family_len(name, strlen(name));
		if (last && n == last_n && !strncmp(last, name, n))
			continue;
		buf_printf(out, "%s%.*s", out->len ? ", " : "", (int)n, name);
		last = name, last_n = n;
	}
}

int cmd_instances(int argc, char **argv)
{
	const char *family = NULL, *region = DEFAULT_REGION, *prices = NULL;
	bool json = false, isolated = false;
	struct options p;
	options_init(&p, CMD_INSTANCES, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPT_FAMILY: family = p.value; break;
		case OPT_REGION: region = p.value; break;
		case OPT_PRICES: prices = p.value; break;
		case OPT_ISOLATED: isolated = true; break;
		case OPT_FORMAT:
			if (strcmp(p.value, "json") && strcmp(p.value, "text")) {
				fprintf(stderr, "trainforge: invalid value '%s' for --format (text, json)\n", p.value);
				return EXIT_TROUBLE;
			}
			json = !strcmp(p.value, "json");
			break;
		default:
			if (id == OPTS_OPERAND) {
				fprintf(stderr, "trainforge: unexpected '%s'\n", p.value);
				options_usage(stderr, CMD_INSTANCES);
			}
			return EXIT_TROUBLE;
		}
	}
	if (!cli_prices_setup(prices, isolated))
		return EXIT_TROUBLE;
	size_t n = 0;
	for (size_t i = 0; i < catalog_count(); i++)
		n += in_family(catalog_at(i), family);
	if (!n) {
		struct buf names = BUF_INIT;
		families(&names);
		fprintf(stderr, "trainforge: no family '%s' in the catalog (families: %s)\n", family,
			names.p ? names.p : "none");
		buf_free(&names);
		return EXIT_TROUBLE;
	}
	if (json)
		write_json(family, region);
	else
		write_text(family, region);
	return EXIT_CLEAN;
}
