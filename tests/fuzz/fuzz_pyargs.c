/* The reader of Python command-line definitions (lint/program/pyargs.h)
 * on arbitrary bytes. The contracts: the reading ends (bounded by the
 * input and the depth limit); every argument it keeps has at most
 * PY_MAX_FLAGS flags, each a string that starts with '-'; a reading that
 * is not complete says why; an exact flag matches its own argument. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "pyargs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct py_args a;
	py_args_read((const char *)data, size, &a);
	FUZZ_CHECK(a.complete || a.why != NULL);
	FUZZ_CHECK(a.positionals <= a.n);
	for (size_t i = 0; i < a.n; i++) {
		const struct py_arg *arg = &a.v[i];
		FUZZ_CHECK(arg->n_flags <= PY_MAX_FLAGS);
		FUZZ_CHECK(arg->line >= 1);
		for (size_t f = 0; f < arg->n_flags; f++) {
			const char *fl = arg->flags[f];
			FUZZ_CHECK(fl && fl[0] == '-');
			bool amb;
			const struct py_arg *m = py_args_match(&a, fl, strlen(fl), &amb);
			FUZZ_CHECK(m != NULL && !amb);
		}
	}
	py_args_free(&a);
	return 0;
}
