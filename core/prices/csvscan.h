/* A record-at-a-time reader of CSV (RFC 4180, as AWS's Price List files
 * and Python's csv module write it): fields quoted or not, "" for a
 * quote inside a quoted field, quoted line breaks, CRLF or LF. It holds
 * one record in a buffer that does not grow with the file, so a bulk
 * offer file of gigabytes is read in constant memory (docs/prices.md). */
#ifndef TF_CSVSCAN_H
#define TF_CSVSCAN_H

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
 * (csv_error says what). */
int csv_next(struct csv_scan *s, struct csv_field **f);
/* The physical line the last record started on, and its number (1-based). */
unsigned long csv_line(const struct csv_scan *s);
unsigned long csv_record(const struct csv_scan *s);
const char *csv_error(const struct csv_scan *s);

#endif
