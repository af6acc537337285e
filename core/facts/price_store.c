/* Reading the price store: a mapped, sorted file searched by type
 * (price_store.h has the format). */
#include "price_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

/* A source line's fields are short; a path this long is no store's. */
#define SOURCE_LINE_MAX 4096
#define SOURCES_MAX 4096

struct price_store {
	char *path;
	const char *map;
	size_t size;
	size_t facts;            /* offset of the first fact line */
	struct price_store_source *sources;
	size_t nsources;
};

bool price_field_is(const char *p, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(p, s, n) == 0;
}

static bool is_date(const char *p, size_t n)
{
	if (n != 10 || p[4] != '-' || p[7] != '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (i != 4 && i != 7 && (p[i] < '0' || p[i] > '9'))
			return false;
	return true;
}

size_t price_fields(const char *p, size_t n, const char **f, size_t *len, size_t max)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n && k < max; i++) {
		if (i < n && p[i] != '\t')
			continue;
		f[k] = p + start;
		len[k++] = i - start;
		start = i + 1;
	}
	return k;
}

/* Whether the k fields price_fields gave are the whole line. */
static bool all_fields(const char *p, size_t n, const char **f, const size_t *len, size_t k)
{
	return k > 0 && f[k - 1] + len[k - 1] == p + n;
}

bool price_line_parse(const char *p, size_t n, struct price_line *l)
{
	const char *f[11];
	size_t len[11], k = price_fields(p, n, f, len, 11);
	unsigned long id = 0;

	if (k < 10 || !all_fields(p, n, f, len, k) || len[0] == 0 || len[2] == 0 || len[9] == 0 || len[9] > 6 ||
	    len[4] < 10 || !is_date(f[4], 10))
		return false;
	for (size_t i = 0; i < len[9]; i++) {
		if (f[9][i] < '0' || f[9][i] > '9')
			return false;
		id = id * 10 + (unsigned long)(f[9][i] - '0');
	}
	*l = (struct price_line){
		.type = f[0], .type_len = len[0], .region = f[1], .region_len = len[1],
		.kind = f[2], .kind_len = len[2], .variant = f[3], .variant_len = len[3],
		.as_of = f[4], .as_of_len = len[4], .usd = f[5], .usd_len = len[5],
		.hourly = f[6], .hourly_len = len[6], .upfront = f[7], .upfront_len = len[7],
		.effective = f[8], .effective_len = len[8], .source = (unsigned)id,
		.figures = k == 11 ? f[10] : "", .figures_len = k == 11 ? len[10] : 0,
	};
	return true;
}

/* "source ID FORMAT PUBLISHED IMPORTED FILE" */
static bool source_parse(const char *p, size_t n, struct price_store_source *s)
{
	const char *f[6];
	size_t len[6], k;

	if (n > SOURCE_LINE_MAX)
		return false;
	/* no control bytes: what is read is written back as C strings */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 && p[i] != '\t')
			return false;
	k = price_fields(p, n, f, len, 6);
	if (k != 6 || !all_fields(p, n, f, len, k) || !price_field_is(f[0], len[0], "source") || len[1] == 0 ||
	    len[1] > 6 || len[2] == 0 || len[2] >= sizeof s->format ||
	    !(price_field_is(f[3], len[3], "-") || is_date(f[3], len[3])) || !is_date(f[4], len[4]))
		return false;
	s->id = 0;
	for (size_t i = 0; i < len[1]; i++) {
		if (f[1][i] < '0' || f[1][i] > '9')
			return false;
		s->id = s->id * 10 + (unsigned)(f[1][i] - '0');
	}
	memcpy(s->format, f[2], len[2]);
	s->format[len[2]] = '\0';
	memcpy(s->published, f[3], len[3]);
	s->published[len[3]] = '\0';
	memcpy(s->imported, f[4], len[4]);
	s->imported[len[4]] = '\0';
	s->file = xmalloc(len[5] + 1);
	memcpy(s->file, f[5], len[5]);
	s->file[len[5]] = '\0';
	return true;
}

static size_t line_end(const struct price_store *s, size_t at)
{
	const char *nl = memchr(s->map + at, '\n', s->size - at);

	return nl ? (size_t)(nl - s->map) : s->size;
}

struct price_store *price_store_open(const char *path, const char **why, bool *missing)
{
	struct price_store *s;
	struct stat st;
	size_t at, magic = strlen(PRICE_STORE_MAGIC);
	int fd;

