/* The two judges of the differential test: the script model, as the
 * linter runs it (an SB0005 finding means the model rejects the
 * script), and bash -n with the [[ ]] quirk detected. */
#ifndef TF_DIFFBASH_JUDGE_H
#define TF_DIFFBASH_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

struct dbj_verdict {
	bool reject;   /* an SB0005 finding */
	bool script;   /* the linter took the file for a batch script */
	char why[160]; /* the first SB0005 message, without the common tail */
};

/* kind_auto: classify the file by its name and text, as for a file on
 * the command line; else read it as a batch script (--kind sbatch). */
void dbj_model(const char *path, const char *text, size_t len, bool kind_auto,
	       struct dbj_verdict *v);

enum dbb_kind {
	DBB_ACCEPT,
	DBB_REJECT,
	DBB_AMBIGUOUS, /* bash stopped reading early and said nothing (the [[ ]] quirk) */
	DBB_FAILED,    /* bash could not be run */
};

struct dbb_verdict {
	enum dbb_kind kind;
	bool warned;   /* accepted with a warning (a here-document ended by EOF) */
	char why[160]; /* bash's first message, without the file and line */
};

/* Judges n files with bash -n, `jobs` processes at a time: one run on
 * each file, and for each accepted one a run on the file with a line
 * appended that must fail (an unmatched fi, after the delimiters of the
 * here-documents bash said were unterminated). A file where that line
 * is not reported was not read to its end: ambiguous. */
/* The directory for bash's stderr and the probes (default /tmp). */
void dbb_scratch(const char *dir);
void dbb_judge(const char *bash, char *const *paths, size_t n, unsigned jobs,
	       struct dbb_verdict *out);

#endif
