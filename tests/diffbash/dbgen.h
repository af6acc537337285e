/* A generator of realistic Slurm batch scripts for the differential test
 * against bash -n: #SBATCH headers, exports, launcher lines with many
 * flags and continuations, here-documents, arrays, arithmetic, nested
 * substitutions, every compound command bash has, comments everywhere,
 * CRLF and UTF-8, and a share of deliberately broken variants.
 *
 * A script is a pure function of (seed, index): any one of a run can be
 * made again alone. Each records the constructs it holds and the
 * mutation it carries, for the run's counts. */
#ifndef TF_DBGEN_H
#define TF_DBGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"

enum dbg_construct {
#define CONSTRUCT(id, name, what) DBC_##id,
#include "constructs.def"
#undef CONSTRUCT
	DBC__COUNT
};

enum dbg_mutation {
#define MUTATION(id, name, what) DBM_##id,
#include "mutations.def"
#undef MUTATION
	DBM__COUNT
};

#define DBG_WORDS ((DBC__COUNT + 63) / 64)

struct dbg_opts {
	unsigned broken_pct; /* the share of scripts that get a mutation */
};

struct dbg_script {
	struct buf text;
	uint64_t used[DBG_WORDS]; /* a bit per enum dbg_construct */
	int mutation;             /* enum dbg_mutation, or -1 */
};

/* Fills out (whose text is reset first); out->text may be reused. */
void dbg_generate(uint64_t seed, uint64_t index, const struct dbg_opts *o,
		  struct dbg_script *out);
bool dbg_uses(const struct dbg_script *s, enum dbg_construct c);
const char *dbg_construct_name(enum dbg_construct c);
const char *dbg_mutation_name(enum dbg_mutation m);

#endif
