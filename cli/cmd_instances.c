/* trainforge instances [--family F] [--format text|json]: the instance
 * catalog (core/facts/catalog.h) as the linter and the planner read it,
 * every figure with where it comes from and unknown ones shown as such. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "commands.h"
#include "cli_options.h"

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

static void write_text(const char *family)
{
	printf("%-20s %-18s %7s %8s %-9s %-32s %s\n", "TYPE", "ACCELERATORS", "VCPUS", "MEM GIB", "EFA",
	       "ON-DEMAND USD/H", "CAPACITY BLOCK USD/H");
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		if (!in_family(t, family))
			continue;
		char accel[48], vcpus[16], mem[16], efa[16], price[96], block[96];
		accel_text(t, accel, sizeof accel);
		int_text(t->vcpus, vcpus, sizeof vcpus);
		int_text(t->memory_gib, mem, sizeof mem);
		if (t->efa == TRI_YES && t->max_efa_interfaces > 0)
			snprintf(efa, sizeof efa, "yes x%d", t->max_efa_interfaces);
		else
			snprintf(efa, sizeof efa, "%s", catalog_tri_name(t->efa));
		if (t->price_on_demand >= 0)
			snprintf(price, sizeof price, "%.2f (%s, %s)", t->price_on_demand,
				 t->price_region ? t->price_region : "?", t->price_date ? t->price_date : "?");
		else
			snprintf(price, sizeof price, "unknown");
		bool several;
		const struct catalog_price *cb = cheapest_block(t, &several);
		if (cb)
			snprintf(block, sizeof block, "%s%.2f (%s, %s)", several ? "from " : "",
				 cb->usd_per_hour, cb->region, cb->date);
		else
			snprintf(block, sizeof block, "-");
		printf("%-20s %-18s %7s %8s %-9s %-32s %s\n", t->name, accel, vcpus, mem, efa, price, block);
	}
	puts("\nSources: trainforge instances --format json; the data: schemas/instances.yaml.");
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

static void json_price(struct buf *b, const char *key, double usd, const char *region,
		       const char *date, const char *source)
{
	buf_printf(b, ",\"%s\":", key);
	if (usd < 0) {
		buf_puts(b, "null");
		return;
	}
	buf_printf(b, "{\"usdPerHour\":%.4f,\"region\":", usd);
	json_str(b, region);
	buf_puts(b, ",\"date\":");
	json_str(b, date);
	buf_puts(b, ",\"source\":");
	json_str(b, source);
	buf_putc(b, '}');
}

static void json_one(struct buf *b, const struct instance_type *t)
{
	size_t family = catalog_family_len(t->name, strlen(t->name));
	buf_puts(b, "{\"name\":");
	json_str(b, t->name);
	buf_printf(b, ",\"family\":\"%.*s\",\"arch\":", (int)family, t->name);
	json_str(b, t->arch);
	buf_puts(b, ",\"vcpus\":");
	json_int(b, t->vcpus);
	buf_puts(b, ",\"memoryGiB\":");
	json_int(b, t->memory_gib);
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
	buf_puts(b, ",\"neuronCores\":");
	json_int(b, t->neuron_cores_physical);
	buf_printf(b, "},\"efa\":{\"supported\":\"%s\",\"interfaces\":", catalog_tri_name(t->efa));
	json_int(b, t->max_efa_interfaces);
	buf_puts(b, ",\"gbps\":");
	json_int(b, t->efa_gbps);
	buf_puts(b, ",\"source\":");
	json_str(b, t->efa_gbps_source);
	buf_puts(b, "},\"price\":{\"currency\":\"USD\"");
	json_price(b, "onDemand", t->price_on_demand, t->price_region, t->price_date, t->price_source);
	json_price(b, "spot", t->price_spot, t->price_spot_region, t->price_spot_date,
		   t->price_spot_source);
	json_price(b, "reserved", t->price_reserved, t->price_reserved_region,
		   t->price_reserved_date, t->price_reserved_source);
	/* every dated rate the catalog has, by region, then date */
	buf_puts(b, ",\"capacityBlock\":[");
	for (int i = 0; i < t->capacity_block_count; i++) {
		const struct catalog_price *p = &t->capacity_block[i];
		buf_printf(b, "%s{\"usdPerHour\":%.4f,\"region\":", i ? "," : "", p->usd_per_hour);
		json_str(b, p->region);
		buf_puts(b, ",\"date\":");
		json_str(b, p->date);
		buf_puts(b, ",\"source\":");
		json_str(b, p->source);
		buf_putc(b, '}');
	}
	buf_puts(b, "]},\"source\":");
	json_str(b, t->source);
	buf_putc(b, '}');
}

static void write_json(const char *family)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "{\"schemaVersion\":1,\"tool\":{\"name\":\"trainforge\",\"version\":\"%s\"},\"instances\":[",
		   TF_VERSION);
	bool first = true;
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct instance_type *t = catalog_at(i);
		if (!in_family(t, family))
			continue;
		if (!first)
			buf_putc(&b, ',');
		first = false;
		json_one(&b, t);
	}
	buf_puts(&b, "]}\n");
	fputs(b.p, stdout);
	buf_free(&b);
}

/* The families, for a message about one that is not there. */
static void families(struct buf *out)
{
	for (size_t i = 0; i < catalog_count(); i++) {
		const char *name = catalog_at(i)->name;
		size_t n = catalog_family_len(name, strlen(name));
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++) {
			const char *other = catalog_at(k)->name;
			seen = catalog_family_len(other, strlen(other)) == n && !strncmp(other, name, n);
		}
		if (!seen)
			buf_printf(out, "%s%.*s", out->len ? ", " : "", (int)n, name);
	}
}

int cmd_instances(int argc, char **argv)
{
	const char *family = NULL;
	bool json = false;
	struct options p;
	options_init(&p, CMD_INSTANCES, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPT_FAMILY: family = p.value; break;
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
		write_json(family);
	else
		write_text(family);
	return EXIT_CLEAN;
}
