/* The latency of an MCP `lint` call against the CLI's lint of the same
 * files, in turn, from one small program: a round is one call to a
 * running `trainforge mcp` (a line written, the answer's line read, after
 * the initialize handshake; the server is started once, as an assistant
 * starts it) and one `trainforge lint` run (posix_spawn and wait, as
 * hyperfine -N runs a command), so that both meet the same load.
 *
 * usage: mcp_latency TRAINFORGE ROUNDS SHELLCHECK FILE...
 * prints: the MCP call's median, the CLI's median, the median of the
 * difference within a round (ms), and the MCP call's fastest and slowest */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static FILE *to, *from;

/* One request; its answer, which must be a result that is no tool error. */
static void ask(const char *line)
{
	static char *answer;
	static size_t cap;
	fputs(line, to);
	fflush(to);
	if (getline(&answer, &cap, from) < 0 || !strstr(answer, "\"result\"") ||
	    strstr(answer, "\"isError\":true")) {
		fprintf(stderr, "mcp_latency: the server answered %.300s\n", answer ? answer : "nothing");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fputs("usage: mcp_latency TRAINFORGE ROUNDS SHELLCHECK FILE...\n", stderr);
		return 2;
	}
	const char *tf = argv[1], *shellcheck = argv[3];
	int rounds = atoi(argv[2]), n_files = argc - 4;
	int in[2], out[2];
	if (rounds < 1 || pipe(in) || pipe(out))
		return 2;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	char *server_argv[] = { (char *)tf, "mcp", NULL };
	pid_t server;
	if (posix_spawn(&server, tf, &fa, NULL, server_argv, environ)) {
		perror(tf);
		return 2;
	}
	close(in[0]);
	close(out[1]);
	to = fdopen(in[1], "w");
	from = fdopen(out[0], "r");
	ask("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
	    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n");
	fputs("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n", to);
	char call[8192];
	int len = snprintf(call, sizeof call, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
			   "\"params\":{\"name\":\"lint\",\"arguments\":{\"shellcheck\":\"%s\",\"files\":[", shellcheck);
	for (int i = 0; i < n_files; i++)
		len += snprintf(call + len, sizeof call - (size_t)len, "%s{\"path\":\"%s\"}", i ? "," : "",
				argv[4 + i]);
	snprintf(call + len, sizeof call - (size_t)len, "]}}}\n");

	char **lint = calloc((size_t)n_files + 8, sizeof *lint);
	int k = 0;
	lint[k++] = (char *)tf;
	lint[k++] = "lint";
	lint[k++] = "-q";
	lint[k++] = "--format";
	lint[k++] = "json";
	lint[k++] = "--shellcheck";
	lint[k++] = (char *)shellcheck;
	for (int i = 0; i < n_files; i++)
		lint[k++] = argv[4 + i];
	posix_spawn_file_actions_t quiet;
	posix_spawn_file_actions_init(&quiet);
	posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);

	double *mcp = calloc((size_t)rounds, sizeof *mcp), *cli = calloc((size_t)rounds, sizeof *cli);
	double *diff = calloc((size_t)rounds, sizeof *diff);
	for (int r = -5; r < rounds; r++) { /* five rounds to warm the caches */
		double t0 = now_ms();
		ask(call);
		double t1 = now_ms();
		pid_t pid;
		int status;
		if (posix_spawn(&pid, tf, &quiet, NULL, lint, environ) || waitpid(pid, &status, 0) < 0)
			return 2;
		double t2 = now_ms();
		if (r >= 0) {
			mcp[r] = t1 - t0;
			cli[r] = t2 - t1;
			diff[r] = mcp[r] - cli[r];
		}
	}
	fclose(to);
	waitpid(server, NULL, 0);
	double m = median(mcp, rounds);
	printf("%.3f %.3f %+.3f %.3f %.3f\n", m, median(cli, rounds), median(diff, rounds), mcp[0],
	       mcp[rounds - 1]);
	return 0;
}
