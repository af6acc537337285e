/* trainforge plan CLUSTER.yaml: what a cluster config's compute nodes
 * cost by the hour, per queue and compute resource, at MinCount (what is
 * billed while idle) and at MaxCount (the ceiling), at the catalog's
 * prices with their region and date, or unknown. */
#include "plan_cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cluster_cost.h"
#include "commands.h"
#include "xalloc.h"

/* One compute resource's figures; usd < 0 where the price is unknown. */
struct row {
	yd_node queue_node;
	const char *queue, *cr;
	struct cluster_rate rate;
	long long min, max;
	double at_min, at_max;
	bool reserved;
};

/* A sum is known only when every part of it is: an unknown price times
 * a count of 0 is $0, any other unknown part makes the sum unknown (and
 * the known parts are a floor, shown as such), never $0.00. */
struct totals {
	double at_min, at_max;
	bool unknown;                    /* some price unknown */
	bool min_unknown, max_unknown;   /* the sum at MinCount, at MaxCount */
};

static void add_row(struct totals *t, const struct row *r)
{
	if (r->rate.usd < 0 || r->min < 0 || r->max < 0) {
		t->unknown = true;
		if (r->min != 0)
			t->min_unknown = true;
		if (r->max != 0)
			t->max_unknown = true;
		return;
	}
	t->at_min += r->at_min;
	t->at_max += r->at_max;
}

static void row_of(const struct cluster *c, yd_node q, yd_node cr, struct row *r)
{
	*r = (struct row){
		.queue_node = q,
		.queue = yd_str(c->doc, yd_get(c->doc, q, "Name"), NULL),
		.cr = yd_str(c->doc, yd_get(c->doc, cr, "Name"), NULL),
		.min = cluster_cr_count(c, cr, "MinCount"),
		.max = cluster_cr_count(c, cr, "MaxCount"),
		.reserved = cluster_cr_reserved(c, q, cr),
	};
	cluster_cr_rate(c, q, cr, &r->rate);
	if (r->rate.usd >= 0) {
		r->at_min = r->rate.usd * (double)(r->min > 0 ? r->min : 0);
		r->at_max = r->rate.usd * (double)(r->max > 0 ? r->max : 0);
	}
}

static void money_or_unknown(struct buf *b, double usd, bool known, bool at_most)
{
	if (!known) {
		buf_puts(b, "unknown");
		return;
	}
	buf_puts(b, at_most ? "<= " : "");
	cluster_money(b, usd);
	buf_puts(b, "/h");
}

static void text_row(struct buf *b, const struct row *r)
{
	struct buf lo = BUF_INIT, hi = BUF_INIT;
	bool known = r->rate.usd >= 0 && r->min >= 0 && r->max >= 0;
	money_or_unknown(&lo, r->at_min, known, r->rate.at_most);
	money_or_unknown(&hi, r->at_max, known, r->rate.at_most);
	buf_printf(b, "  %-12s %-16s %-18s %4lld %4lld  %14s  %14s", r->queue ? r->queue : "?",
		   r->cr ? r->cr : "?", r->rate.type ? r->rate.type : "?", r->min, r->max, lo.p, hi.p);
	if (!known) {
		buf_puts(b, "  (");
		if (r->rate.usd < 0)
			cluster_rate_unknown(&r->rate, b);
		else
			buf_puts(b, "a count is not a number");
		buf_putc(b, ')');
	} else if (r->reserved) {
		buf_puts(b, "  (reserved capacity: paid whether used or not)");
	}
	buf_putc(b, '\n');
	buf_free(&lo);
	buf_free(&hi);
}

/* A sum with unknown parts: "unknown" when nothing of it is known,
 * else ">= " the known parts. */
static void total_text(struct buf *b, double usd, bool unknown, const char *unit)
{
	if (unknown && usd <= 0) {
		buf_puts(b, "unknown");
		return;
	}
	buf_puts(b, unknown ? ">= " : "");
	cluster_money(b, usd);
	buf_puts(b, unit);
}

