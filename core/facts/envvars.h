/* The environment variables that the programs a launcher starts read,
 * as data: NCCL, libfabric (FI_), Neuron, CUDA, PyTorch and glibc's
 * malloc, each table with the document it was read from
 * (docs/frameworks.md, "Environment variables"). The linter spells
 * names against them (a misspelt knob is a knob that was never set) and
 * knows which assignments must reach the workers. */
#ifndef TF_ENVVARS_H
#define TF_ENVVARS_H

#include <stdbool.h>
#include <stddef.h>

enum env_family { ENV_NCCL, ENV_LIBFABRIC, ENV_NEURON, ENV_CUDA, ENV_TORCH, ENV_GLIBC, ENV__COUNT };

struct env_family_def {
	const char *prefix;         /* "NCCL_": every name of the family starts so */
	const char *title;          /* "NCCL", for messages */
	const char *source;         /* where the names were read */
	const char *const *names;   /* sorted, exact */
	size_t n;
};

const struct env_family_def *env_family(enum env_family f);
/* The family whose prefix name starts with, or NULL. */
const struct env_family_def *env_family_of(const char *name);
/* Whether name is in a table. */
bool env_known(const char *name);
/* A program the launcher starts reads name from its environment: a name
 * of a family, or one of the loader's and allocator's own (LD_PRELOAD,
 * MALLOC_ARENA_MAX). */
bool env_read_by_workers(const char *name);
/* The one known name a misspelling of name would be: not itself known,
 * one edit away (two for names of twelve or more characters), and no
 * other known name as near. NULL when there is none. */
const char *env_near(const char *name);

#endif
