/* An external merge sort of lines (sorter.h). */
#include "sorter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

/* At most this many runs at once: when there are as many, they are
 * merged into one, so the memory of the final merge (a read buffer and a
 * line for each run) is bounded too, whatever the input's size. */
#define MAX_RUNS 16
#define READ_BUF (16u << 10)

struct run {
	FILE *f;
	char line[SORTER_MAX_LINE + 2];
	size_t len;
};

struct sorter {
	char *dir;
	char *mem;
	size_t cap, used;
	size_t *lines;       /* offsets of the NUL-ended lines in mem */
	size_t nlines, lines_cap;
	FILE *runs[MAX_RUNS];
	size_t nruns;
	size_t made;         /* runs written in all, merged ones too */
	unsigned long long total;
	char err[200];
};

struct sorter *sorter_new(const char *dir, size_t mem)
{
	struct sorter *s = xcalloc(1, sizeof *s);

	s->dir = xstrdup(dir);
	s->cap = mem < (1u << 16) ? (1u << 16) : mem;
	s->mem = xmalloc(s->cap);
	return s;
}

const char *sorter_error(const struct sorter *s)
{
	return s->err[0] ? s->err : NULL;
}

size_t sorter_runs(const struct sorter *s)
{
	return s->made;
}

unsigned long long sorter_lines(const struct sorter *s)
{
	return s->total;
}

static const char *sort_base; /* qsort has no context argument */

static int by_line(const void *a, const void *b)
{
	return strcmp(sort_base + *(const size_t *)a, sort_base + *(const size_t *)b);
}

static void sort_buffer(struct sorter *s)
{
	if (s->nlines == 0)
		return; /* lines may still be NULL */
	sort_base = s->mem;
	qsort(s->lines, s->nlines, sizeof *s->lines, by_line);
}

/* A temporary file in dir, unlinked at once. */
static FILE *temp_file(struct sorter *s)
{
	size_t n = strlen(s->dir) + 32;
	char *path = xmalloc(n);
	FILE *f = NULL;
	int fd;

	snprintf(path, n, "%s/.trainforge-sort-XXXXXX", s->dir);
	fd = mkstemp(path);
	if (fd >= 0) {
		unlink(path);
		f = fdopen(fd, "w+");
		if (f == NULL)
			close(fd);
	}
	if (f == NULL)
		snprintf(s->err, sizeof s->err, "cannot make a temporary file in %s: %s", s->dir,
			 strerror(errno));
	free(path);
	return f;
}

static bool write_error(struct sorter *s, FILE *f)
{
	snprintf(s->err, sizeof s->err, "cannot write a temporary file in %s: %s", s->dir, strerror(errno));
	fclose(f);
	return false;
}

/* A run written: back to its start, buffered for reading. */
static bool run_add(struct sorter *s, FILE *f)
{
	if (fflush(f) != 0 || ferror(f) || fseek(f, 0, SEEK_SET) != 0)
		return write_error(s, f);
	setvbuf(f, NULL, _IOFBF, READ_BUF);
	s->runs[s->nruns++] = f;
	s->made++;
	return true;
}

static bool merge(struct sorter *s, bool (*emit)(const char *line, size_t len, void *ctx), void *ctx);

static bool run_write(const char *line, size_t len, void *ctx)
{
	FILE *f = ctx;

	return fwrite(line, 1, len, f) == len && putc('\n', f) != EOF;
}

static bool spill(struct sorter *s)
{
	FILE *f;

	if (s->nlines == 0)
		return true;
	if (s->nruns == MAX_RUNS) { /* the runs so far become one */
		if ((f = temp_file(s)) == NULL)
			return false;
		if (!merge(s, run_write, f))
			return sorter_error(s) ? (fclose(f), false) : write_error(s, f);
		if (!run_add(s, f))
			return false;
	}
	if ((f = temp_file(s)) == NULL)
		return false;
	sort_buffer(s);
	for (size_t i = 0; i < s->nlines; i++) {
		fputs(s->mem + s->lines[i], f);
		putc('\n', f);
	}
	if (!run_add(s, f))
		return false;
	s->used = 0;
	s->nlines = 0;
	return true;
}

bool sorter_add(struct sorter *s, const char *line, size_t len)
{
	if (len > SORTER_MAX_LINE || memchr(line, '\n', len) || memchr(line, '\0', len)) {
		snprintf(s->err, sizeof s->err, "a fact line that is too long or holds a line break");
		return false;
	}
	if (s->used + len + 1 > s->cap && !spill(s))
		return false;
	if (s->nlines == s->lines_cap) {
		s->lines_cap = s->lines_cap ? 2 * s->lines_cap : 4096;
		s->lines = xrealloc(s->lines, s->lines_cap * sizeof *s->lines);
	}
	memcpy(s->mem + s->used, line, len);
	s->mem[s->used + len] = '\0';
	s->lines[s->nlines++] = s->used;
	s->used += len + 1;
	s->total++;
	return true;
}

static bool run_read(struct run *r)
{
	if (fgets(r->line, sizeof r->line, r->f) == NULL)
		return false;
	r->len = strlen(r->line);
	if (r->len > 0 && r->line[r->len - 1] == '\n')
		r->line[--r->len] = '\0';
	return true;
}

/* The heap of runs by their current line. */
static void sift_down(struct run **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && strcmp(h[l]->line, h[m]->line) < 0)
			m = l;
		if (l + 1 < n && strcmp(h[l + 1]->line, h[m]->line) < 0)
			m = l + 1;
		if (m == i)
			return;
		struct run *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Merges every run into emit, closing them: s->nruns is 0 afterwards. */
static bool merge(struct sorter *s, bool (*emit)(const char *line, size_t len, void *ctx), void *ctx)
{
	struct run *runs = xcalloc(s->nruns, sizeof *runs), **heap = xcalloc(s->nruns, sizeof *heap);
	size_t n = 0;
	bool ok = true;

	for (size_t i = 0; i < s->nruns; i++) {
		runs[i].f = s->runs[i];
		if (run_read(&runs[i]))
			heap[n++] = &runs[i];
	}
	for (size_t i = n; i-- > 0;)
		sift_down(heap, n, i);
	while (ok && n > 0) {
		ok = emit(heap[0]->line, heap[0]->len, ctx);
		if (!run_read(heap[0]))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	for (size_t i = 0; i < s->nruns; i++) {
		if (ferror(s->runs[i]) && ok) {
			snprintf(s->err, sizeof s->err, "cannot read back a temporary file: %s", strerror(errno));
			ok = false;
		}
		fclose(s->runs[i]);
	}
	s->nruns = 0;
	free(runs);
	free(heap);
	return ok;
}

bool sorter_finish(struct sorter *s, bool (*emit)(const char *line, size_t len, void *ctx), void *ctx)
{
	bool ok = true;

	if (s->nruns == 0) { /* it all fitted: no file at all */
		sort_buffer(s);
		for (size_t i = 0; ok && i < s->nlines; i++)
			ok = emit(s->mem + s->lines[i], strlen(s->mem + s->lines[i]), ctx);
		s->nlines = s->used = 0;
		return ok;
	}
	return spill(s) && merge(s, emit, ctx);
}

void sorter_free(struct sorter *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nruns; i++)
		fclose(s->runs[i]);
	free(s->lines);
	free(s->mem);
	free(s->dir);
	free(s);
}
