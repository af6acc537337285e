/* Unit tests for the price layer's parts: the JSON and CSV scanners the
 * importers stand on (core/prices/jsonscan.c, csvscan.c), the external
 * sort (sorter.c), the store's reader (core/facts/price_store.c) and the
 * rule that picks a price (core/facts/prices.c: the newer of built-in and
 * imported wins, the store on a tie; unknown is never zero). The
 * importers themselves, on files in AWS's formats, are
 * tests/prices/run.sh's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvscan.h"
#include "jsonscan.h"
#include "price_store.h"
#include "prices.h"
#include "sorter.h"

/* ----------------------------------------------------------- JSON ---- */

static enum json_tok next_text(struct json_scan *s, const char **text)
{
	enum json_tok t = json_next(s);
	size_t len;

	*text = (t == JT_KEY || t == JT_STRING || t == JT_NUMBER) ? json_text(s, &len) : NULL;
	return t;
}

static void json_tokens(void **state)
{
	(void)state;
	static const char doc[] =
		"{\"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\\n\"],\n"
		" \"b\": {\"c\": true, \"d\": false, \"e\": null}, \"f\": \"\"}";
	struct json_scan *s = json_scan_mem(doc, sizeof doc - 1);
	const char *t;

	assert_int_equal(next_text(s, &t), JT_OBJECT);
	assert_int_equal(next_text(s, &t), JT_KEY);
	assert_string_equal(t, "a");
	assert_int_equal(next_text(s, &t), JT_ARRAY);
	assert_int_equal(next_text(s, &t), JT_NUMBER);
	assert_string_equal(t, "1");
	assert_int_equal(next_text(s, &t), JT_NUMBER);
	assert_string_equal(t, "-2.5e3");
	assert_int_equal(next_text(s, &t), JT_STRING);
	assert_string_equal(t, "x\xc3\xa9\xf0\x9f\x98\x80\n"); /* é, U+1F600 from a surrogate pair */
	assert_int_equal(next_text(s, &t), JT_ARRAY_END);
	assert_int_equal(next_text(s, &t), JT_KEY);
	assert_string_equal(t, "b");
	assert_int_equal(json_line(s), 2);
	assert_int_equal(json_col(s), 2);
	assert_int_equal(next_text(s, &t), JT_OBJECT);
	/* the rest of "b" skipped whole */
	assert_true(json_skip(s, JT_OBJECT));
	assert_int_equal(next_text(s, &t), JT_KEY);
	assert_string_equal(t, "f");
	assert_true(json_string_value(s, false));
	assert_string_equal(json_text(s, &(size_t){ 0 }), "");
	assert_int_equal(next_text(s, &t), JT_OBJECT_END);
	assert_int_equal(next_text(s, &t), JT_END);
	assert_null(json_error(s));
	json_scan_free(s);
}

/* Reads to the end; the error message, or NULL when the text is valid. */
static const char *json_verdict(const char *doc, char *msg, size_t cap)
{
	struct json_scan *s = json_scan_mem(doc, strlen(doc));
	enum json_tok t;

	while ((t = json_next(s)) != JT_END && t != JT_ERROR)
		;
	if (t == JT_END) {
		json_scan_free(s);
		return NULL;
	}
	snprintf(msg, cap, "%s", json_error(s));
	json_scan_free(s);
	return msg;
}

static void json_rejects(void **state)
{
	(void)state;
	/* what Python's json.loads rejects too (checked by hand with it) */
	static const char *bad[] = {
		"",                     /* no value */
		"[1,]",                 /* trailing comma */
		"{\"a\":1,}",
		"// c\n1",              /* comment */
		"\"abc",                /* not closed */
		"\"a\tb\"",             /* control character in a string */
		"01",                   /* leading zero */
		"1.",                   /* no digit after the point */
		"-",                    /* nothing after the minus */
		"[1] 2",                /* two values */
		"{1:2}",                /* key not a string */
		"{\"a\" 1}",            /* no colon */
		"[1 2]",                /* no comma */
		"tru",                  /* a cut literal */
		"\"\\x\"",              /* unknown escape */
		"\"\\ud800\"",          /* lone high surrogate */
		"\"\\udc00\"",          /* lone low surrogate */
		"\"\xff\"",             /* not UTF-8 */
		"]",
		"{\"a\":[}",
	};
	char msg[200];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *why = json_verdict(bad[i], msg, sizeof msg);
		if (why == NULL)
			fail_msg("accepted: %s", bad[i]);
	}
	assert_null(json_verdict(" [ ] ", msg, sizeof msg));
	assert_null(json_verdict("\"\\u0000\"", msg, sizeof msg));
	assert_null(json_verdict("-0.0e+1", msg, sizeof msg));
}

