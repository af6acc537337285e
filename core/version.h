/* Release numbers as ParallelCluster (3.16.3) and Slurm (25.11.8) write
 * them: major.minor and an optional patch.
 *
 * A number written without a patch ("3.13", "24.05") is a line: it
 * stands for every release of major.minor and compares above each of
 * them, so a target of "24.05" has what any 24.05.x has. A number with a
 * patch is one release; release tables say "added in 24.05" as the exact
 * release 24.05.0, which every 24.05 target has. The zero value is "no
 * version" (unset). Plain values, compared and printed without
 * allocation, so that static tables can hold them. */
#ifndef TF_VERSION_H
#define TF_VERSION_H

#include <stdbool.h>
#include <stddef.h>

struct version {
	unsigned char major, minor, patch;
	bool line; /* no patch was given: the whole line */
};

/* An exact release, for static tables: VERSION_AT(24, 5, 0). */
#define VERSION_AT(a, b, c) { (a), (b), (c), false }
/* A line, for static tables: VERSION_LINE(3, 16). */
#define VERSION_LINE(a, b) { (a), (b), 0, true }

/* Reads "3.13", "3.13.1", "24.05" or "25.11.8" from s[0..len): two or
 * three dot-separated decimal numbers, each 0..254 with at most three
 * digits, nothing else. False (out untouched) otherwise. */
bool version_parse(const char *s, size_t len, struct version *out);
/* <0, 0, >0 as a is older than, the same as, or newer than b; a line
 * compares above every release of it and equal to itself. */
int version_cmp(struct version a, struct version b);
/* False for the zero value (no version). */
bool version_is_set(struct version v);
/* The same major.minor. */
bool version_same_line(struct version a, struct version b);
/* v as a line (its patch dropped). */
struct version version_line_of(struct version v);

/* Printed forms, returned by value so that they can be used in one
 * printf without a buffer: version_text(v, 2).s. minor_digits pads the
 * minor number (Slurm writes 24.05, ParallelCluster 3.6). */
struct version_text {
	char s[16];
};
/* "3.16", "3.16.0", "24.05", "25.11.8": the patch when one was given. */
struct version_text version_text(struct version v, unsigned minor_digits);
/* As version_text, but an exact x.y.0 is printed x.y: for "the release
 * that added it", where 24.05.0 reads better as Slurm 24.05. */
struct version_text version_release_text(struct version v, unsigned minor_digits);

#endif
