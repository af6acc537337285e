/* The environment variables that the programs a launcher starts read,
 * and those Slurm sets and reads, as data: NCCL, libfabric (FI_, with
 * the EFA provider's FI_EFA_), Neuron, CUDA, PyTorch and torchrun,
 * glibc's malloc and Slurm, each table with the source it was read
 * from, to a commit or a release (docs/frameworks.md, "Environment
 * variables"). The linter spells names against them (a misspelt knob
 * is a knob that was never set), knows which assignments must reach the
 * workers, and calls a name dead only where its table says it was
 * removed or is not read, with the version. */
#ifndef TF_ENVVARS_H
#define TF_ENVVARS_H

#include <stdbool.h>
#include <stddef.h>

enum env_family {
	ENV_NCCL, ENV_LIBFABRIC, ENV_NEURON, ENV_CUDA, ENV_TORCH, ENV_TORCHELASTIC, ENV_GLIBC,
	ENV_SLURM, ENV_SLURM_INPUT, ENV_SBATCH, ENV_SBATCH_INPUT, ENV_SRUN, ENV_SRUN_INPUT,
	ENV_SLURMD, ENV_SLURMD_INPUT, ENV__COUNT
};

/* What a listed name is to its consumer. */
enum env_status {
	ENV_UNLISTED,  /* in no table: never judged */
	ENV_READ,      /* the consumer reads it */
	ENV_SET,       /* Slurm sets it in the job's environment */
	ENV_INPUT,     /* Slurm reads it from the submitting environment */
	ENV_NOT_READ,  /* read by releases before `version` only */
	ENV_ABORTS,    /* the consumer aborts when it is set (from `version`) */
	ENV_NEVER,     /* read by no release: someone else's name for it */
};

/* A name whose status is other than READ (a family's exceptions). */
struct env_note {
	const char *name;
	enum env_status status;
	const char *version;        /* "libfabric 1.20": where the status starts */
	const char *source;         /* where it was read */
};

struct env_family_def {
	const char *prefix;         /* "NCCL_": every name of the family starts so */
	const char *title;          /* "NCCL", for messages */
	const char *source;         /* where the names were read */
	const char *const *names;   /* sorted, exact */
	size_t n;
	const struct env_note *notes; /* names of another status (in names too) */
	size_t n_notes;
	bool slurm;                 /* Slurm's own: set or read by its commands */
	enum env_status listed;     /* what a name of names is, without a note */
};

const struct env_family_def *env_family(enum env_family f);
/* The first family whose prefix name starts with, or NULL (Slurm's
 * names of one prefix are two families: those it sets, those it reads). */
const struct env_family_def *env_family_of(const char *name);
/* Whether name is in a table. */
bool env_known(const char *name);
/* What a name is to its consumer; its note (NULL for READ, SET, INPUT
 * and UNLISTED) through note. */
enum env_status env_status(const char *name, const struct env_note **note);
/* Slurm's row for a name: Slurm sets it or reads it (the het-job
 * component forms NAME_HET_GROUP_N of a set name too). */
bool env_slurm_known(const char *name);
/* A program the launcher starts reads name from its environment: a name
 * of a family, or one of the loader's and allocator's own (LD_PRELOAD,
 * MALLOC_ARENA_MAX). */
bool env_read_by_workers(const char *name);
/* The one known name a misspelling of name would be: not itself known,
 * one edit away (two for names of twelve or more characters), and no
 * other known name as near. NULL when there is none. */
const char *env_near(const char *name);

#endif