static void json_depth_is_bounded(void **state)
{
	(void)state;
	char doc[2 * (JSON_MAX_DEPTH + 2) + 1], msg[200];
	size_t n = 0;

	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		doc[n++] = '[';
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		doc[n++] = ']';
	doc[n] = '\0';
	assert_null(json_verdict(doc, msg, sizeof msg));
	/* one deeper: an error, not a crash */
	memmove(doc + 1, doc, n + 1);
	doc[0] = '[';
	doc[n + 1] = ']';
	doc[n + 2] = '\0';
	assert_non_null(json_verdict(doc, msg, sizeof msg));
}

static void json_error_place(void **state)
{
	(void)state;
	struct json_scan *s = json_scan_mem("{\n  \"a\": [1,\n   ]\n}", 19);

	while (json_next(s) != JT_ERROR)
		;
	assert_int_equal(json_line(s), 3);
	assert_int_equal(json_col(s), 4);
	json_scan_free(s);
}

/* A temporary file holding text; its descriptor, at offset 0. */
static int temp_with(const char *text, size_t len)
{
	char path[] = "/tmp/tf-test-prices-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void json_fd_and_rewind(void **state)
{
	(void)state;
	/* a string longer than any one read, and a second pass */
	size_t big = 3u << 20;
	char *doc = malloc(big + 16);
	size_t n = 0, len;

	doc[n++] = '[';
	doc[n++] = '"';
	memset(doc + n, 'x', big);
	n += big;
	memcpy(doc + n, "\", 7]", 5);
	n += 5;
	int fd = temp_with(doc, n);
	struct json_scan *s = json_scan_fd(fd);
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(json_next(s), JT_ARRAY);
		assert_int_equal(json_next(s), JT_STRING);
		assert_int_equal(strlen(json_text(s, &len)), big);
		assert_int_equal(len, big);
		assert_int_equal(json_next(s), JT_NUMBER);
		assert_int_equal(json_next(s), JT_ARRAY_END);
		assert_int_equal(json_next(s), JT_END);
		assert_int_equal(json_offset(s), n);
		if (pass == 0)
			assert_true(json_rewind(s));
	}
	json_scan_free(s);
	close(fd);
	free(doc);
}

/* ------------------------------------------------------------ CSV ---- */

static void csv_fields(void **state)
{
	(void)state;
	static const char text[] =
		"a,\"b,c\",\"d \"\"e\"\"\",\r\n"
		"\"multi\nline\",x\n"
		",\n"
		"last,no newline";
	struct csv_scan *s = csv_scan_mem(text, sizeof text - 1);
	struct csv_field *f;

	assert_int_equal(csv_next(s, &f), 4);
	assert_memory_equal(f[0].p, "a", 1);
	assert_int_equal(f[1].len, 3);
	assert_memory_equal(f[1].p, "b,c", 3);
	assert_int_equal(f[2].len, 5);
	assert_memory_equal(f[2].p, "d \"e\"", 5);
	assert_int_equal(f[3].len, 0);  /* the CR is the line break's, not the field's */
	assert_int_equal(csv_next(s, &f), 2);
	assert_int_equal(f[0].len, 10);
	assert_memory_equal(f[0].p, "multi\nline", 10);
	assert_int_equal(csv_line(s), 2);
	assert_int_equal(csv_next(s, &f), 2);
	assert_int_equal(csv_line(s), 4); /* the quoted break counted */
	assert_int_equal(f[0].len + f[1].len, 0);
	assert_int_equal(csv_next(s, &f), 2);
	assert_memory_equal(f[1].p, "no newline", 10);
	assert_int_equal(csv_record(s), 4);
	assert_int_equal(csv_next(s, &f), 0);
	assert_null(csv_error(s));
	csv_scan_free(s);
}