static void text_total(struct buf *b, const char *what, const struct totals *t)
{
	struct buf lo = BUF_INIT, hi = BUF_INIT;
	total_text(&lo, t->at_min, t->min_unknown, "/h");
	total_text(&hi, t->at_max, t->max_unknown, "/h");
	buf_printf(b, "  %-58s  %14s  %14s%s\n", what, lo.p, hi.p,
		   t->unknown ? "  (prices unknown: >= counts the known ones alone)" : "");
	buf_free(&lo);
	buf_free(&hi);
}

/* Each priced instance type once, with where its price comes from. */
static void text_sources(struct buf *b, const struct cluster *c, const struct row *rows, size_t n)
{
	buf_puts(b, "prices:\n");
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = rows[k].rate.type && rows[i].rate.type && !strcmp(rows[k].rate.type, rows[i].rate.type) &&
			       rows[k].rate.kind == rows[i].rate.kind;
		if (seen || rows[i].rate.usd < 0)
			continue;
		buf_printf(b, "  %-18s ", rows[i].rate.type ? rows[i].rate.type : "?");
		money_or_unknown(b, rows[i].rate.usd, true, rows[i].rate.at_most);
		buf_puts(b, " a node, ");
		cluster_rate_source(c, &rows[i].rate, b);
		buf_putc(b, '\n');
	}
}

