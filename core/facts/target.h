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

#include "frameworks.h"
#include "releases.h"
#include "version.h"

/* A training framework's version: 0 is its pinned default, else the
 * index of a version of its table plus one (frameworks.h). */
struct target {
	struct version pc;    /* a line (3.16) or a release in the table (3.16.0) */
	struct version slurm; /* a line (22.05) or a release (25.11.8) */
	bool slurm_of_pc;     /* slurm is what pc ships, not named */
	unsigned char fw[FW__COUNT];
};

/* What one settings layer names; an unset part (the zero version, a
 * framework's 0) is left to the layers below. */
struct target_request {
	struct version pc, slurm;
	unsigned char fw[FW__COUNT];
};

/* The version of framework f a target checks against (an index of its
 * table), and whether the target names it (else it is the pinned
 * default). */
size_t target_fw_version(const struct target *t, enum framework f);
bool target_fw_named(const struct target *t, enum framework f);

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
/* A version of framework f (its name or alias in the table) into *out
 * (index plus one); on failure a message that lists the known ones. */
bool target_parse_fw(enum framework f, const char *s, size_t len, unsigned char *out, char *err,
		     size_t cap);
/* One --target value, "parallelcluster=V", "slurm=V" or "FRAMEWORK=V"
 * (megatron, nxd, torchtitan), into req. */
bool target_parse_arg(const char *arg, struct target_request *req, char *err, size_t cap);


/* "ParallelCluster 3.16 (Slurm 25.11.8)": for summaries and reports. */
struct target_text {
	char s[96];
};
struct target_text target_describe(const struct target *t);
/* "Megatron-LM 0.20 (d98e8a6), the pinned default" or "... (the
 * target)": the version a finding judged by, for messages. */
struct target_text target_fw_describe(const struct target *t, enum framework f);

#endif
