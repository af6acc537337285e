/* The import: every file read into sorted parts, the parts combined into
 * facts, the facts merged with the store into a new file that replaces
 * it in one rename (import.h; the store's format is price_store.h). */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "catalog.h"
#include "fileio.h"
#include "import_internal.h"
#include "price_store.h"
#include "sorter.h"
#include "xalloc.h"

#define HOURS_PER_YEAR 8760.0 /* AWS bills a year of a reservation as 365 days */

/* ---- small checks the readers share ------------------------------------- */

bool import_eq(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

bool import_ieq(const char *s, size_t n, const char *lit)
{
	if (strlen(lit) != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = s[i], b = lit[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return true;
}

bool import_price_ok(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (n == 0 || n > 32)
		return false;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (digits == 0)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e;
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (e = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == e)
			return false;
	}
	return i == n;
}

bool import_date(const char *s, size_t n, char out[11])
{
	int y, m, d;

	if (n < 10 || s[4] != '-' || s[7] != '-' || (n > 10 && s[10] != 'T' && s[10] != ' '))
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 2000 || m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	memcpy(out, s, 10);
	out[10] = '\0';
	return true;
}

bool import_region_ok(const char *s, size_t n)
{
	size_t i = 0, parts = 0;

	if (n > 24)
		return false;
	while (i < n) {
		size_t start = i;
		while (i < n && s[i] >= 'a' && s[i] <= 'z')
			i++;
		if (i == start)
			break;
		parts++;
		if (i >= n || s[i] != '-')
			return false;
		i++;
	}
	if (parts < 2 || parts > 3 || i >= n || s[i] < '1' || s[i] > '9')
		return false;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i == n;
}

int import_years(const char *s, size_t n)
{
	if (import_eq(s, n, "1yr") || import_eq(s, n, "1 yr") || import_eq(s, n, "1"))
		return 1;
	if (import_eq(s, n, "3yr") || import_eq(s, n, "3 yr") || import_eq(s, n, "3"))
		return 3;
	return 0;
}

enum price_purchase import_purchase(const char *s, size_t n)
{
	if (import_ieq(s, n, "No Upfront") || import_ieq(s, n, "NoUpfront"))
		return PURCHASE_NO_UPFRONT;
	if (import_ieq(s, n, "Partial Upfront") || import_ieq(s, n, "PartialUpfront"))
		return PURCHASE_PARTIAL;
	if (import_ieq(s, n, "All Upfront") || import_ieq(s, n, "AllUpfront"))
		return PURCHASE_ALL;
	return PURCHASE_ANY;
}

/* ---- the sink ------------------------------------------------------------- */

bool sink_fail(struct sink *k, unsigned long line, unsigned long col, const char *fmt, ...)
{
	va_list ap;

	if (k->failed)
		return false;
	buf_printf(k->err, "%s:%lu:%lu: ", k->path, line ? line : 1, col ? col : 1);
	va_start(ap, fmt);
	buf_vprintf(k->err, fmt, ap);
	va_end(ap);
	k->failed = true;
	return false;
}

static bool clean_field(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return n > 0;
}

bool sink_part(struct sink *k, const struct part *p)
{
	char variant[48], date[11];
	struct price_offer o;

	if (!catalog_name_plausible(p->type, p->type_len))
		return sink_fail(k, p->line, 1, "'%.*s' is not an EC2 instance type", (int)(p->type_len > 64 ? 64 : p->type_len), p->type);
	if (!import_region_ok(p->region, p->region_len))
		return sink_fail(k, p->line, 1, "'%.*s' is not an AWS Region", (int)(p->region_len > 64 ? 64 : p->region_len), p->region);
	if (!import_price_ok(p->value, p->value_len))
		return sink_fail(k, p->line, 1, "price '%.*s' is not a decimal number", (int)(p->value_len > 64 ? 64 : p->value_len), p->value);
	if (p->effective_len > 0 && !import_date(p->effective, p->effective_len, date))
		return sink_fail(k, p->line, 1, "effective date '%.*s' is not a date (YYYY-MM-DD)", (int)(p->effective_len > 64 ? 64 : p->effective_len), p->effective);
	if (p->offer_len > 64 || !clean_field(p->offer_id, p->offer_len) || memchr(p->offer_id, '\t', p->offer_len))
		return sink_fail(k, p->line, 1, "an offer code that is empty, too long or holds control characters");
	variant[0] = '-', variant[1] = '\0';
	if (p->term == TERM_RESERVED || p->term == TERM_SAVINGS_PLAN) {
		price_offer_resolve(p->term, &p->offer, &o);
		price_offer_variant(&o, variant, sizeof variant);
	} else if (p->term == TERM_SPOT) {
		if (p->zone_len == 0 || p->zone_len >= 32 || !clean_field(p->zone, p->zone_len) ||
		    memchr(p->zone, '\t', p->zone_len))
			return sink_fail(k, p->line, 1, "an Availability Zone that is empty or too long");
		memcpy(variant, p->zone, p->zone_len);
		variant[p->zone_len] = '\0';
	}
	buf_reset(&k->line);
	buf_printf(&k->line, "%.*s\t%.*s\t%s\t%s\t%.*s\t%c\t%.*s\t%s\t%s\t%u\t%lu", (int)p->type_len,
		   p->type, (int)p->region_len, p->region, price_term_name(p->term), variant,
		   (int)p->offer_len, p->offer_id, p->comp, (int)p->value_len, p->value, p->as_of,
		   p->effective_len ? date : "-", k->source, p->line);
	k->report->kept++;
	if (!sorter_add(k->sorter, k->line.p, k->line.len))
		return sink_fail(k, p->line, 1, "%s", sorter_error(k->sorter));
	return true;
}

bool sink_figures(struct sink *k, const char *type, size_t type_len, const char *as_of,
		  const char *figures, unsigned long line)
{
	if (!catalog_name_plausible(type, type_len))
		return sink_fail(k, line, 1, "'%.*s' is not an EC2 instance type", (int)(type_len > 64 ? 64 : type_len), type);
	buf_reset(&k->line);
	buf_printf(&k->line, "%.*s\t-\tfigures\t-\t-\t%c\t-\t%s\t-\t%u\t%lu\t%s", (int)type_len, type,
		   PART_FIGURES, as_of, k->source, line, figures);
	k->report->kept++;
	if (!sorter_add(k->sorter, k->line.p, k->line.len))
		return sink_fail(k, line, 1, "%s", sorter_error(k->sorter));
	return true;
}

/* ---- parts into facts ------------------------------------------------------ */

/* Bytes of the first n tab-separated fields of line (the key), or the whole. */
static size_t key_len(const char *p, size_t len, int n)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] == '\t' && --n == 0)
			return i;
	return len;
}

