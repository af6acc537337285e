/* What Slurm releases after 22.05 changed that the sbatch option table
 * does not say by itself: srun's options, and single values of the
 * options of both commands (--exclusive=topo, srun --cpu-bind=rank, a
 * --nodes size list). One static table, each row with its release
 * (docs/versions.md, "slurm-options-srun" and "slurm-options-values").
 * An srun option that no row names is in every release from 22.05 on. */
#ifndef TF_SLURM_CHANGES_H
#define TF_SLURM_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "version.h"

enum slurm_cmd { SLURM_SBATCH = 1 << 0, SLURM_SRUN = 1 << 1 };

enum slurm_change_flags {
	SLURM_CHANGE_BLOCK  = 1 << 0, /* needs Slurm's topology/block plugin */
	SLURM_CHANGE_UNSURE = 1 << 1, /* since: the first release known to have it */
	SLURM_CHANGE_FORM   = 1 << 2, /* value names a form, not a word: "size list or step" */
	SLURM_CHANGE_IGNORED = 1 << 3, /* removed, but the command still takes it and
					* ignores it with a message */
};

struct slurm_change {
	const char *option;  /* long name, no dashes */
	const char *value;   /* one item of its value; NULL: the option itself */
	unsigned cmds;       /* enum slurm_cmd */
	struct version since, until; /* unset: in 22.05 / never removed */
	unsigned flags;      /* enum slurm_change_flags */
};

/* The row for an option of cmd itself (value NULL), or NULL. */
const struct slurm_change *slurm_change_option(unsigned cmd, const char *option);
/* The row for one comma-separated item of option's value (case folded),
 * or for the value's form (a --nodes size list); NULL when the value is
 * in every release. */
const struct slurm_change *slurm_change_value(unsigned cmd, const char *option,
					      const char *value);
/* What a release makes of a row (options.h). */
enum sbopt_release slurm_change_at(const struct slurm_change *c, struct version slurm,
				   struct version *when);

/* Every row, for docs and tests. */
size_t slurm_change_count(void);
const struct slurm_change *slurm_change_at_index(size_t i);

#endif
