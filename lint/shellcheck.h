/* shellcheck on batch scripts: general shell mistakes are its job, not
 * ours. The scripts of a run are split into one batch per core (more
 * when a batch would pass SHELLCHECK_MAX_FILES), each checked by one
 * shellcheck process, a core's worth at a time; its findings come back
 * as diagnostics under their own SC codes. Each process has a time
 * bound, so a script that shellcheck cannot finish costs its batch's
 * findings (LN2001), never the run. */
#ifndef TF_SHELLCHECK_H
#define TF_SHELLCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "trouble.h"

enum shellcheck_mode { SHELLCHECK_AUTO, SHELLCHECK_OFF, SHELLCHECK_REQUIRED };

/* The bound of one shellcheck process: a base (--shellcheck-timeout,
 * SHELLCHECK_TIMEOUT seconds by default) plus a second for every
 * SHELLCHECK_BYTES_PER_SECOND bytes of the scripts it checks, so that a
 * large batch on a busy machine is not stopped: shellcheck reads some
 * 60-180 KB a second of batch scripts. */
#define SHELLCHECK_TIMEOUT 10.0
#define SHELLCHECK_TIMEOUT_MAX 86400.0
enum { SHELLCHECK_BYTES_PER_SECOND = 8192 };
/* The most scripts one process is given: its command line stays far
 * below the system's limit (ARG_MAX); more scripts make more batches
 * than cores, run a core's worth at a time. */
enum { SHELLCHECK_MAX_FILES = 4096 };

/* The address space one shellcheck process may map (RLIMIT_AS): real
 * batch scripts take it under 50 MB, while 5,000 nested $( ) grow it
 * past a gigabyte; GHC's runtime sizes its heap to the limit and exits
 * 251 when the heap is spent, which is a stalled script as a timeout
 * is (LN2001). */
#define SHELLCHECK_MAX_MEMORY ((size_t)512 << 20)
enum { SHELLCHECK_HEAP_EXHAUSTED = 251 };

struct shellcheck_setup {
	enum shellcheck_mode mode;
	const char *program; /* NULL: "shellcheck" from PATH */
	double timeout;      /* the base of the bound, in seconds */
	unsigned jobs;       /* batches at a time; 0: one per core */
};

/* Whether shellcheck should check a file whose enabled rules are these:
 * SC0000 (its findings) is on. --ignore SC0000 or per-file-ignores keep
 * a file away from shellcheck. */
bool shellcheck_wanted(const bool *enabled);

/* The bound for a batch of scripts of `bytes` bytes in all. */
double shellcheck_bound(double timeout, size_t bytes);

/* Runs shellcheck on the scripts' texts as linted. Returns false when it
 * could not run; in AUTO mode a one-line notice goes to trouble, as a
 * silent skip would make local and CI results disagree. A batch stopped
 * at its bound is an LN2001 finding on each of its scripts, counted in
 * *unfinished (which the caller may turn into trouble). */
bool shellcheck_run(struct source *const *scripts, size_t n, const struct shellcheck_setup *how,
		    struct diag_list *diags, struct trouble *trouble, size_t *unfinished);
/* shellcheck_run in two halves, so that a run's own checks of the
 * scripts go on while shellcheck reads them: shellcheck_start writes the
 * scripts' texts as they are now and starts the batches (NULL when there
 * is nothing to run); shellcheck_finish waits for them, adds what they
 * found and frees the run. The sources must stay until then. */
struct shellcheck_batches;
struct shellcheck_batches *shellcheck_start(struct source *const *scripts, size_t n,
					    const struct shellcheck_setup *how);
bool shellcheck_finish(struct shellcheck_batches *run, struct diag_list *diags,
		       struct trouble *trouble, size_t *unfinished);

#endif