static bool is_spot(const char *p, size_t len)
{
	const char *f[4];
	size_t l[4];

	return price_fields(p, len, f, l, 4) == 4 && import_eq(f[2], l[2], "spot");
}

struct fact {
	struct buf line;     /* the store's line */
	char as_of[32], effective[11];
	double usd;
	unsigned source;
	bool set;
};

struct merge {
	/* the store being replaced, read alongside */
	const struct price_store *old;
	const char *old_map;
	size_t old_at, old_size;
	FILE *out;
	unsigned long long written, fresh;
	bool *used_sources;
	size_t used_cap;
	struct buf *err;
	bool failed;
	/* the offer being combined */
	struct buf group;    /* the first five fields of its parts */
	double hourly, upfront, rate;
	bool have_h, have_u, have_r;
	char as_of[32], effective[11], figures[2048];
	unsigned source;
	unsigned long line;
	int years;
	/* the best offer of a key */
	struct fact best;
	struct buf best_key;
	const char *paths_of[4096]; /* source id -> path, for messages */
};

static void mark_source(struct merge *m, unsigned id)
{
	if (id >= m->used_cap) {
		size_t cap = id + 64;
		m->used_sources = xrealloc(m->used_sources, cap * sizeof *m->used_sources);
		memset(m->used_sources + m->used_cap, 0, (cap - m->used_cap) * sizeof *m->used_sources);
		m->used_cap = cap;
	}
	m->used_sources[id] = true;
}

static bool write_line(struct merge *m, const char *p, size_t n, unsigned source)
{
	mark_source(m, source);
	if (fwrite(p, 1, n, m->out) != n || putc('\n', m->out) == EOF) {
		buf_printf(m->err, "cannot write the new price store: %s", strerror(errno));
		m->failed = true;
		return false;
	}
	m->written++;
	return true;
}

