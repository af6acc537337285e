/* The catalog as the user's price store corrects and extends it: the
 * figures `prices import` took from `aws ec2 describe-instance-types`
 * output, EC2's own answer for the user's account, laid over the
 * built-in entry of the same type, or an entry of their own for a type
 * the program does not know (docs/prices.md, "Instance figures"). */
#include "catalog_overlay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "price_store.h"
#include "prices.h"
#include "xalloc.h"

struct overlay {
	struct instance_type t;
	char *strings[8];        /* what t points to and this file owns */
	size_t nstrings;
	struct overlay *next;
};

static struct {
	struct overlay *list;
	char **extra;            /* types only the store has, sorted */
	size_t nextra;
	bool extra_done;
} g;

static char *own(struct overlay *o, char *s)
{
	if (o->nstrings < sizeof o->strings / sizeof o->strings[0])
		o->strings[o->nstrings++] = s;
	return s;
}

struct found {
	struct price_line line;
	bool any;
};

static bool figures_line(const struct price_line *l, void *ctx)
{
	struct found *f = ctx;

	if (price_field_is(l->kind, l->kind_len, "figures") && l->figures_len > 0) {
		f->line = *l; /* the last (the newest) wins */
		f->any = true;
	}
	return true;
}

/* value of key in "k=v;k=v" (not NUL-ended) into out; false when absent. */
static bool figure(const char *p, size_t n, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < n;) {
		size_t end = i;
		while (end < n && p[end] != ';')
			end++;
		if (end - i > klen && memcmp(p + i, key, klen) == 0 && p[i + klen] == '=') {
			size_t vlen = end - i - klen - 1;
			if (vlen >= cap)
				return false;
			memcpy(out, p + i + klen + 1, vlen);
			out[vlen] = '\0';
			return true;
		}
		i = end + 1;
	}
	return false;
}

static bool figure_int(const char *p, size_t n, const char *key, int *out)
{
	char buf[16], *end;
	long v;

	if (!figure(p, n, key, buf, sizeof buf))
		return false;
	v = strtol(buf, &end, 10);
	if (*end || v < 0 || v > 100000000)
		return false;
	*out = (int)v;
	return true;
}

static enum accel_kind accel_of(const char *s)
{
	static const struct { const char *name; enum accel_kind k; } kinds[] = {
		{ "none", ACCEL_NONE }, { "nvidia-gpu", ACCEL_NVIDIA_GPU }, { "trainium", ACCEL_TRAINIUM },
		{ "trainium2", ACCEL_TRAINIUM2 }, { "inferentia2", ACCEL_INFERENTIA2 },
		{ "trainium3", ACCEL_TRAINIUM3 }, { "inferentia", ACCEL_INFERENTIA },
		{ "amd-gpu", ACCEL_AMD_GPU }, { "other", ACCEL_OTHER },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i].name, s))
			return kinds[i].k;
	return ACCEL_OTHER;
}

