/* Shared by the libFuzzer targets in this folder: the entry point, a
 * check that aborts (so libFuzzer keeps the input) when a documented
 * contract is broken, and the lint hook the CLI installs for job specs. */
#ifndef TF_FUZZ_H
#define TF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken contract is a finding: say which, then abort. */
#define FUZZ_CHECK(cond)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "%s:%d: contract broken: %s\n",   \
				__FILE__, __LINE__, #cond);               \
			abort();                                          \
		}                                                         \
	} while (0)

/* TF_FUZZ_SKIP=span-offsets,heredoc-span names known findings (tags of
 * the contract checks that accept one) to look past in a long run;
 * `make fuzz` sets nothing. */
static inline int fuzz_skip(const char *tag)
{
	static const char *skip;
	static int read;
	if (!read) {
		skip = getenv("TF_FUZZ_SKIP");
		read = 1;
	}
	if (!skip)
		return 0;
	size_t n = strlen(tag);
	for (const char *p = skip; (p = strstr(p, tag)); p += n)
		if ((p == skip || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* /dev/null, opened once per process. */
static inline FILE *fuzz_devnull(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	FUZZ_CHECK(f != NULL);
	return f;
}

#endif
