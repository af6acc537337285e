/* Programs run with a time bound, several at once. One poll loop waits on
 * every running program's exit (a pidfd where the kernel has them), with
 * the nearest bound as its timeout; nothing blocks on a program, so one
 * that hangs, or that closes its output and goes on, costs no more than
 * its bound. A program's standard output is an unlinked temporary file,
 * read once it exited: with a pipe, this process was woken when the output
 * came, at its end and at the exit, each time interrupting the program it
 * waits for on a busy machine; now it is woken once per program. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "xalloc.h"

extern char **environ;

struct slot {
	struct proc *p;     /* NULL: free */
	pid_t pid;
	int out;            /* its stdout: a temporary file */
	int pidfd;          /* readable once it exited; -1 without pidfds */
	bool exited;
	double deadline;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

unsigned proc_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* posix_spawn rather than fork: a large process (the language server)
 * is not copied, and a program that cannot be started is an error here
 * rather than an exit status from a child. */
static pid_t spawn(char *const *argv, int out, int *error)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigdefault(&at, &dfl);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	*error = rc;
	return rc == 0 ? pid : -1;
}

/* A program with a memory bound: posix_spawn cannot set a limit in the
 * child, so this one forks, sets RLIMIT_AS there and execs. A program
 * that cannot be run exits 127 with nothing written (exec_failed). */
