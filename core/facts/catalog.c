/* Lookups over the generated instance table, and the name checks that
 * turn a mistyped or web-pasted instance type into a useful suggestion. */
#include "catalog.h"

#include <stdint.h>
#include <string.h>

#include "catalog_overlay.h"
#include "catalog_table.h"
#include "prices.h"
#include "text.h"

/* The rows are defined in the generated build/catalog_data.c, sorted by
 * name with strcmp order; the double underscore keeps them out of the API. */

static const char *pool(catalog_str s)
{
	return s ? catalog__pool + s : NULL;
}

static const char *row_name(size_t i)
{
	return catalog__names[i];
}

/* The entry of row i, filled from the row the first time it is read. */
static const struct instance_type *entry(size_t i)
{
	struct instance_type *t = &catalog__cache[i];
	const struct catalog_row *r = &catalog__rows[i];

	if (t->name != NULL)
		return t;
	for (unsigned k = 0; k < r->cb_count; k++) {
		const struct catalog_cb_row *c = &catalog__cb[r->cb_first + k];
		catalog__cb_cache[r->cb_first + k] = (struct catalog_price){
			.usd_per_hour = c->usd_per_hour, .region = pool(c->region),
			.date = pool(c->date), .source = pool(c->source),
		};
	}
	*t = (struct instance_type){
		.accel = (enum accel_kind)r->accel, .accel_model = pool(r->accel_model),
		.accel_count = r->accel_count, .neuron_cores_physical = r->nc_phys,
		.neuron_cores_logical = r->nc_log, .lnc_default = r->lnc,
		.accel_memory_gib = r->accel_memory_gib, .vcpus = r->vcpus,
		.memory_gib = r->memory_mib < 0 ? -1 : r->memory_mib / 1024,
		.memory_mib = r->memory_mib, .arch = pool(r->arch), .efa = (enum tri)r->efa,
		.max_efa_interfaces = r->max_efa, .efa_device_rdma = (enum tri)r->rdma,
		.gpudirect_rdma = (enum tri)r->gdr,
		.gpu_memory_gib = r->gpu_memory_mib < 0 ? -1 : r->gpu_memory_mib / 1024,
		.gpu_memory_mib = r->gpu_memory_mib, .accel_peak_bf16_tflops = r->peak,
		.efa_gbps = r->efa_gbps, .network_mbps = r->network_mbps,
		.accel_memory_source = pool(r->accel_memory_source),
		.gpu_memory_source = pool(r->gpu_memory_source), .peak_source = pool(r->peak_source),
		.efa_gbps_source = pool(r->efa_gbps_source), .peak_note = pool(r->peak_note),
		.price_spot = r->price_spot, .price_spot_region = pool(r->spot_region),
		.price_spot_source = pool(r->spot_source), .price_spot_date = pool(r->spot_date),
		.price_reserved = r->price_reserved, .price_reserved_region = pool(r->reserved_region),
		.price_reserved_source = pool(r->reserved_source),
		.price_reserved_date = pool(r->reserved_date),
		.capacity_block = r->cb_count ? &catalog__cb_cache[r->cb_first] : NULL,
		.capacity_block_count = r->cb_count, .price_on_demand = r->price_on_demand,
		.price_region = pool(r->price_region), .price_source = pool(r->price_source),
		.price_date = pool(r->price_date), .source = pool(r->source),
		.provisional = pool(r->provisional), .derived = r->derived,
		.derived_note = pool(r->derived_note), .name = row_name(i),
	};
	return t;
}

/* Names longer than this are neither repaired nor compared: no AWS name
 * comes close, and it bounds the stack buffers below. */
#define NAME_MAX_LEN 96

static int name_cmp(const char *entry, const char *s, size_t len)
{
	size_t elen = strlen(entry);
	int c = memcmp(entry, s, elen < len ? elen : len);

	if (c != 0)
		return c;
	return (elen > len) - (elen < len);
}

/* The row of name[0..len), or -1: the block whose first name is the
 * last not after it, then the block. */