/* The old store's next line, or false at its end. */
static bool old_line(struct merge *m, const char **p, size_t *n, struct price_line *l)
{
	while (m->old_at < m->old_size) {
		const char *s = m->old_map + m->old_at;
		const char *nl = memchr(s, '\n', m->old_size - m->old_at);
		size_t len = nl ? (size_t)(nl - s) : m->old_size - m->old_at;
		/* a line that is not a fact does not carry over, nor does a fact
		 * whose source line is gone (it could not say where it came from) */
		if (price_line_parse(s, len, l) && price_store_source(m->old, l->source) != NULL) {
			*p = s;
			*n = len;
			return true;
		}
		m->old_at += len + 1;
	}
	return false;
}

/* Compares the keys of two fact lines: type, region, kind, variant, and
 * for spot prices the time too (every spot price is kept). */
static int key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int fields = is_spot(a, an) && is_spot(b, bn) ? 5 : 4;
	size_t ka = key_len(a, an, fields), kb = key_len(b, bn, fields);
	int c = memcmp(a, b, ka < kb ? ka : kb);

	return c ? c : (ka > kb) - (ka < kb);
}

/* Writes the old lines that sort before a new fact, and drops the old
 * line of the same key when the new one is not older. */
static bool merge_fact(struct merge *m, const char *p, size_t n, const char *as_of, unsigned source)
{
	const char *op;
	size_t on;
	struct price_line ol;
	bool write_new = true;

	while (old_line(m, &op, &on, &ol)) {
		int c = key_cmp(op, on, p, n);
		if (c > 0)
			break;
		if (c == 0) {
			/* the same key: the newer as-of stays, the new file on a tie */
			size_t nl = strlen(as_of), min = nl < ol.as_of_len ? nl : ol.as_of_len;
			int d = memcmp(ol.as_of, as_of, min);
			if (d > 0 || (d == 0 && ol.as_of_len > nl))
				write_new = false;
			if (!write_new && !write_line(m, op, on, ol.source))
				return false;
			m->old_at += on + 1;
			continue;
		}
		if (!write_line(m, op, on, ol.source))
			return false;
		m->old_at += on + 1;
	}
	if (write_new) {
		m->fresh++;
		return write_line(m, p, n, source);
	}
	return true;
}

/* The best offer of a key is final: into the store. */
static bool flush_best(struct merge *m)
{
	bool ok = true;

	if (m->best.set)
		ok = merge_fact(m, m->best.line.p, m->best.line.len, m->best.as_of, m->best.source);
	m->best.set = false;
	buf_reset(&m->best_key);
	return ok;
}

static void fmt_usd(struct buf *b, double v)
{
	if (v < 0)
		buf_puts(b, "-");
	else
		buf_printf(b, "%.10g", v);
}

/* The offer gathered in m is whole: its fact, kept when it is the key's
 * best so far (latest as-of, then latest effective date, then cheapest). */