static void csv_rejects(void **state)
{
	(void)state;
	static const struct { const char *text, *why; } bad[] = {
		{ "a,\"b\n", "not closed" },
		{ "a,\"b\"c\n", "after a closing quote" },
		{ "a,b\"c\"\n", "a quote inside" },
		{ "a,b\"c\n", "not closed" }, /* an odd quote: the record never ends */
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct csv_scan *s = csv_scan_mem(bad[i].text, strlen(bad[i].text));
		struct csv_field *f;
		assert_int_equal(csv_next(s, &f), -1);
		assert_non_null(strstr(csv_error(s), bad[i].why));
		assert_int_equal(csv_next(s, &f), -1); /* and stays failed */
		csv_scan_free(s);
	}
}

static void csv_watch_and_commas(void **state)
{
	(void)state;
	/* the word may sit anywhere, across a sixteen-byte block too */
	static const char text[] =
		"\"0123456789abcdLinux\",b,c\n"
		"Linu,x,\"a,b\"\n"
		"0123456789abcdeLinux\n";
	struct csv_scan *s = csv_scan_mem(text, sizeof text - 1);
	char *rec;
	size_t len;

	csv_watch(s, "Linux");
	assert_int_equal(csv_raw(s, &rec, &len), 1);
	assert_true(csv_holds(s));
	assert_int_equal(csv_commas(s), 2);
	assert_int_equal(csv_raw(s, &rec, &len), 1);
	assert_false(csv_holds(s));
	assert_int_equal(csv_commas(s), 3); /* the quoted one too */
	assert_int_equal(csv_raw(s, &rec, &len), 1);
	assert_true(csv_holds(s));
	assert_int_equal(len, 20);
	assert_int_equal(csv_raw(s, &rec, &len), 0);
	csv_scan_free(s);
}

static void csv_fd_across_reads(void **state)
{
	(void)state;
	/* 12 MB of records of 1000 bytes: each read of the buffer ends
	 * inside one, and one quoted field holds a break */
	const size_t rows = 12000, width = 1000;
	char *text = malloc(rows * width), *p = text;

	for (size_t r = 0; r < rows; r++) {
		int n = sprintf(p, "%zu,\"q\n\",", r);
		memset(p + n, 'v', width - (size_t)n - 1);
		p[width - 1] = '\n';
		p += width;
	}
	int fd = temp_with(text, rows * width);
	struct csv_scan *s = csv_scan_fd(fd);
	struct csv_field *f;
	size_t seen = 0;
	int n;

	while ((n = csv_next(s, &f)) > 0) {
		assert_int_equal(n, 3);
		assert_int_equal(strtoul(f[0].p, NULL, 10), seen);
		assert_int_equal(f[1].len, 2);
		assert_int_equal(csv_line(s), 2 * seen + 1);
		seen++;
	}
	assert_int_equal(n, 0);
	assert_int_equal(seen, rows);
	csv_scan_free(s);
	close(fd);
	free(text);
}

static void csv_record_is_bounded(void **state)
{
	(void)state;
	size_t n = CSV_MAX_RECORD + 10;
	char *text = malloc(n);

	memset(text, 'x', n);
	text[n - 1] = '\n';
	int fd = temp_with(text, n);
	struct csv_scan *s = csv_scan_fd(fd);
	struct csv_field *f;
	assert_int_equal(csv_next(s, &f), -1);
	assert_non_null(strstr(csv_error(s), "longer than"));
	csv_scan_free(s);
	close(fd);
	free(text);
}

/* --------------------------------------------------------- sorter ---- */

struct collected {
	char prev[64];
	unsigned long n;
	bool ordered;
};

