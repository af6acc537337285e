/* The lint command's run, shared with `trainforge diff`, which is a lint
 * of NEW against OLD with the change rules selected. */
#ifndef TF_LINT_CLI_H
#define TF_LINT_CLI_H

#include <stdbool.h>

struct lint_mode {
	bool diff;                /* trainforge diff: its flags, two paths, OLD and NEW */
	const char *select;       /* the rules when --select is not given */
};

/* argv[0] is the command; mode NULL is plain lint. */
int lint_command(int argc, char **argv, const struct lint_mode *mode);

#endif
