/* bash -n as the judge: one process per file, a few at a time, stderr
 * kept in a file beside it. bash 5.2 stops reading without a word at a
 * malformed [[ ]] (`[[ a b ]]`) and exits 0, so an exit of 0 proves
 * nothing by itself: the accepted file is judged again with an unmatched
 * `fi` appended, and only a file whose `fi` bash reports was read to its
 * end. */
#include "judge.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "diffbash.h"
#include "xalloc.h"

extern char **environ;

struct job {
	const char *path;
	char err[700];  /* bash's stderr, in the scratch directory */
	int rc; /* -1: bash could not be run */
};

/* Where stderr and the probes go: never beside the input, which may be
 * a corpus others read at the same time. */
static char scratch[600] = "/tmp";
static unsigned serial;

void dbb_scratch(const char *dir)
{
	snprintf(scratch, sizeof scratch, "%s", dir);
}

static pid_t spawn_bash(const char *bash, const char *path, const char *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char *argv[] = { (char *)bash, (char *)"-n", (char *)path, NULL };
	pid_t pid;
	int e = posix_spawnp(&pid, bash, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return e ? -1 : pid;
}

/* Runs every job, `jobs` at a time. */
static void run_all(const char *bash, struct job *v, size_t n, unsigned jobs)
{
	pid_t *pids = xcalloc(jobs ? jobs : 1, sizeof *pids);
	size_t *slot = xcalloc(jobs ? jobs : 1, sizeof *slot);
	unsigned running = 0;
	size_t next = 0;
	while (next < n || running) {
		while (next < n && running < jobs) {
			snprintf(v[next].err, sizeof v[next].err, "%s/e%u.err", scratch, serial++);
			pid_t pid = spawn_bash(bash, v[next].path, v[next].err);
			if (pid < 0) {
				v[next++].rc = -1;
				continue;
			}
			pids[running] = pid;
			slot[running++] = next++;
		}
		if (!running)
			break;
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		for (unsigned i = 0; i < running; i++) {
			if (pids[i] != pid)
				continue;
			v[slot[i]].rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
			pids[i] = pids[running - 1];
			slot[i] = slot[running - 1];
			running--;
			break;
		}
	}
	free(pids);
	free(slot);
}

static char *stderr_of(const char *err)
{
	size_t len;
	char *s = db_slurp(err, &len);
	unlink(err);
	return s ? s : xstrdup("");
}

/* Tokens bash names in "near unexpected token `X'" that say what went
 * wrong; any other word is one of the script's own and is written WORD,
 * so that messages group into classes. */
static const char *const grammar_tokens[] = {
	"fi", "done", "esac", "}", "{", ")", "(", ";;", ";&", ";;&", ";", "&&", "||", "|", "|&", "&",
	"then", "do", "else", "elif", "in", "newline", "!", ">", "<", ">>", "<<", "function",
	"$'\\r'", "[[", "]]", "((", "))",
};

static void normalise(const char *msg, size_t n, char *out, size_t cap)
{
	static const char near[] = "near unexpected token `";
	const char *t = memmem(msg, n, near, sizeof near - 1);
	/* the last quote: the token may hold quotes of its own ($'\r') */
	const char *e = t ? memrchr(msg, '\'', n) : NULL;
	if (!e || e < t + sizeof near - 1) {
		snprintf(out, cap, "%.*s", (int)n, msg);
		return;
	}
	const char *tok = t + sizeof near - 1;
	size_t tlen = (size_t)(e - tok);
	for (size_t i = 0; i < sizeof grammar_tokens / sizeof grammar_tokens[0]; i++) {
		if (strlen(grammar_tokens[i]) == tlen && memcmp(grammar_tokens[i], tok, tlen) == 0) {
			snprintf(out, cap, "%.*s", (int)n, msg);
			return;
		}
	}
	snprintf(out, cap, "%.*sWORD%.*s", (int)(tok - msg), msg, (int)(n - (size_t)(e - msg)), e);
}

static bool is_warning(const char *line, size_t n)
{
	return memmem(line, n, ": warning: ", 11) != NULL;
}

/* "FILE: line N: MESSAGE" -> "MESSAGE", from the first line that is not
 * a warning (or the first line, when all are). */
static void first_message(const char *err, char *out, size_t cap)
{
	const char *pick = err;
	size_t len = strcspn(err, "\n");
	for (const char *line = err; *line;) {
		size_t n = strcspn(line, "\n");
		if (!is_warning(line, n)) {
			pick = line;
			len = n;
			break;
		}
		line += n + (line[n] == '\n');
	}
	const char *at = memmem(pick, len, ": line ", 7);
	const char *msg = at ? memmem(at + 7, len - (size_t)(at + 7 - pick), ": ", 2) : NULL;
	msg = msg ? msg + 2 : pick;
	normalise(msg, len - (size_t)(msg - pick), out, cap);
}

/* The delimiters bash wanted, in order: "...(wanted `EOF')". */
static size_t wanted_delims(const char *err, struct buf *out)
{
	size_t n = 0;
	for (const char *p = err; (p = strstr(p, "(wanted `")) != NULL;) {
		p += 9;
		const char *e = strstr(p, "')");
		if (!e)
			break;
		buf_put(out, p, (size_t)(e - p));
		buf_putc(out, '\n');
		n++;
		p = e;
	}
	return n;
}

static size_t count_newlines(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

/* The second run, on FILE.s: the text, two newlines, the delimiters
 * bash wanted, then "fi". */
struct probe {
	char path[4096];
	char *text;
	size_t len;
	struct buf delims;
	size_t nd;
};

static bool probe_write(struct probe *p)
{
	FILE *f = fopen(p->path, "wb");
	if (!f)
		return false;
	fwrite(p->text, 1, p->len, f);
	fputs("\n\n", f);
	fwrite(p->delims.p ? p->delims.p : "", 1, p->delims.len, f);
	fputs("fi\n", f);
	return fclose(f) == 0;
}

/* ACCEPT when bash reported the appended fi; AMBIGUOUS when it did not
 * and gave no new delimiter to try; -1 to go another round. */
static int probe_read(struct probe *p, int rc, const char *errpath)
{
	if (rc < 0)
		return DBB_FAILED;
	char *err = stderr_of(errpath);
	char want[96];
	snprintf(want, sizeof want, ": line %zu: syntax error near unexpected token `fi'",
		 count_newlines(p->text, p->len) + 3 + p->nd);
	bool seen = rc == 2 && strstr(err, want) != NULL;
	size_t more = !seen && rc == 0 ? wanted_delims(err, &p->delims) : 0;
	free(err);
	p->nd += more;
	return seen ? DBB_ACCEPT : more ? -1 : DBB_AMBIGUOUS;
}

static void probe_free(struct probe *p)
{
	unlink(p->path);
	free(p->text);
	buf_free(&p->delims);
}

/* Every accepted file's probe at once; the rare file that needs more
 * rounds (each delimiter given may let bash meet another unterminated
 * body) gets up to three more, alone. */
static void probe_all(const char *bash, char *const *paths, size_t n, unsigned jobs,
		      char **first_err, struct dbb_verdict *out)
{
	struct probe *pr = xcalloc(n ? n : 1, sizeof *pr);
	struct job *v = xcalloc(n ? n : 1, sizeof *v);
	size_t *which = xcalloc(n ? n : 1, sizeof *which);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (out[i].kind != DBB_ACCEPT)
			continue;
		struct probe *p = &pr[m];
		snprintf(p->path, sizeof p->path, "%s/p%u.sh", scratch, serial++);
		p->text = db_slurp(paths[i], &p->len);
		p->nd = p->text ? wanted_delims(first_err[i], &p->delims) : 0;
		if (!p->text || !probe_write(p)) {
			out[i].kind = DBB_FAILED;
			probe_free(p);
			continue;
		}
		v[m].path = p->path;
		which[m++] = i;
	}
	run_all(bash, v, m, jobs);
	for (size_t k = 0; k < m; k++) {
		struct probe *p = &pr[k];
		int kind = probe_read(p, v[k].rc, v[k].err);
		for (int round = 1; kind < 0 && round < 4; round++) {
			struct job j = { .path = p->path };
			if (!probe_write(p)) {
				kind = DBB_FAILED;
				break;
			}
			run_all(bash, &j, 1, 1);
			kind = probe_read(p, j.rc, j.err);
		}
		out[which[k]].kind = kind < 0 ? DBB_AMBIGUOUS : (enum dbb_kind)kind;
		probe_free(p);
	}
	free(pr);
	free(v);
	free(which);
}

void dbb_judge(const char *bash, char *const *paths, size_t n, unsigned jobs,
	       struct dbb_verdict *out)
{
	struct job *v = xcalloc(n ? n : 1, sizeof *v);
	char **errs = xcalloc(n ? n : 1, sizeof *errs);
	for (size_t i = 0; i < n; i++)
		v[i].path = paths[i];
	run_all(bash, v, n, jobs);
	for (size_t i = 0; i < n; i++) {
		struct dbb_verdict *o = &out[i];
		memset(o, 0, sizeof *o);
		errs[i] = stderr_of(v[i].err);
		first_message(errs[i], o->why, sizeof o->why);
		if (!o->why[0] && v[i].rc > 0)
			snprintf(o->why, sizeof o->why, "exit status %d without a message", v[i].rc);
		o->kind = v[i].rc < 0 ? DBB_FAILED : v[i].rc ? DBB_REJECT : DBB_ACCEPT;
		o->warned = !v[i].rc && strstr(errs[i], "warning:") != NULL;
	}
	probe_all(bash, paths, n, jobs, errs, out);
	for (size_t i = 0; i < n; i++)
		free(errs[i]);
	free(errs);
	free(v);
}
