/* The JSON-RPC layer the two servers share (cli/rpc) and the MCP server
 * on it. The input is read as a byte stream in both framings
 * (Content-Length headers and one message a line), each message parsed
 * as the servers parse it; then `trainforge mcp` serves it, after an
 * initialize of its own, with its tools run in this process (so that the
 * fuzzer sees their coverage) in a private directory that is its one
 * root. Contracts: every line the server writes is one JSON value, and
 * a message is never longer than the limit. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "mcp.h"
#include "rpc.h"

static char dir[64];

static void cleanup(void)
{
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fputs("fuzz_rpc: could not remove the private directory\n", stderr);
}

static void setup(void)
{
	strcpy(dir, "/tmp/tf-fuzz-rpc-XXXXXX");
	FUZZ_CHECK(mkdtemp(dir) != NULL);
	char path[96];
	snprintf(path, sizeof path, "%s/cluster.yaml", dir);
	FILE *f = fopen(path, "w");
	FUZZ_CHECK(f != NULL);
	fputs("Region: us-east-1\nImage: {Os: ubuntu2204}\nHeadNode: {InstanceType: c5.xlarge}\n"
	      "Scheduling:\n  Scheduler: slurm\n  SlurmQueues:\n    - Name: q\n", f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1); /* never the user's own settings */
	atexit(cleanup);
}

static int memfd_with(const char *head, const uint8_t *data, size_t size)
{
	int fd = memfd_create("input", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, head, strlen(head)) == (ssize_t)strlen(head));
	FUZZ_CHECK(size == 0 || write(fd, data, size) == (ssize_t)size);
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

/* Every message of the stream in one framing, parsed. */
static void read_all(const uint8_t *data, size_t size, enum rpc_framing framing)
{
	int fd = memfd_with("", data, size);
	struct rpc_in in;
	rpc_in_init(&in, fd, framing, "fuzz");
	const char *body;
	size_t len;
	enum rpc_status st;
	while ((st = rpc_read(&in, &body, &len)) != RPC_EOF) {
		if (st != RPC_MESSAGE)
			continue;
		FUZZ_CHECK(len <= RPC_MAX_MESSAGE);
		struct rpc_msg m;
		rpc_msg_parse(&m, body, len);
		rpc_msg_free(&m);
	}
	rpc_in_free(&in);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	read_all(data, size, RPC_HEADERS);
	read_all(data, size, RPC_LINES);

	int in = memfd_with("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
			    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
			    "\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}\n"
			    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n", data, size);
	int out = memfd_create("output", MFD_CLOEXEC);
	FUZZ_CHECK(out >= 0);
	struct mcp_server s;
	mcp_server_init(&s, in, out);
	free(s.cwd); /* the root: the private directory (libFuzzer's own paths are relative) */
	s.cwd = strdup(dir);
	s.in_process = true;
	s.shellcheck = SHELLCHECK_OFF;
	mcp_serve(&s);
	mcp_server_free(&s);
	close(in);

	/* what the client reads: one JSON value a line */
	off_t n = lseek(out, 0, SEEK_END);
	char *text = malloc((size_t)n + 1);
	FUZZ_CHECK(text && pread(out, text, (size_t)n, 0) == n);
	close(out);
	for (char *line = text, *end = text + n; line < end;) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		FUZZ_CHECK(nl != NULL);
		yamldoc *doc = json_parse(line, (size_t)(nl - line));
		FUZZ_CHECK(doc != NULL);
		yamldoc_free(doc);
		line = nl + 1;
	}
	free(text);
	return 0;
}