static bool collect(const char *line, size_t len, void *ctx)
{
	struct collected *c = ctx;

	if (len >= sizeof c->prev || strlen(line) != len)
		return c->ordered = false;
	if (c->n > 0 && strcmp(c->prev, line) > 0)
		c->ordered = false;
	memcpy(c->prev, line, len + 1);
	c->n++;
	return true;
}

static size_t files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.' || strncmp(e->d_name, ".trainforge", 11) == 0;
	closedir(d);
	return n;
}

static void sorter_spills_and_merges(void **state)
{
	(void)state;
	char dir[] = "/tmp/tf-test-sorter-XXXXXX";
	assert_non_null(mkdtemp(dir));
	/* the smallest buffer (64 KiB): 400,000 lines make more runs than
	 * are merged at once, so runs are merged into runs on the way */
	struct sorter *s = sorter_new(dir, 1);
	struct collected c = { .ordered = true };
	unsigned long x = 12345;
	char line[32];

	for (unsigned long i = 0; i < 400000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		int n = snprintf(line, sizeof line, "k%016lx", x >> 11);
		assert_true(sorter_add(s, line, (size_t)n));
	}
	assert_int_equal(sorter_lines(s), 400000);
	assert_true(sorter_runs(s) > 16);
	assert_int_equal(files_in(dir), 0); /* runs are unlinked as they are made */
	assert_true(sorter_finish(s, collect, &c));
	assert_true(c.ordered);
	assert_int_equal(c.n, 400000);
	assert_null(sorter_error(s));
	/* a line with a break in it is refused */
	assert_false(sorter_add(s, "a\nb", 3));
	assert_non_null(sorter_error(s));
	sorter_free(s);
	assert_int_equal(rmdir(dir), 0);
}

static void sorter_in_memory(void **state)
{
	(void)state;
	struct sorter *s = sorter_new("/nonexistent", 1u << 20);
	struct collected c = { .ordered = true };

	assert_true(sorter_add(s, "b", 1));
	assert_true(sorter_add(s, "a", 1));
	assert_true(sorter_add(s, "a", 1));
	assert_true(sorter_finish(s, collect, &c)); /* no run: the directory is never used */
	assert_int_equal(c.n, 3);
	assert_true(c.ordered);
	assert_int_equal(sorter_runs(s), 0);
	sorter_free(s);
}

/* ---------------------------------------------------------- store ---- */

static char store_dir[64];