static pid_t spawn_bounded(char *const *argv, int out, size_t max_memory, int *error)
{
	pid_t pid = fork();
	if (pid < 0) {
		*error = errno;
		return -1;
	}
	if (pid == 0) {
		struct rlimit as = { (rlim_t)max_memory, (rlim_t)max_memory };
		int null_in = open("/dev/null", O_RDONLY), null_out = open("/dev/null", O_WRONLY);
		if (null_in < 0 || null_out < 0 || dup2(null_in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(null_out, 2) < 0 || setpgid(0, 0) != 0 || setrlimit(RLIMIT_AS, &as) != 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: the group exists before a kill */
	*error = 0;
	return pid;
}

/* A file no name leads to, gone with its last descriptor. */
static int scratch_file(void)
{
	int fd = -1;
#ifdef O_TMPFILE
	fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) { /* a file system without O_TMPFILE */
		char path[] = "/tmp/trainforge-out.XXXXXX";
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	return fd;
}

static bool start(struct slot *s, struct proc *p)
{
	p->status = -1;
	p->timed_out = false;
	int out = scratch_file();
	if (out < 0) {
		p->start_error = errno;
		return false;
	}
	pid_t pid = p->max_memory ? spawn_bounded(p->argv, out, p->max_memory, &p->start_error)
				  : spawn(p->argv, out, &p->start_error);
	if (pid < 0) {
		close(out);
		return false;
	}
	*s = (struct slot){ p, pid, out, pidfd_of(pid), false, now() + p->timeout };
	return true;
}

static void release(struct slot *s)
{
	close(s->out);
	if (s->pidfd >= 0)
		close(s->pidfd);
	s->p = NULL;
}

static void reap(struct slot *s, int options)
{
	int st;
	pid_t r;
	while ((r = waitpid(s->pid, &st, options)) < 0 && errno == EINTR)
		;
	if (r == s->pid) {
		s->exited = true;
		s->p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	} else if (r < 0) {
		s->exited = true; /* not ours to wait for any more */
		s->p->status = -1;
	}
}

/* At its bound: the whole process group goes, and whatever it said is
 * not an answer. */
static void stop(struct slot *s)
{
	if (kill(-s->pid, SIGKILL) != 0 && !s->exited)
		kill(s->pid, SIGKILL);
	if (!s->exited)
		reap(s, 0);
	s->p->status = -1;
	s->p->timed_out = true;
	release(s);
}

/* What the program wrote, once it exited. */
static void collect(struct slot *s)
{
	char chunk[65536];
	off_t at = 0;
	ssize_t n;
	while ((n = pread(s->out, chunk, sizeof chunk, at)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0) {
			buf_put(&s->p->out, chunk, (size_t)n);
			at += n;
		}
}

/* POSIX lets posix_spawn succeed and the child exit with 127 when the
 * program cannot be run (valgrind's does so): with nothing written, that
 * is the start error the caller would otherwise have had. */
static void exec_failed(struct proc *p)
{
	if (p->status == 127 && p->out.len == 0 && !p->start_error)
		p->start_error = ENOENT;
}

/* The programs, the running ones and what the poll loop waits on. */
struct proc_pool {
	struct proc *procs;
	size_t n, next;     /* procs[next..n) are still to start */
	struct slot *slots;
	unsigned jobs;
	size_t running;
	struct pollfd *fds;
	size_t *owner;  /* the slot of each pollfd */
	nfds_t nfds;
};

/* Stops the programs past their bound and lists what to wait on; the
 * timeout (ms) is the nearest bound. */
static int watch(struct proc_pool *pl)
{
	double t = now();
	int wait = -1;
	pl->nfds = 0;
	for (size_t i = 0; i < pl->jobs; i++) {
		struct slot *s = &pl->slots[i];
		if (!s->p)
			continue;
		if (t >= s->deadline) {
			stop(s);
			pl->running--;
			continue;
		}
		int ms = (int)ceil((s->deadline - t) * 1000);
		if (s->pidfd >= 0) {
			pl->fds[pl->nfds] = (struct pollfd){ s->pidfd, POLLIN, 0 };
			pl->owner[pl->nfds++] = i;
		} else if (ms > 1) {
			ms = 1; /* no pidfd: look for its exit again soon */
		}
		wait = wait < 0 || ms < wait ? ms : wait;
	}
	return wait;
}

/* Reaps what exited and takes its output. */
static void react(struct proc_pool *pl)
{
	for (nfds_t k = 0; k < pl->nfds; k++)
		if (pl->fds[k].revents & (POLLIN | POLLHUP | POLLERR))
			reap(&pl->slots[pl->owner[k]], WNOHANG);
	for (size_t i = 0; i < pl->jobs; i++) {
		struct slot *s = &pl->slots[i];
		if (s->p && !s->exited && s->pidfd < 0)
			reap(s, WNOHANG);
		if (s->p && s->exited) {
			collect(s);
			exec_failed(s->p);
			release(s);
			pl->running--;
		}
	}
}

/* Starts programs while slots are free; false when none runs and none
 * is left to start. */
static bool fill(struct proc_pool *pl)
{
	for (size_t i = 0; i < pl->jobs && pl->next < pl->n; i++)
		if (!pl->slots[i].p && start(&pl->slots[i], &pl->procs[pl->next++]))
			pl->running++;
	return pl->running || pl->next < pl->n;
}

struct proc_pool *proc_start(struct proc *procs, size_t n, unsigned jobs)
{
	struct proc_pool *pl = xcalloc(1, sizeof *pl);
	pl->procs = procs;
	pl->n = n;
	pl->jobs = jobs ? jobs : 1;
	pl->slots = xcalloc(pl->jobs, sizeof *pl->slots);
	pl->fds = xcalloc(pl->jobs, sizeof *pl->fds);
	pl->owner = xcalloc(pl->jobs, sizeof *pl->owner);
	fill(pl);
	return pl;
}

void proc_wait(struct proc_pool *pl)
{
	while (fill(pl)) {
		int wait = watch(pl);
		if (!pl->running)
			continue;
		if (poll(pl->fds, pl->nfds, wait) < 0) /* EINTR: look again, the bounds hold */
			for (nfds_t k = 0; k < pl->nfds; k++)
				pl->fds[k].revents = 0;
		react(pl);
	}
	free(pl->owner);
	free(pl->fds);
	free(pl->slots);
	free(pl);
}

void proc_run(struct proc *procs, size_t n, unsigned jobs)
{
	proc_wait(proc_start(procs, n, jobs));
}
