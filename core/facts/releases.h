/* ParallelCluster releases and the Slurm each ships, and the Slurm
 * releases trainforge knows the options of: the version table that the
 * target (target.h), the schema's version tags and the option table
 * build on. The facts and their sources are in docs/versions.md,
 * "pc-releases"; a release whose Slurm no source gives is not in the
 * table. Static data: nothing is read at start-up. */
#ifndef TF_RELEASES_H
#define TF_RELEASES_H

#include <stdbool.h>
#include <stddef.h>

#include "version.h"

/* How the table knows a release's Slurm. */
enum release_how {
	RELEASE_SOURCED,     /* the release's own notes or changelog name it */
	RELEASE_DERIVED,     /* a patch release whose notes list no Slurm upgrade,
			      * or the "from" of the next upgrade */
	RELEASE_THIRD_PARTY, /* named by someone other than AWS */
};

struct pc_release {
	struct version pc;    /* an exact release: 3.13.1 */
	struct version slurm; /* the Slurm it installs: 24.05.8 */
	enum release_how how;
};

/* Every release in the table, oldest first. */
size_t pc_release_count(void);
const struct pc_release *pc_release_at(size_t i);
/* An exact release (3.13.1), or for a line (3.13) its newest release in
 * the table; NULL when the table has none. */
const struct pc_release *pc_release_find(struct version pc);
/* The newest ParallelCluster line the table and the schema describe (3.16). */
struct version pc_newest(void);
/* The oldest line whose schema trainforge tags with versions (3.11):
 * targets start there. */
struct version pc_oldest_target(void);
/* A ParallelCluster version as the key of tables kept per line:
 * 100 * major + minor (3.16 and 3.16.2 are 316). */
int pc_version_key(struct version pc);

/* The Slurm lines whose sbatch and srun options trainforge knows
 * (22.05 to 26.05), oldest first. */
size_t slurm_line_count(void);
struct version slurm_line_at(size_t i);
/* Whether v (a line or a release of one) is of a known line. */
bool slurm_line_known(struct version v);

/* Printed forms: ParallelCluster writes 3.6, Slurm 23.02. */
#define PC_TEXT(v) (version_text((v), 1).s)
#define SLURM_TEXT(v) (version_text((v), 2).s)
#define PC_RELEASE_TEXT(v) (version_release_text((v), 1).s)
#define SLURM_RELEASE_TEXT(v) (version_release_text((v), 2).s)

#endif