static long row_find(const char *name, size_t len)
{
	size_t lo = 0, hi = catalog__name_index_len;

	if (name == NULL)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (name_cmp(catalog__name_index[mid], name, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	lo = (lo - 1) * CATALOG_NAME_BLOCK;
	hi = lo + CATALOG_NAME_BLOCK < catalog__rows_len ? lo + CATALOG_NAME_BLOCK : catalog__rows_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(row_name(mid), name, len);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const struct instance_type *catalog_builtin_find(const char *name, size_t len)
{
	long i = row_find(name, len);

	return i < 0 ? NULL : entry((size_t)i);
}

/* The user's imported instance figures, when there are any, correct the
 * built-in entry or stand for a type it lacks (catalog_overlay.h). */
const struct instance_type *catalog_find(const char *name, size_t len)
{
	const struct instance_type *t = catalog_builtin_find(name, len), *o;

	if (name == NULL || prices_store() == NULL)
		return t;
	o = catalog_overlay(t, name, len);
	return o ? o : t;
}

size_t catalog_count(void)
{
	const char *const *extra;

	return catalog__rows_len + (prices_store() ? catalog_overlay_extra(&extra) : 0);
}

/* The rows before name: its place among them. */
static size_t rows_before(const char *name)
{
	size_t lo = 0, hi = catalog__rows_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(row_name(mid), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The i-th name of the built-in rows and the store's own types merged,
 * both sorted: the k-th store type stands at k + the rows before it. */
static const char *merged_name(size_t i)
{
	const char *const *extra;
	size_t n = catalog_overlay_extra(&extra), before = 0;

	for (size_t k = 0; k < n; k++) {
		size_t at = k + rows_before(extra[k]);
		if (at == i)
			return extra[k];
		if (at < i)
			before++;
	}
	return i - before < catalog__rows_len ? row_name(i - before) : NULL;
}

const struct instance_type *catalog_at(size_t i)
{
	const char *name;

	if (prices_store() == NULL)
		return i < catalog__rows_len ? entry(i) : NULL;
	name = merged_name(i);
	return name ? catalog_find(name, strlen(name)) : NULL;
}

/* What a pasted character most likely meant: '-', '.', a letter, or
 * nothing at all (spaces and invisible characters). -1: no idea. */
static int lookalike_ascii(int32_t cp)
{
	static const struct { int32_t cp; char ascii; } map[] = {
		{ 0x00ad, 0 },   /* soft hyphen */
		{ 0x0430, 'a' }, { 0x0435, 'e' }, { 0x043e, 'o' }, /* Cyrillic */
		{ 0x0440, 'p' }, { 0x0441, 'c' }, { 0x0443, 'y' },
		{ 0x0445, 'x' }, { 0x0455, 's' }, { 0x0456, 'i' },
		{ 0x0458, 'j' }, { 0x03bf, 'o' }, /* Greek omicron */
		{ 0x2010, '-' }, { 0x2011, '-' }, { 0x2012, '-' },
		{ 0x2013, '-' }, { 0x2014, '-' }, { 0x2015, '-' },
		{ 0x2024, '.' }, { 0x2212, '-' }, { 0x3002, '.' },
		{ 0xfe58, '-' }, { 0xfe63, '-' }, { 0xff0e, '.' },
		{ 0xff61, '.' },
	};

	if (cp == 0x00a0 || cp == 0x202f || cp == 0x205f || cp == 0x3000 ||
	    (cp >= 0x2000 && cp <= 0x200d) || cp == 0x2060 || cp == 0xfeff)
		return 0;
	if (cp >= 0xff01 && cp <= 0xff5e) { /* fullwidth ASCII */
		int c = (int)(cp - 0xfee0);
		return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
	}
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].cp == cp)
			return map[i].ascii;
	return -1;
}

/* Repairs look-alikes, upper case and whitespace into out (NUL-ended).
 * Returns false if some character has no ASCII meaning; out then holds
 * '?' in its place, still good enough for an edit distance. */
static bool normalize(const char *s, size_t len, char *out, size_t *olen)
{
	const unsigned char *u = (const unsigned char *)s;
	bool ok = true;
	size_t n = 0, adv, i;

	for (i = 0; i < len && n < NAME_MAX_LEN; i += adv) {
		int32_t cp = utf8_decode((const char *)u + i, len - i, &adv);
		int c;

		if (cp >= 0 && cp < 0x80)
			c = cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : cp;
		else
			c = cp < 0 ? -1 : lookalike_ascii(cp);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0)
			continue;
		if (c < 0x21 || c > 0x7e) {
			ok = false;
			c = '?';
		}
		out[n++] = (char)c;
	}
	out[n] = '\0';
	*olen = n;
	return ok && i >= len;
}

/* Putting a dot in place of a letter costs two: a dropped dot
 * ("c5xlarge") is a likelier slip than a letter typed as a dot, while a
 * dash for a dot ("trn2-48xlarge") is the classic one. */
static size_t sub_cost(char a, char b)
{
	if (a == b)
		return 0;
	return (a == '.') != (b == '.') && a != '-' && b != '-' ? 2 : 1;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* Edit distance where swapping two neighbours is one edit (optimal
 * string alignment), since "84xlarge" for "48xlarge" is one slip; unlike
 * text_edit_distance it weighs dots, which carry the family/size split. */
static size_t edit_distance(const char *a, size_t alen, const char *b,
			    size_t blen)
{
	size_t rows[3][NAME_MAX_LEN + 1];
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];

	for (size_t j = 0; j <= blen; j++)
		prev[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t *t;
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + sub_cost(a[i - 1], b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

/* The catalog name closest to s within limit edits; the first in name
 * order on ties, so the answer is stable. */
static const char *nearest_name(const char *s, size_t len, size_t limit)
{
	size_t best = SIZE_MAX;
	const char *found = NULL;

	if (len > NAME_MAX_LEN)
		return NULL;
	for (size_t i = 0; i < catalog__rows_len; i++) {
		const char *name = row_name(i);
		size_t nlen = strlen(name), d;
		if (nlen > NAME_MAX_LEN)
			continue;
		d = edit_distance(s, len, name, nlen);
		if (d <= limit && d < best) {
			best = d;
			found = name;
		}
	}
	return found;
}

/* The size words people shorten, by EC2's naming: "48xl" and "48x" for
 * 48xlarge (as console lists and chat write them), "lg" for large. A
 * name whose size part is one of these gets the full word, in place. */
static void expand_size(char *s, size_t *len, size_t cap)
{
	static const struct {
		const char *abbrev, *full;
	} sizes[] = {
		{ "xl", "xlarge" }, { "x", "xlarge" }, { "xlg", "xlarge" }, { "lg", "large" },
		{ "lrg", "large" }, { "med", "medium" }, { "sm", "small" },
	};
	char *dot = memchr(s, '.', *len);
	if (!dot)
		return;
	size_t at = (size_t)(dot - s) + 1;
	while (at < *len && s[at] >= '0' && s[at] <= '9')
		at++;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t al = strlen(sizes[i].abbrev), fl = strlen(sizes[i].full);
		if (*len - at != al || memcmp(s + at, sizes[i].abbrev, al) != 0 || at + fl >= cap)
			continue;
		memcpy(s + at, sizes[i].full, fl + 1);
		*len = at + fl;
		return;
	}
}

static void put_suggestion(char *out, size_t cap, const char *s)
{
	size_t n;

	if (cap == 0 || out == NULL)
		return;
	n = s != NULL ? strlen(s) : 0;
	if (n >= cap)
		n = 0;
	memcpy(out, s != NULL ? s : "", n);
	out[n] = '\0';
}

enum catalog_name catalog_check_name(const char *s, size_t len,
				     char *suggestion, size_t cap)
{
	char fixed[NAME_MAX_LEN + 1];
	size_t flen;
	bool clean;

	put_suggestion(suggestion, cap, NULL);
	if (s == NULL)
		return CATALOG_INVALID;
	if (catalog_find(s, len) != NULL)
		return CATALOG_KNOWN;
	/* A well-formed name the catalog lacks is most likely a type newer
	 * than it: never "corrected" to another type (catalog.h). */
	if (catalog_name_plausible(s, len))
		return CATALOG_UNKNOWN_PLAUSIBLE;
	if (len > 4 * NAME_MAX_LEN)
		return CATALOG_INVALID;
	clean = normalize(s, len, fixed, &flen);
	expand_size(fixed, &flen, sizeof fixed);
	if (clean && (catalog_find(fixed, flen) != NULL ||
		      catalog_name_plausible(fixed, flen)))
		put_suggestion(suggestion, cap, fixed);
	else /* a quarter of the length, at least 1 and at most 3 edits */
		put_suggestion(suggestion, cap, nearest_name(fixed, flen,
			flen < 8 ? 1 : flen > 12 ? 3 : flen / 4));
	return CATALOG_INVALID;
}

size_t catalog_family_len(const char *s, size_t len)
{
	const char *dot = s != NULL ? memchr(s, '.', len) : NULL;

	return dot != NULL ? (size_t)(dot - s) : 0;
}

bool catalog_family_sizes(const char *s, size_t len, char *out, size_t cap)
{
	size_t fam = catalog_family_len(s, len), n = 0;
	bool any = false;

	if (cap > 0)
		out[0] = '\0';
	if (fam == 0 || cap == 0)
		return false;
	/* the family's rows are together: its name and a dot sort them so */
	for (size_t i = 0; i < catalog__rows_len; i++) {
		const char *name = row_name(i);
		size_t m;
		if (strncmp(name, s, fam) != 0 || name[fam] != '.')
			continue;
		m = strlen(name + fam + 1);
		any = true;
		if (n + m + (n ? 2 : 0) + 1 > cap)
			break;
		if (n)
			out[n++] = ',', out[n++] = ' ';
		memcpy(out + n, name + fam + 1, m + 1);
		n += m;
	}
	return any;
}

bool catalog_is_neuron(const struct instance_type *t)
{
	return t != NULL && (t->accel == ACCEL_TRAINIUM ||
			     t->accel == ACCEL_TRAINIUM2 ||
			     t->accel == ACCEL_TRAINIUM3 ||
			     t->accel == ACCEL_INFERENTIA2 ||
			     t->accel == ACCEL_INFERENTIA);
}

bool catalog_has_lnc(const struct instance_type *t)
{
	return t != NULL && (t->accel == ACCEL_TRAINIUM2 || t->accel == ACCEL_TRAINIUM3);
}

bool catalog_fig_derived(const struct instance_type *t, enum catalog_fig f)
{
	return t != NULL && (unsigned)f < CATALOG_FIG__COUNT && (t->derived >> f & 1u);
}

bool catalog_lnc_valid(const struct instance_type *t, int lnc)
{
	if (t == NULL)
		return false;
	if (lnc == 0)
		return true;
	if (lnc == 1)
		return catalog_is_neuron(t);
	return lnc == 2 && catalog_has_lnc(t);
}

int catalog_procs_per_node(const struct instance_type *t, int lnc)
{
	if (!catalog_lnc_valid(t, lnc))
		return -1;
	switch (t->accel) {
	case ACCEL_NONE:
		return 0;
	case ACCEL_NVIDIA_GPU:
	case ACCEL_AMD_GPU:
		return t->accel_count;
	case ACCEL_OTHER: /* how its software runs one process per what is unknown */
		return -1;
	case ACCEL_TRAINIUM:
	case ACCEL_TRAINIUM2:
	case ACCEL_TRAINIUM3:
	case ACCEL_INFERENTIA2:
	case ACCEL_INFERENTIA:
		if (lnc == 0)
			lnc = t->lnc_default;
		if (t->neuron_cores_physical < 0 || lnc <= 0)
			return -1;
		return t->neuron_cores_physical / lnc;
	}
	return -1;
}

double catalog_cost(const struct instance_type *t, long nodes, double hours)
{
	if (t == NULL || t->price_on_demand < 0 || nodes < 0 || !(hours >= 0))
		return -1.0;
	return t->price_on_demand * (double)nodes * hours;
}

const struct catalog_price *catalog_capacity_block(const struct instance_type *t,
						   const char *region, const char *date)
{
	const struct catalog_price *best = NULL;

	if (t == NULL || region == NULL)
		return NULL;
	/* sorted by region, then date: the last match not after date wins */
	for (int i = 0; i < t->capacity_block_count; i++) {
		const struct catalog_price *p = &t->capacity_block[i];
		if (strcmp(p->region, region) == 0 && (date == NULL || strcmp(p->date, date) <= 0))
			best = p;
	}
	return best;
}

const char *catalog_accel_kind_name(enum accel_kind k)
{
	switch (k) {
	case ACCEL_NONE:        return "none";
	case ACCEL_NVIDIA_GPU:  return "nvidia-gpu";
	case ACCEL_TRAINIUM:    return "trainium";
	case ACCEL_TRAINIUM2:   return "trainium2";
	case ACCEL_INFERENTIA2: return "inferentia2";
	case ACCEL_TRAINIUM3:   return "trainium3";
	case ACCEL_INFERENTIA:  return "inferentia";
	case ACCEL_AMD_GPU:     return "amd-gpu";
	case ACCEL_OTHER:       return "other";
	}
	return "?";
}

const char *catalog_tri_name(enum tri v)
{
	switch (v) {
	case TRI_NO:      return "no";
	case TRI_YES:     return "yes";
	case TRI_UNKNOWN: break;
	}
	return "unknown";
}
