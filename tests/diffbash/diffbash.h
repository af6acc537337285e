/* The differential test of the script model against bash -n: what its
 * commands share (diffbash.c, run.c, wild.c, known.c). */
#ifndef TF_DIFFBASH_H
#define TF_DIFFBASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "judge.h"

/* How one script's two verdicts compare. */
enum db_dir {
	DIR_AGREE,
	DIR_MODEL_REJECTS, /* SB0005 on a script bash accepts */
	DIR_MODEL_ACCEPTS, /* no SB0005 on a script bash rejects */
	DIR_AMBIGUOUS,     /* bash stopped reading early: left out */
	DIR_FAILED,        /* bash could not be run */
	DIR__COUNT
};

struct db_cfg {
	const char *bash; /* the judge: GNU bash 5.2 */
	unsigned jobs;    /* bash processes at a time */
	char tmp[512];    /* scratch directory, removed at exit */
	unsigned serial;  /* names of scratch files */
};

const char *db_dir_name(enum db_dir d);
enum db_dir db_compare(const struct dbb_verdict *b, const struct dbj_verdict *m);
/* The class a disagreement is counted under: its direction and the
 * message of the judge that rejects. */
void db_class(enum db_dir d, const struct dbb_verdict *b, const struct dbj_verdict *m,
	      char *out, size_t cap);

/* A scratch file name, and one text judged both ways. */
void db_scratch(struct db_cfg *c, char *out, size_t cap);
bool db_write(const char *path, const char *text, size_t len);
char *db_slurp(const char *path, size_t *len);
enum db_dir db_judge_text(struct db_cfg *c, const char *text, size_t len,
			  struct dbb_verdict *b, struct dbj_verdict *m);
/* Shrinks a disagreeing text to a small one of the same class; returns
 * the predicate calls made. */
unsigned db_minimise(struct db_cfg *c, struct buf *text, unsigned budget);

/* false when the judge is not GNU bash 5.2: the reason in why */
bool db_bash_ok(const char *bash, char *why, size_t cap);
void db_result(const char *verdict, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double db_now(void);

/* ---- the list of known disagreements (known.c) ----
 * KEY<TAB>DIRECTION<TAB>WHY lines; '#' lines are comments, except
 * "# run: ..." which names the run the gen: keys belong to. */
struct known_entry {
	char *key, *dir, *why;
	bool seen; /* the run met it */
};
struct known {
	struct known_entry *v;
	size_t n, cap;
	char *run;   /* the "# run:" line's text, or NULL */
	bool loaded; /* a file was given and read */
};
bool known_load(struct known *k, const char *path);
struct known_entry *known_find(struct known *k, const char *key);
void known_add(struct known *k, const char *key, const char *dir, const char *why);
/* Sorted by key (gen: keys by number), with a header. */
bool known_write(const struct known *k, const char *path, const char *header, const char *run);
void known_free(struct known *k);

/* ---- commands ---- */
int db_cmd_run(struct db_cfg *c, int argc, char **argv);
int db_cmd_wild(struct db_cfg *c, int argc, char **argv);

#endif