static bool flush_offer(struct merge *m)
{
	const char *f[6];
	size_t l[6];
	struct fact c = { BUF_INIT, "", "", 0, 0, false };
	double usd, hourly = -1, upfront = -1;
	bool spot, better;
	int kf;

	if (m->group.len == 0)
		return true;
	price_fields(m->group.p, m->group.len, f, l, 6);
	spot = import_eq(f[2], l[2], "spot");
	if (import_eq(f[2], l[2], "figures")) {
		usd = -1;
	} else if (m->have_h || m->have_u) {
		if (!m->have_h) {
			buf_printf(m->err, "%s:%lu:1: the reserved offer %.*s has an upfront fee but no hourly rate",
				   m->paths_of[m->source % 4096] ? m->paths_of[m->source % 4096] : "?", m->line,
				   (int)l[4], f[4]);
			m->failed = true;
			return false;
		}
		hourly = m->hourly;
		upfront = m->have_u ? m->upfront : 0;
		usd = hourly + (m->years > 0 ? upfront / (m->years * HOURS_PER_YEAR) : 0);
	} else {
		usd = hourly = m->rate;
	}
	buf_printf(&c.line, "%.*s\t%.*s\t%.*s\t%.*s\t%s\t", (int)l[0], f[0], (int)l[1], f[1], (int)l[2],
		   f[2], (int)l[3], f[3], m->as_of);
	fmt_usd(&c.line, usd);
	buf_putc(&c.line, '\t');
	fmt_usd(&c.line, hourly);
	buf_putc(&c.line, '\t');
	fmt_usd(&c.line, upfront);
	buf_printf(&c.line, "\t%s\t%u", m->effective[0] ? m->effective : "-", m->source);
	if (m->figures[0])
		buf_printf(&c.line, "\t%s", m->figures);
	snprintf(c.as_of, sizeof c.as_of, "%s", m->as_of);
	snprintf(c.effective, sizeof c.effective, "%s", m->effective);
	c.usd = usd;
	c.source = m->source;
	c.set = true;
	/* the key: four fields, five for spot (each time of a spot price stays) */
	kf = spot ? 5 : 4;
	size_t kl = key_len(c.line.p, c.line.len, kf);
	if (m->best_key.len != kl || memcmp(m->best_key.p, c.line.p, kl) != 0) {
		if (!flush_best(m)) {
			buf_free(&c.line);
			return false;
		}
		buf_put(&m->best_key, c.line.p, kl);
	}
	better = !m->best.set;
	if (!better) {
		int a = strcmp(c.as_of, m->best.as_of), e = strcmp(c.effective, m->best.effective);
		better = a > 0 || (a == 0 && (e > 0 || (e == 0 && (c.usd < m->best.usd ||
			 (c.usd == m->best.usd && c.source > m->best.source)))));
	}
	if (better) {
		buf_free(&m->best.line);
		m->best = c;
	} else {
		buf_free(&c.line);
	}
	m->group.len = 0;
	return true;
}

/* A sorted part: gathered into its offer. */
static bool combine(const char *p, size_t n, void *ctx)
{
	struct merge *m = ctx;
	const char *f[12];
	size_t l[12], k = price_fields(p, n, f, l, 12), gl = key_len(p, n, 5);
	double v;

	if (k < 11)
		return true; /* cannot happen: the sink wrote it */
	if (m->group.len != gl || memcmp(m->group.p, p, gl) != 0) {
		if (!flush_offer(m))
			return false;
		buf_reset(&m->group);
		buf_put(&m->group, p, gl);
		m->have_h = m->have_u = m->have_r = false;
		m->hourly = m->upfront = m->rate = 0;
		m->figures[0] = '\0';
	}
	v = strtod(f[6], NULL);
	switch (f[5][0]) {
	case PART_HOURLY: m->hourly += v; m->have_h = true; break;
	case PART_UPFRONT: m->upfront += v; m->have_u = true; break;
	case PART_RATE: m->rate = v; m->have_r = true; break;
	default:
		snprintf(m->figures, sizeof m->figures, "%.*s", k > 11 ? (int)l[11] : 0, k > 11 ? f[11] : "");
		break;
	}
	snprintf(m->as_of, sizeof m->as_of, "%.*s", (int)l[7], f[7]);
	snprintf(m->effective, sizeof m->effective, "%.*s", l[8] == 10 ? 10 : 0, f[8]);
	m->source = (unsigned)strtoul(f[9], NULL, 10);
	m->line = strtoul(f[10], NULL, 10);
	m->years = import_eq(f[2], l[2], "reserved") ? (l[3] > 0 && f[3][0] == '3' ? 3 : 1) : 0;
	return true;
}

/* ---- the store file --------------------------------------------------------- */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	char *d = xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

/* A path as a source line holds it: no tab or line break. */
static void put_path(struct buf *b, const char *path)
{
	for (const char *p = path; *p; p++)
		buf_putc(b, (*p == '\t' || *p == '\n' || *p == '\r') ? '?' : *p);
}

/* The first byte that is not white space: '{' is JSON, anything else
 * CSV; -1 at the end of the input, -2 on a read error. */
static int sniff(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) == 1)
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return (unsigned char)c;
	return n == 0 ? -1 : -2;
}