static void lay_over(struct overlay *o, const struct price_line *l, const char *name, size_t len)
{
	struct instance_type *t = &o->t;
	const struct price_store_source *src = price_store_source(prices_store(), l->source);
	const char *p = l->figures;
	size_t n = l->figures_len;
	char v[64], fields[256] = "";
	struct buf b = BUF_INIT;
	int x;
	bool new_accel = false;

#define NOTE(f) snprintf(fields + strlen(fields), sizeof fields - strlen(fields), "%s%s", fields[0] ? ", " : "", f)
	if (t->name == NULL) {
		t->name = own(o, xmalloc(len + 1));
		memcpy((char *)t->name, name, len);
		((char *)t->name)[len] = '\0';
	}
	if (figure_int(p, n, "vcpus", &x))
		t->vcpus = x, NOTE("vcpus");
	if (figure_int(p, n, "memory_mib", &x))
		t->memory_mib = x, t->memory_gib = x / 1024, NOTE("memory_mib");
	if (figure(p, n, "arch", v, sizeof v))
		t->arch = !strcmp(v, "arm64") ? "arm64" : "x86_64", NOTE("arch");
	if (figure(p, n, "accel", v, sizeof v)) {
		enum accel_kind k = accel_of(v);
		new_accel = k != t->accel;
		t->accel = k;
		NOTE("accel");
	}
	if (figure(p, n, "accel_model", v, sizeof v)) {
		new_accel |= !t->accel_model || strcmp(t->accel_model, v) != 0;
		t->accel_model = own(o, xstrdup(v));
		NOTE("accel_model");
	}
	if (new_accel) { /* another chip: what the catalog knew of the old one goes */
		t->accel_peak_bf16_tflops = -1;
		t->peak_source = t->peak_note = NULL;
		t->accel_memory_gib = t->neuron_cores_logical = -1;
		t->lnc_default = catalog_has_lnc(t) ? -1 : catalog_is_neuron(t) ? 1 : 0;
	}
	if (t->accel == ACCEL_NONE) {
		t->accel_model = NULL;
		t->accel_count = t->accel_memory_gib = t->neuron_cores_physical = 0;
		t->neuron_cores_logical = t->lnc_default = t->gpu_memory_mib = t->gpu_memory_gib = 0;
	}
	if (figure_int(p, n, "accel_count", &x))
		t->accel_count = x, NOTE("accel_count");
	if (figure_int(p, n, "gpu_memory_mib", &x))
		t->gpu_memory_mib = x, t->gpu_memory_gib = x / 1024, NOTE("gpu_memory_mib");
	if (figure_int(p, n, "neuron_cores", &x)) {
		t->neuron_cores_physical = x;
		t->neuron_cores_logical = t->lnc_default > 0 ? x / t->lnc_default : -1;
		NOTE("neuron_cores_physical");
	}
	if (figure_int(p, n, "accel_memory_gib", &x))
		t->accel_memory_gib = x, NOTE("accel_memory_gib");
	if (figure(p, n, "efa", v, sizeof v)) {
		t->efa = !strcmp(v, "yes") ? TRI_YES : TRI_NO;
		NOTE("efa");
		if (t->efa == TRI_NO)
			t->max_efa_interfaces = 0, t->efa_device_rdma = t->gpudirect_rdma = TRI_NO, t->efa_gbps = 0;
	}
	if (figure_int(p, n, "max_efa_interfaces", &x))
		t->max_efa_interfaces = x, NOTE("max_efa_interfaces");
	if (figure_int(p, n, "network_mbps", &x)) {
		t->network_mbps = x;
		NOTE("network_mbps");
		if (t->efa == TRI_YES && x % 1000 == 0)
			t->efa_gbps = x / 1000, NOTE("efa_gbps");
	}
#undef NOTE
	/* EC2 describes the type: it is no longer provisional */
	t->provisional = NULL;
	buf_printf(&b, "%s%s%s: %s (aws ec2 describe-instance-types, imported %s)", t->source ? t->source : "",
		   t->source ? "; " : "", fields, src ? src->file : "?", src ? src->imported : "?");
	t->source = own(o, buf_detach(&b));
	buf_printf(&b, "%s (aws ec2 describe-instance-types, imported %s)", src ? src->file : "?",
		   src ? src->imported : "?");
	t->efa_gbps_source = own(o, buf_detach(&b));
}

const struct instance_type *catalog_overlay(const struct instance_type *builtin, const char *name,
					    size_t len)
{
	const struct price_store *s = prices_store();
	struct found f = { .any = false };
	struct overlay *o;

	if (s == NULL)
		return NULL;
	for (o = g.list; o; o = o->next)
		if (strlen(o->t.name) == len && memcmp(o->t.name, name, len) == 0)
			return &o->t;
	price_store_each(s, name, len, figures_line, &f);
	if (!f.any)
		return NULL;
	o = xcalloc(1, sizeof *o);
	if (builtin) {
		o->t = *builtin;
	} else { /* a type the catalog lacks: what the file says, the rest unknown */
		o->t = (struct instance_type){
			.accel_count = -1, .neuron_cores_physical = -1, .neuron_cores_logical = -1,
			.lnc_default = -1, .accel_memory_gib = -1, .vcpus = -1, .memory_gib = -1,
			.memory_mib = -1, .max_efa_interfaces = -1, .gpu_memory_gib = -1,
			.gpu_memory_mib = -1, .accel_peak_bf16_tflops = -1, .efa_gbps = -1,
			.network_mbps = -1, .price_spot = -1, .price_reserved = -1, .price_on_demand = -1,
		};
	}
	lay_over(o, &f.line, name, len);
	o->next = g.list;
	g.list = o;
	return &o->t;
}

static bool collect(const struct price_line *l, void *ctx)
{
	(void)ctx;
	if (!price_field_is(l->kind, l->kind_len, "figures") ||
	    catalog_builtin_find(l->type, l->type_len) != NULL)
		return true;
	if (g.nextra > 0 && strlen(g.extra[g.nextra - 1]) == l->type_len &&
	    memcmp(g.extra[g.nextra - 1], l->type, l->type_len) == 0)
		return true; /* sorted: the same type's lines are together */
	g.extra = xrealloc(g.extra, (g.nextra + 1) * sizeof *g.extra);
	g.extra[g.nextra] = xmalloc(l->type_len + 1);
	memcpy(g.extra[g.nextra], l->type, l->type_len);
	g.extra[g.nextra++][l->type_len] = '\0';
	return true;
}

size_t catalog_overlay_extra(const char *const **names)
{
	const struct price_store *s = prices_store();

	if (!g.extra_done && s != NULL) {
		size_t bad;
		price_store_all(s, collect, NULL, &bad);
	}
	g.extra_done = true;
	*names = (const char *const *)g.extra;
	return g.nextra;
}

void catalog_overlay_release(void)
{
	while (g.list) {
		struct overlay *o = g.list;
		g.list = o->next;
		for (size_t i = 0; i < o->nstrings; i++)
			free(o->strings[i]);
		free(o);
	}
	for (size_t i = 0; i < g.nextra; i++)
		free(g.extra[i]);
	free(g.extra);
	memset(&g, 0, sizeof g);
}
