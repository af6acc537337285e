/* Programs run with a time bound, several at once, their standard output
 * captured: what lets a run use every core for a tool it calls and never
 * wait on that tool for longer than it allows. */
#ifndef TF_PROC_H
#define TF_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct proc {
	char *const *argv;  /* argv[0] is looked up in PATH */
	double timeout;     /* seconds from its start; past it, it is stopped */
	size_t max_memory;  /* bytes of address space it may map (RLIMIT_AS,
			       set in the child before exec); 0: no bound */
	/* what came of it */
	struct buf out;     /* its standard output */
	int status;         /* its exit status; -1 when it could not be
			       started, ended on a signal or was stopped */
	int start_error;    /* errno when it could not be started, else 0 */
	bool timed_out;     /* stopped at its bound, with its process group */
};

/* Runs procs[0..n), at most jobs (at least 1) at a time, in order, each
 * with stdin from and stderr to /dev/null, in a process group of its
 * own, so that stopping it at its bound (SIGKILL) stops what it started
 * too. Returns when every one has ended. */
void proc_run(struct proc *procs, size_t n, unsigned jobs);
/* proc_run in two halves, for a caller with work of its own meanwhile:
 * proc_start starts the first jobs and returns at once (their bounds
 * run from now); proc_wait starts the rest, returns when every one has
 * ended, and frees the pool. procs must stay until then. */
struct proc_pool;
struct proc_pool *proc_start(struct proc *procs, size_t n, unsigned jobs);
void proc_wait(struct proc_pool *pool);
/* The processors this process may run on (its affinity, else the online
 * ones), at least 1. */
unsigned proc_cores(void);

#endif