static bool read_file(struct sink *k, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), c;
	bool ok;

	if (fd < 0) {
		buf_printf(k->err, "%s: cannot be read: %s", path, strerror(errno));
		return false; /* trouble, not a malformed file */
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		buf_printf(k->err, "%s: is a directory", path);
		close(fd);
		return false;
	}
	/* a file with no date of its own is as of when it was written */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		struct tm tm;
		time_t t = st.st_mtime;
		gmtime_r(&t, &tm);
		strftime(k->published, sizeof k->published, "%Y-%m-%d", &tm);
	}
	c = sniff(fd);
	if (c == -2 || (c >= 0 && lseek(fd, 0, SEEK_SET) != 0)) {
		buf_printf(k->err, "%s: %s", path, c == -2 ? strerror(errno)
			   : "cannot seek back to its start (import a file, not a pipe)");
		close(fd);
		return false;
	}
	if (c < 0 || c == 0xef) {
		/* AWS's files and the AWS CLI's output have no byte-order mark */
		sink_fail(k, 1, 1, c < 0 ? "the file is empty"
			  : "the file starts with a UTF-8 byte-order mark, which AWS's files do not have");
		close(fd);
		return false;
	}
	ok = c == '{' ? import_json(k, fd) : import_csv(k, fd);
	close(fd);
	return ok && !k->failed;
}

