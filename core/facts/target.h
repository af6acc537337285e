/* The target: the ParallelCluster and Slurm versions a run checks
 * against (docs/design.md, "Targets"). By default the newest
 * ParallelCluster line and the Slurm its newest release ships; naming a
 * ParallelCluster version brings its Slurm with it; naming a Slurm alone
 * leaves ParallelCluster at the default (a local test cluster runs
 * Debian's Slurm 22.05 and no ParallelCluster at all).
 *
 * Settings are layered (the user file, the project files, the command
 * line): each layer is a request, and a request applied over a target
 * replaces what it names. A request that names ParallelCluster without
 * naming Slurm also brings that release's Slurm, so that
 * `--target parallelcluster=3.13` means 3.13 as it ships, whatever the
 * file below said about Slurm. */
#ifndef TF_TARGET_H
#define TF_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "releases.h"
#include "version.h"

struct target {
	struct version pc;    /* a line (3.16) or a release in the table (3.16.0) */
	struct version slurm; /* a line (22.05) or a release (25.11.8) */
	bool slurm_of_pc;     /* slurm is what pc ships, not named */
};

/* What one settings layer names; an unset part (the zero version) is
 * left to the layers below. */
struct target_request {
	struct version pc, slurm;
};

struct target target_default(void);
/* t with req applied over it (see above). */
struct target target_apply(struct target t, const struct target_request *req);
/* Whether two targets check the same versions. */
bool target_equal(const struct target *a, const struct target *b);

/* Reads a ParallelCluster target (3.11 to 3.16, or a release of the
 * table from 3.11.0) or a Slurm target (a known line, or a release of
 * one) from s[0..len). On failure writes a message naming the known
 * versions into err (cap bytes) and leaves out untouched. */
bool target_parse_pc(const char *s, size_t len, struct version *out, char *err, size_t cap);
bool target_parse_slurm(const char *s, size_t len, struct version *out, char *err, size_t cap);
/* One --target value, "parallelcluster=V" or "slurm=V", into req. */
bool target_parse_arg(const char *arg, struct target_request *req, char *err, size_t cap);

/* "ParallelCluster 3.16 (Slurm 25.11.8)": for summaries and reports. */
struct target_text {
	char s[64];
};
struct target_text target_describe(const struct target *t);

#endif