static void write_text(struct buf *b, const char *path, const struct cluster *c,
		       const struct row *rows, size_t n)
{
	const char *region = cluster_region(c);
	buf_printf(b, "cluster %s, Region %s\n", path, region ? region : "not set");
	buf_printf(b, "  %-12s %-16s %-18s %4s %4s  %14s  %14s\n", "queue", "compute", "instance type",
		   "min", "max", "at MinCount", "at MaxCount");
	struct totals all = { 0 };
	for (size_t i = 0; i < n;) {
		struct totals queue = { 0 };
		size_t start = i;
		for (; i < n && rows[i].queue_node == rows[start].queue_node; i++) {
			text_row(b, &rows[i]);
			add_row(&queue, &rows[i]);
			add_row(&all, &rows[i]);
		}
		if (i - start > 1) {
			char what[64];
			snprintf(what, sizeof what, "queue %s", rows[start].queue ? rows[start].queue : "?");
			text_total(b, what, &queue);
		}
	}
	text_total(b, "the cluster", &all);
	buf_puts(b, "  while idle: ");
	total_text(b, all.at_min * CLUSTER_HOURS_PER_MONTH, all.min_unknown, "");
	buf_puts(b, " a month (730 h) at MinCount\n");
	text_sources(b, c, rows, n);
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

static void json_usd(struct buf *b, double usd, bool known)
{
	if (known)
		buf_printf(b, "%.4f", usd);
	else
		buf_puts(b, "null");
}

static void json_row(struct buf *b, const struct row *r)
{
	bool known = r->rate.usd >= 0 && r->min >= 0 && r->max >= 0;
	buf_puts(b, "{\"name\":");
	json_str(b, r->cr);
	buf_puts(b, ",\"instanceType\":");
	json_str(b, r->rate.type);
	buf_printf(b, ",\"minCount\":%lld,\"maxCount\":%lld,\"usdPerHourAtMinCount\":", r->min, r->max);
	json_usd(b, r->at_min, known);
	buf_puts(b, ",\"usdPerHourAtMaxCount\":");
	json_usd(b, r->at_max, known);
	buf_puts(b, ",\"price\":");
	if (r->rate.usd < 0) {
		buf_puts(b, "{\"usdPerHour\":null,\"unknown\":");
		struct buf why = BUF_INIT;
		cluster_rate_unknown(&r->rate, &why);
		json_str(b, why.p);
		buf_free(&why);
	} else {
		buf_printf(b, "{\"usdPerHour\":%.4f,\"kind\":", r->rate.usd);
		json_str(b, r->rate.kind);
		buf_printf(b, ",\"atMost\":%s,\"region\":", r->rate.at_most ? "true" : "false");
		json_str(b, r->rate.region);
		buf_puts(b, ",\"date\":");
		json_str(b, r->rate.date);
	}
	buf_printf(b, "},\"reserved\":%s}", r->reserved ? "true" : "false");
}

static void json_totals(struct buf *b, const struct totals *t)
{
	buf_puts(b, "\"usdPerHourAtMinCount\":");
	json_usd(b, t->at_min, !t->min_unknown);
	buf_puts(b, ",\"usdPerHourAtMaxCount\":");
	json_usd(b, t->at_max, !t->max_unknown);
	buf_printf(b, ",\"knownUsdPerHourAtMinCount\":%.4f,\"knownUsdPerHourAtMaxCount\":%.4f", t->at_min, t->at_max);
	buf_printf(b, ",\"pricesUnknown\":%s", t->unknown ? "true" : "false");
}

static void write_json(struct buf *b, const char *path, const struct cluster *c,
		       const struct row *rows, size_t n)
{
	struct totals all = { 0 };
	buf_puts(b, "{\"schemaVersion\":1,\"cluster\":");
	json_str(b, path);
	buf_puts(b, ",\"region\":");
	json_str(b, cluster_region(c));
	buf_puts(b, ",\"queues\":[");
	for (size_t i = 0; i < n;) {
		struct totals queue = { 0 };
		size_t start = i;
		buf_puts(b, start ? ",{\"name\":" : "{\"name\":");
		json_str(b, rows[start].queue);
		buf_puts(b, ",\"computeResources\":[");
		for (; i < n && rows[i].queue_node == rows[start].queue_node; i++) {
			if (i > start)
				buf_putc(b, ',');
			json_row(b, &rows[i]);
			add_row(&queue, &rows[i]);
			add_row(&all, &rows[i]);
		}
		buf_puts(b, "],");
		json_totals(b, &queue);
		buf_putc(b, '}');
	}
	buf_puts(b, "],");
	json_totals(b, &all);
	buf_puts(b, ",\"usdPerMonthAtMinCount\":");
	if (all.min_unknown)
		buf_puts(b, "null");
	else
		buf_printf(b, "%.2f", all.at_min * CLUSTER_HOURS_PER_MONTH);
	buf_printf(b, ",\"hoursPerMonth\":%.0f}\n", CLUSTER_HOURS_PER_MONTH);
}

bool plan_cluster_is(const yamldoc *doc)
{
	yd_node root = yd_root(doc);
	return yd_kind(doc, root) == YD_MAPPING && yd_get_key(doc, root, "HeadNode") &&
	       yd_get_key(doc, root, "Scheduling");
}

int plan_cluster(struct source *src, const yamldoc *doc, bool json)
{
	return plan_cluster_write(src, doc, json, stdout);
}

int plan_cluster_write(struct source *src, const yamldoc *doc, bool json, FILE *out)
{
	struct cluster c = cluster_of(src, doc);
	yd_node queues = cluster_queues(&c);
	size_t n = 0, cap = 0;
	struct row *rows = NULL;
	for (size_t i = 0; i < yd_len(doc, queues); i++) {
		yd_node q = yd_item(doc, queues, i), crs = cluster_compute_resources(&c, q);
		for (size_t j = 0; j < yd_len(doc, crs); j++) {
			rows = xgrow(rows, &cap, n + 1, sizeof *rows);
			row_of(&c, q, yd_item(doc, crs, j), &rows[n++]);
		}
	}
	struct buf b = BUF_INIT;
	if (json)
		write_json(&b, src->path, &c, rows, n);
	else
		write_text(&b, src->path, &c, rows, n);
	fwrite(b.p, 1, b.len, out);
	buf_free(&b);
	free(rows);
	return ferror(out) ? EXIT_TROUBLE : EXIT_CLEAN;
}