static bool copy_facts(FILE *from, FILE *to)
{
	char buf[1 << 16];
	size_t n;

	if (fseek(from, 0, SEEK_SET) != 0)
		return false;
	while ((n = fread(buf, 1, sizeof buf, from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return false;
	return !ferror(from);
}

/* The merged facts in tmp, and the sources they name, into the store. */
static bool write_store(const char *store, const struct price_store *old,
			const struct import_report *r, const unsigned *ids, FILE *facts,
			const bool *used, size_t used_cap, const char *today, struct buf *err)
{
	struct buf head = BUF_INIT, tmp = BUF_INIT;
	FILE *out;
	int fd;
	bool ok;

	buf_puts(&head, PRICE_STORE_MAGIC "\n");
	for (size_t i = 0; old && i < price_store_source_count(old); i++) {
		const struct price_store_source *s = price_store_source_at(old, i);
		if (s->id >= used_cap || !used[s->id])
			continue;
		buf_printf(&head, "source\t%u\t%s\t%s\t%s\t", s->id, s->format, s->published, s->imported);
		put_path(&head, s->file);
		buf_putc(&head, '\n');
	}
	for (size_t i = 0; i < r->nfiles; i++) {
		if (ids[i] >= used_cap || !used[ids[i]])
			continue;
		char *real = realpath(r->files[i].path, NULL);
		buf_printf(&head, "source\t%u\t%s\t%s\t%s\t", ids[i], r->files[i].format,
			   r->files[i].published[0] ? r->files[i].published : "-", today);
		put_path(&head, real ? real : r->files[i].path);
		free(real);
		buf_putc(&head, '\n');
	}
	buf_printf(&tmp, "%s.tmp-XXXXXX", store);
	fd = mkstemp(tmp.p);
	if (fd < 0 || (out = fdopen(fd, "w")) == NULL) {
		buf_printf(err, "%s: cannot write a temporary file beside it: %s", store, strerror(errno));
		if (fd >= 0)
			close(fd);
		buf_free(&head);
		buf_free(&tmp);
		return false;
	}
	fchmod(fd, 0644);
	ok = fwrite(head.p, 1, head.len, out) == head.len && copy_facts(facts, out) &&
	     fflush(out) == 0 && fsync(fd) == 0;
	ok = fclose(out) == 0 && ok;
	if (ok && rename(tmp.p, store) != 0)
		ok = false;
	if (!ok) {
		buf_printf(err, "%s: cannot be written: %s", store, strerror(errno));
		unlink(tmp.p);
	}
	buf_free(&head);
	buf_free(&tmp);
	return ok;
}

void import_report_free(struct import_report *r)
{
	free(r->files);
	memset(r, 0, sizeof *r);
}

static bool count_fact(const struct price_line *l, void *ctx)
{
	(void)l;
	++*(unsigned long long *)ctx;
	return true;
}

bool prices_import(const char *const *files, size_t nfiles, const struct import_options *o,
		   struct import_report *r, struct buf *err)
{
	char *dir = dir_of(o->store), today[11];
	struct price_store *old = NULL;
	struct sorter *sorter = NULL;
	struct sink k = { 0 };
	struct merge m = { 0 };
	unsigned *ids = NULL, next = 1;
	FILE *facts = NULL;
	int lock = -1;
	bool ok = false, missing;
	const char *why;

	memset(r, 0, sizeof *r);
	prices_today(today);
	if (!dir_make(dir)) {
		buf_printf(err, "%s: cannot make the directory: %s", dir, strerror(errno));
		goto out;
	}
	/* one import at a time writes the store */
	{
		struct buf lp = BUF_INIT;
		buf_printf(&lp, "%s.lock", o->store);
		lock = open(lp.p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		buf_free(&lp);
		if (lock < 0 || flock(lock, LOCK_EX) != 0) {
			buf_printf(err, "%s: cannot lock the price store: %s", o->store, strerror(errno));
			goto out;
		}
	}
	old = price_store_open(o->store, &why, &missing);
	if (old == NULL && !missing) {
		buf_printf(err, "%s: %s; move it away to start a new store", o->store, why);
		goto out;
	}
	if (old) {
		size_t bad;
		price_store_all(old, count_fact, &r->facts_before, &bad);
	}
	for (size_t i = 0; old && i < price_store_source_count(old); i++)
		if (price_store_source_at(old, i)->id >= next)
			next = price_store_source_at(old, i)->id + 1;
	r->files = xcalloc(nfiles ? nfiles : 1, sizeof *r->files);
	r->nfiles = nfiles;
	ids = xcalloc(nfiles ? nfiles : 1, sizeof *ids);
	sorter = sorter_new(dir, o->sort_memory ? o->sort_memory : IMPORT_SORT_MEMORY);
	k.sorter = sorter;
	k.err = err;
	for (size_t i = 0; i < nfiles; i++) {
		if (next >= 4096) {
			buf_printf(err, "%s: the store names too many files; start a new one", o->store);
			goto out;
		}
		ids[i] = next++;
		r->files[i].path = files[i];
		k.source = ids[i];
		k.path = files[i];
		k.report = &r->files[i];
		k.published[0] = '\0';
		m.paths_of[ids[i]] = files[i];
		if (!read_file(&k, files[i]))
			goto out;
	}
	/* every file read: now the store may change */
	{
		int fd;
		char *tpl = xmalloc(strlen(dir) + 32);
		sprintf(tpl, "%s/.trainforge-facts-XXXXXX", dir);
		fd = mkstemp(tpl);
		if (fd >= 0)
			unlink(tpl);
		free(tpl);
		if (fd < 0 || (facts = fdopen(fd, "w+")) == NULL) {
			buf_printf(err, "%s: cannot make a temporary file: %s", dir, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	}
	m.out = facts;
	m.err = err;
	m.old = old;
	if (old) /* the old store's facts, read in place as they merge */
		m.old_map = price_store_facts(old, &m.old_size);
	if (!sorter_finish(sorter, combine, &m) || m.failed || !flush_offer(&m) || !flush_best(&m)) {
		if (sorter_error(sorter) && !m.failed)
			buf_printf(err, "%s", sorter_error(sorter));
		goto out;
	}
	r->runs = sorter_runs(sorter);
	{
		const char *op;
		size_t on;
		struct price_line ol;
		while (old_line(&m, &op, &on, &ol)) {
			if (!write_line(&m, op, on, ol.source))
				goto out;
			m.old_at += on + 1;
		}
	}
	if (fflush(facts) != 0) {
		buf_printf(err, "%s: cannot write a temporary file: %s", dir, strerror(errno));
		goto out;
	}
	r->facts_new = m.fresh;
	r->facts_after = m.written;
	ok = write_store(o->store, old, r, ids, facts, m.used_sources, m.used_cap, today, err);
out:
	r->malformed = !ok && k.failed;
	if (facts)
		fclose(facts);
	buf_free(&m.group);
	buf_free(&m.best.line);
	buf_free(&m.best_key);
	free(m.used_sources);
	buf_free(&k.line);
	sorter_free(sorter);
	price_store_close(old);
	if (lock >= 0)
		close(lock);
	free(ids);
	free(dir);
	return ok;
}
