/* The command line a Python program defines, read from its source
 * without running it: the add_argument calls of argparse (flags, dest,
 * action, required, nargs), whether it calls parse_known_args (then any
 * flag goes), and whether the reader could follow every definition.
 *
 * A small tokenizer of Python source (strings of every quoting, comments,
 * brackets, line joins) finds NAME.add_argument( ... ) and reads the
 * literal arguments; anything else (a flag list from a variable, *args,
 * **kwargs, a parser built by a library such as HfArgumentParser) makes
 * the set incomplete, never guessed. Bounded: text over PY_MAX_BYTES, or
 * brackets nested deeper than PY_MAX_DEPTH, stop the reading with a
 * reason. The model knows nothing of rules. */
#ifndef TF_PYARGS_H
#define TF_PYARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PY_MAX_BYTES (4u << 20)
#define PY_MAX_DEPTH 200u
#define PY_MAX_FLAGS 8u

enum py_action {
	PY_STORE,       /* takes a value (the default) */
	PY_SWITCH,      /* store_true, store_false, store_const, count, help, version:
			 * takes no value */
	PY_APPEND,      /* append, extend: a value each time */
	PY_OTHER,       /* an action the reader does not know (a class) */
};

struct py_arg {
	const char *flags[PY_MAX_FLAGS]; /* "--log_every", "-l"; none for a positional */
	size_t n_flags;
	const char *dest;       /* dest=, or the positional's name; NULL when not given */
	enum py_action action;
	bool required;
	bool nargs_zero;        /* nargs=0 or '?' (a value is optional) */
	uint32_t line;          /* of add_argument */
};

struct py_args {
	struct py_arg *v;
	size_t n, cap;
	bool parser;            /* an ArgumentParser( is made */
	bool known_args;        /* parse_known_args: unknown flags are left over, not errors */
	bool abbrev;            /* allow_abbrev is not False: unique prefixes of long flags count */
	bool complete;          /* every add_argument was read */
	const char *why;        /* when not complete: what stopped the reader */
	uint32_t why_line;
	size_t positionals;     /* add_argument calls without a flag */
};

/* Reads text[0..len); never fails outright: what it cannot follow is in
 * complete and why. */
void py_args_read(const char *text, size_t len, struct py_args *out);
void py_args_free(struct py_args *a);
/* The argument a command-line flag ("--lr=3e-4" or "--lr") selects: an
 * exact flag, else (abbrev) the one long flag it is a unique prefix of.
 * NULL when none; *ambiguous when several long flags start with it. */
const struct py_arg *py_args_match(const struct py_args *a, const char *flag, size_t len,
				   bool *ambiguous);

#endif
