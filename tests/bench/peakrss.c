/* Runs a command and prints its peak resident set size in KiB on stderr:
 * the memory half of `make bench`, without depending on GNU time. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: peakrss COMMAND [ARGS]\n", stderr);
		return 2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("peakrss");
		return 2;
	}
	fprintf(stderr, "peakrss %ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
