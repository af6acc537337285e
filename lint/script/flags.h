/* Launcher flag tables and program classification for the batch-script
 * model (sbatch_model_launch.c). Internal to lint/sbatch_model_*.c. */
#ifndef TF_SBATCH_MODEL_FLAGS_H
#define TF_SBATCH_MODEL_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

enum { A_NONE, A_ONE, A_OPT, A_TWO };

struct flagdef {
	const char *name;  /* long name, '-' separated, no dashes in front */
	char sh;           /* short letter or 0 */
	unsigned char arity;
	const char *canon; /* the name rules ask for, when not `name` */
};

struct flagset {
	const struct flagdef *defs;
	size_t n;
	bool getopt_short;     /* -lN2 bundles short letters (getopt) */
	bool single_dash_long; /* -np, -mca are long names (mpirun) */
};

extern const struct flagset sbf_srun, sbf_mpirun, sbf_torchrun, sbf_npc, sbf_none;
extern const struct flagset sbf_accelerate, sbf_deepspeed, sbf_ssh, sbf_pdsh;

enum pclass {
	PC_OTHER, PC_WRAPPER, PC_SRUN, PC_MPIRUN, PC_TORCHRUN, PC_NPC, PC_LAUNCHER,
	PC_ACCELERATE, PC_DEEPSPEED, PC_SSH, PC_PDSH,
	PC_SHELL, PC_PYTHON, PC_SCRIPT
};

/* A wrapper runs the command that follows its own flags and positionals. */
struct wrapdef {
	const char *name;
	struct flagset flags;
	unsigned positionals;   /* words it takes before the command (timeout DURATION) */
	bool assigns;           /* env: NAME=VALUE words come first */
	const char *query;      /* flags that make it not run anything (command -v) */
};

/* Writes name[0..len) without leading dashes and with '_' as '-'. */
void sbf_normalize(const char *name, size_t len, char *out, size_t cap);
const struct flagdef *sbf_long(const struct flagset *fs, const char *norm);
const struct flagdef *sbf_short(const struct flagset *fs, char c);
/* Classifies a program by its word's value (a path or a name). */
enum pclass sbf_classify(const char *value, const struct wrapdef **wrap);
const char *sbf_basename(const char *value);

#endif
