/* --target values and release numbers (core/facts/target.h,
 * core/version.h) on arbitrary bytes: the input split at newlines into
 * --target arguments, applied layer over layer as the settings do; each
 * line also read as a bare version, as ParallelCluster and as Slurm. The
 * contracts: a failed parse writes a message and leaves its output as it
 * was; a parsed version prints back to itself; an applied target is one
 * the table knows. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "target.h"
#include "version.h"

static void one(const char *s, size_t len, struct target *t)
{
	char err[1024];
	struct version v = { 9, 9, 9, false }, before = v;
	if (version_parse(s, len, &v)) {
		FUZZ_CHECK(version_is_set(v));
		struct version back;
		const char *text = version_text(v, 1).s;
		FUZZ_CHECK(version_parse(text, strlen(text), &back));
		FUZZ_CHECK(version_cmp(back, v) == 0 && back.line == v.line);
		FUZZ_CHECK(version_cmp(v, v) == 0);
		FUZZ_CHECK(version_cmp(version_line_of(v), v) >= 0);
	} else {
		FUZZ_CHECK(memcmp(&v, &before, sizeof v) == 0);
	}
	v = before;
	err[0] = '\0';
	if (!target_parse_pc(s, len, &v, err, sizeof err)) {
		FUZZ_CHECK(err[0] && memcmp(&v, &before, sizeof v) == 0);
	} else {
		FUZZ_CHECK(pc_release_find(v) != NULL);
	}
	v = before;
	err[0] = '\0';
	if (!target_parse_slurm(s, len, &v, err, sizeof err))
		FUZZ_CHECK(err[0] && memcmp(&v, &before, sizeof v) == 0);
	else
		FUZZ_CHECK(slurm_line_known(v));
	/* as one --target value (NUL-terminated) */
	char *arg = malloc(len + 1);
	FUZZ_CHECK(arg != NULL);
	memcpy(arg, s, len);
	arg[len] = '\0';
	struct target_request req = { 0 };
	err[0] = '\0';
	if (target_parse_arg(arg, &req, err, sizeof err)) {
		*t = target_apply(*t, &req);
		FUZZ_CHECK(version_is_set(t->pc) && version_is_set(t->slurm));
		FUZZ_CHECK(pc_release_find(t->pc) && slurm_line_known(t->slurm));
		FUZZ_CHECK(strlen(target_describe(t).s) > 0);
	} else {
		FUZZ_CHECK(err[0] && !version_is_set(req.pc) && !version_is_set(req.slurm));
	}
	free(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target t = target_default();
	const char *s = (const char *)data, *end = s + size;
	for (unsigned lines = 0; s < end && lines < 64; lines++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (!memchr(s, '\0', len)) /* a command-line argument holds no NUL */
			one(s, len, &t);
		s += len + 1;
	}
	return 0;
}
