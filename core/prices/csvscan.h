/* A record-at-a-time reader of CSV (RFC 4180, as AWS's Price List files
 * and Python's csv module write it): fields quoted or not, "" for a
 * quote inside a quoted field, quoted line breaks, CRLF or LF. It holds
 * one record in a buffer that does not grow with the file, so a bulk
 * offer file of gigabytes is read in constant memory (docs/prices.md). */
#ifndef TF_CSVSCAN_H
#define TF_CSVSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* A record longer than this is an error, not a reason to grow. */
#define CSV_MAX_RECORD (1u << 20)
#define CSV_MAX_FIELDS 512

struct csv_field {
	const char *p; /* unquoted, unescaped; not NUL-ended */
	size_t len;
};

struct csv_scan;

/* Reads fd, or with fd < 0 the len bytes at text (not copied). */
struct csv_scan *csv_scan_fd(int fd);
struct csv_scan *csv_scan_mem(const char *text, size_t len);
void csv_scan_free(struct csv_scan *s);

/* The next record's fields into f (at most CSV_MAX_FIELDS; valid until
 * the next call): their count, 0 at the end of the input, -1 on an error
 * (csv_error says what). csv_raw then csv_split. */
int csv_next(struct csv_scan *s, struct csv_field **f);
/* The next record's bytes, its line break (and a CR before it) left out:
 * 1, 0 at the end of the input, -1 on an error. A reader that drops most
 * records tests these bytes before it splits them. Valid until the next
 * call. */
int csv_raw(struct csv_scan *s, char **rec, size_t *len);
/* The fields of a record csv_raw gave (the quoted ones unescaped in
 * place): their count, or -1 on an error. */
int csv_split(struct csv_scan *s, char *rec, size_t len, struct csv_field **f);
/* The commas of the last record csv_raw gave, quoted ones too: a record
 * with fewer than its fields less one is cut short. */
size_t csv_commas(const struct csv_scan *s);
/* A word csv_raw looks for as it finds a record's end (in the same pass):
 * csv_holds says whether the last record holds it (true when none is
 * watched). A reader that keeps few records tests this first. */
void csv_watch(struct csv_scan *s, const char *word);
bool csv_holds(const struct csv_scan *s);
/* The physical line the last record started on, and its number (1-based). */
unsigned long csv_line(const struct csv_scan *s);
unsigned long csv_record(const struct csv_scan *s);
const char *csv_error(const struct csv_scan *s);

#endif