static const char *store_write(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	if (store_dir[0] == '\0') {
		snprintf(store_dir, sizeof store_dir, "/tmp/tf-test-store-XXXXXX");
		assert_non_null(mkdtemp(store_dir));
	}
	snprintf(path, sizeof path, "%s/%s", store_dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

#define STORE_HEAD \
	"trainforge-prices 1\n" \
	"source\t1\tprice-list-csv\t2026-09-12\t2026-11-20\t/data/index.csv\n" \
	"source\t2\tspot-price-history\t-\t2026-11-21\t/data/spot.json\n"

static const char store_text[] = STORE_HEAD
	"m5.large\tus-east-1\ton-demand\t-\t2026-07-20\t0.1\t0.1\t-\t2026-07-20\t1\n"
	"p5.48xlarge\teu-west-1\ton-demand\t-\t2026-09-01\t60.5\t60.5\t-\t2026-09-01\t1\n"
	"p5.48xlarge\teu-west-1\treserved\t1yr/all-upfront/standard\t2026-09-01\t40\t0\t350400\t2026-09-01\t1\n"
	"p5.48xlarge\teu-west-1\tspot\teu-west-1a\t2026-11-01\t20\t20\t-\t-\t2\n"
	"p5.48xlarge\teu-west-1\tspot\teu-west-1a\t2026-11-10\t22\t22\t-\t-\t2\n"
	"p5.48xlarge\teu-west-1\tspot\teu-west-1b\t2026-11-05\t18\t18\t-\t-\t2\n"
	"p5.48xlarge\tus-east-1\ton-demand\t-\t2026-01-01\t1\t1\t-\t2026-01-01\t1\n"
	"trn2.48xlarge\tus-east-1\ton-demand\t-\t2026-07-20\t9.5\t9.5\t-\t2026-07-20\t1\n"
	"zz.unknown\tus-east-1\ton-demand\t-\t2026-09-01\tnot-a-number\t-\t-\t-\t1\n";

static bool count_line(const struct price_line *l, void *ctx)
{
	(void)l;
	++*(int *)ctx;
	return true;
}

static void store_reads(void **state)
{
	(void)state;
	const char *why = NULL;
	bool missing = false;
	struct price_store *s = price_store_open(store_write("good.tsv", store_text), &why, &missing);
	int n = 0;
	size_t bad = 99;

	assert_non_null(s);
	assert_int_equal(price_store_source_count(s), 2);
	assert_string_equal(price_store_source(s, 2)->format, "spot-price-history");
	assert_string_equal(price_store_source(s, 1)->file, "/data/index.csv");
	assert_null(price_store_source(s, 3));
	price_store_each(s, "p5.48xlarge", 11, count_line, &n);
	assert_int_equal(n, 6);
	n = 0;
	price_store_each(s, "p5.4", 4, count_line, &n); /* a prefix is not a type */
	assert_int_equal(n, 0);
	price_store_each(s, "zz.unknown", 10, count_line, &n);
	assert_int_equal(n, 1);
	n = 0;
	price_store_all(s, count_line, &n, &bad);
	assert_int_equal(n, 9);
	assert_int_equal(bad, 0);
	price_store_close(s);

	assert_null(price_store_open(store_write("bad.tsv", "not a store\n"), &why, &missing));
	assert_non_null(why);
	assert_false(missing);
	char path[128];
	snprintf(path, sizeof path, "%s/absent.tsv", store_dir);
	assert_null(price_store_open(path, &why, &missing));
	assert_true(missing);
}

static void line_parse(void **state)
{
	(void)state;
	struct price_line l;
	static const char good[] = "t\tr\ton-demand\t-\t2026-01-01\t1\t1\t-\t-\t3\tvcpus=4";

	assert_true(price_line_parse(good, sizeof good - 1, &l));
	assert_int_equal(l.source, 3);
	assert_int_equal(l.figures_len, 7);
	static const char *bad[] = {
		"t\tr\ton-demand\t-\t2026-01-01\t1\t1\t-\t-",        /* nine fields */
		"t\tr\ton-demand\t-\t2026-1-01\t1\t1\t-\t-\t3",       /* not a date */
		"t\tr\ton-demand\t-\t2026-01-01\t1\t1\t-\t-\tx",      /* source not a number */
		"\tr\ton-demand\t-\t2026-01-01\t1\t1\t-\t-\t3",       /* no type */
		"t\tr\ton-demand\t-\t2026-01-01\t1\t1\t-\t-\t3\tf\textra",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_false(price_line_parse(bad[i], strlen(bad[i]), &l));
}

/* --------------------------------------------------- price_find ---- */

static void find_newer_wins(void **state)
{
	(void)state;
	struct price p;

	prices_release();
	prices_use_store(store_write("find.tsv", store_text));

	/* imported, the only price there */
	assert_true(price_find("p5.48xlarge", "eu-west-1", TERM_ON_DEMAND, NULL, &p));
	assert_int_equal(p.origin, ORIGIN_IMPORTED);
	assert_true(p.usd_per_hour == 60.5);
	assert_string_equal(p.as_of, "2026-09-01");
	assert_string_equal(p.imported, "2026-11-20");
	assert_string_equal(p.source, "/data/index.csv");
	assert_string_equal(p.format, "price-list-csv");

	/* an import older than the built-in price loses to it */
	assert_true(price_find("p5.48xlarge", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	assert_int_equal(p.origin, ORIGIN_BUILTIN);
	assert_true(p.usd_per_hour > 1);
	assert_true(strcmp(p.as_of, "2026-01-01") > 0);

	/* as old as the built-in one (2026-07-20): the store wins the tie */
	assert_true(price_find("m5.large", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	assert_int_equal(p.origin, ORIGIN_IMPORTED);
	assert_true(p.usd_per_hour == 0.1);
	/* none built in (the catalog has no on-demand price for trn2) */
	assert_true(price_find("trn2.48xlarge", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	assert_int_equal(p.origin, ORIGIN_IMPORTED);
	assert_true(p.usd_per_hour == 9.5);

	/* a reserved offer: the one asked for, or unknown (not zero) */
	struct price_offer all = { 1, PURCHASE_ALL, CLASS_STANDARD };
	assert_true(price_find("p5.48xlarge", "eu-west-1", TERM_RESERVED, &all, &p));
	assert_true(p.usd_per_hour == 40);
	assert_true(p.upfront_usd == 350400);
	assert_true(p.hourly_usd == 0);
	assert_false(price_find("p5.48xlarge", "eu-west-1", TERM_RESERVED, NULL, &p));
	assert_true(p.usd_per_hour < 0);
	assert_int_equal(p.origin, ORIGIN_NONE);

	/* spot: each zone's latest; the highest of them, the lowest beside */
	assert_true(price_find("p5.48xlarge", "eu-west-1", TERM_SPOT, NULL, &p));
	assert_true(p.usd_per_hour == 22);
	assert_true(p.low_usd == 18);
	assert_int_equal(p.zones, 2);
	assert_string_equal(p.as_of, "2026-11-10");
	assert_string_equal(p.format, "spot-price-history");

	/* a line whose price does not read is no price */
	assert_false(price_find("zz.unknown", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	/* no store: the built-in price or none */
	prices_release();
	prices_use_store(NULL);
	assert_false(price_find("p5.48xlarge", "eu-west-1", TERM_ON_DEMAND, NULL, &p));
	assert_true(p.usd_per_hour < 0);
	assert_false(price_find("trn2.48xlarge", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	assert_true(price_find("m5.large", "us-east-1", TERM_ON_DEMAND, NULL, &p));
	assert_int_equal(p.origin, ORIGIN_BUILTIN);
	assert_string_equal(p.as_of, "2026-07-20");
	prices_release();
}

static void ages(void **state)
{
	(void)state;
	char today[11];

	setenv("SOURCE_DATE_EPOCH", "1796083200", 1); /* 2026-12-01 */
	prices_today(today);
	assert_string_equal(today, "2026-12-01");
	assert_int_equal(prices_age_days("2026-12-01"), 0);
	assert_int_equal(prices_age_days("2026-11-01"), 30);
	assert_int_equal(prices_age_days("2025-12-01"), 365);
	assert_int_equal(prices_age_days("2026-13-01"), -1);
	assert_int_equal(prices_age_days("yesterday"), -1);
	unsetenv("SOURCE_DATE_EPOCH");
}

static int cleanup(void **state)
{
	(void)state;
	char path[128];
	static const char *names[] = { "good.tsv", "bad.tsv", "find.tsv" };

	if (store_dir[0] == '\0')
		return 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(path, sizeof path, "%s/%s", store_dir, names[i]);
		unlink(path);
	}
	return rmdir(store_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_tokens),
		cmocka_unit_test(json_rejects),
		cmocka_unit_test(json_depth_is_bounded),
		cmocka_unit_test(json_error_place),
		cmocka_unit_test(json_fd_and_rewind),
		cmocka_unit_test(csv_fields),
		cmocka_unit_test(csv_rejects),
		cmocka_unit_test(csv_watch_and_commas),
		cmocka_unit_test(csv_fd_across_reads),
		cmocka_unit_test(csv_record_is_bounded),
		cmocka_unit_test(sorter_spills_and_merges),
		cmocka_unit_test(sorter_in_memory),
		cmocka_unit_test(store_reads),
		cmocka_unit_test(line_parse),
		cmocka_unit_test(find_newer_wins),
		cmocka_unit_test(ages),
	};

	return cmocka_run_group_tests(tests, NULL, cleanup);
}