	*missing = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*missing = errno == ENOENT;
		*why = *missing ? "no such file" : "cannot be read";
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = "is not a regular file";
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->size = (size_t)st.st_size;
	if (s->size > magic) {
		void *m = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, fd, 0);
		s->map = m == MAP_FAILED ? NULL : m;
	}
	close(fd);
	if (s->map == NULL || memcmp(s->map, PRICE_STORE_MAGIC, magic) != 0 || s->map[magic] != '\n') {
		*why = "is not a trainforge price store (its first line is not \"" PRICE_STORE_MAGIC "\")";
		price_store_close(s);
		return NULL;
	}
	s->path = xstrdup(path);
	for (at = magic + 1; at < s->size;) {
		size_t end = line_end(s, at);
		struct price_store_source src;
		if (end - at >= 7 && memcmp(s->map + at, "source\t", 7) == 0) {
			if (s->nsources == SOURCES_MAX || !source_parse(s->map + at, end - at, &src)) {
				*why = "has a malformed source line";
				price_store_close(s);
				return NULL;
			}
			s->sources = xrealloc(s->sources, (s->nsources + 1) * sizeof *s->sources);
			s->sources[s->nsources++] = src;
		} else if (!(end > at && s->map[at] == '#')) {
			break;
		}
		at = end + 1;
	}
	s->facts = at < s->size ? at : s->size;
	return s;
}

void price_store_close(struct price_store *s)
{
	if (s == NULL)
		return;
	if (s->map != NULL)
		munmap((void *)s->map, s->size);
	for (size_t i = 0; i < s->nsources; i++)
		free(s->sources[i].file);
	free(s->sources);
	free(s->path);
	free(s);
}

const char *price_store_path(const struct price_store *s)
{
	return s->path;
}

/* The start of the line that holds byte at. */
static size_t line_start(const struct price_store *s, size_t at)
{
	while (at > s->facts && s->map[at - 1] != '\n')
		at--;
	return at;
}

/* The type of the line at start compared with key (bytewise, the type
 * ends at the first tab). */
static int type_cmp(const struct price_store *s, size_t start, const char *key, size_t klen)
{
	size_t end = line_end(s, start), n = 0;
	int c;

	while (start + n < end && s->map[start + n] != '\t')
		n++;
	c = memcmp(s->map + start, key, n < klen ? n : klen);
	if (c != 0)
		return c;
	return (n > klen) - (n < klen);
}

void price_store_each(const struct price_store *s, const char *type, size_t type_len,
		      bool (*fn)(const struct price_line *l, void *ctx), void *ctx)
{
	size_t lo = s->facts, hi = s->size;

	if (type_len == 0)
		return;
	/* lo: the first line whose type is not below type */
	while (lo < hi) {
		size_t mid = line_start(s, lo + (hi - lo) / 2);
		if (mid < lo)
			mid = lo;
		if (type_cmp(s, mid, type, type_len) < 0) {
			lo = line_end(s, mid) + 1;
		} else {
			if (mid == lo)
				break;
			hi = mid;
		}
	}
	for (size_t at = lo; at < s->size;) {
		size_t end = line_end(s, at);
		struct price_line l;
		if (type_cmp(s, at, type, type_len) != 0)
			return;
		if (price_line_parse(s->map + at, end - at, &l) && !fn(&l, ctx))
			return;
		at = end + 1;
	}
}

void price_store_all(const struct price_store *s, bool (*fn)(const struct price_line *l, void *ctx),
		     void *ctx, size_t *bad)
{
	*bad = 0;
	for (size_t at = s->facts; at < s->size;) {
		size_t end = line_end(s, at);
		struct price_line l;
		if (end == at)
			;
		else if (!price_line_parse(s->map + at, end - at, &l))
			++*bad;
		else if (!fn(&l, ctx))
			return;
		at = end + 1;
	}
}

const struct price_store_source *price_store_source(const struct price_store *s, unsigned id)
{
	for (size_t i = 0; s != NULL && i < s->nsources; i++)
		if (s->sources[i].id == id)
			return &s->sources[i];
	return NULL;
}

const char *price_store_facts(const struct price_store *s, size_t *len)
{
	*len = s->size - s->facts;
	return s->map + s->facts;
}

size_t price_store_source_count(const struct price_store *s)
{
	return s->nsources;
}

const struct price_store_source *price_store_source_at(const struct price_store *s, size_t i)
{
	return i < s->nsources ? &s->sources[i] : NULL;
}
