/* What the SB rule files share: the script, its model, and what is known
 * of the machine it will run on (from the paired cluster config, else
 * from what the script itself shows). Not an API. */
#ifndef TF_SBATCH_RULES_H
#define TF_SBATCH_RULES_H

#include <stdbool.h>

#include "catalog.h"
#include "cluster.h"
#include "diag.h"
#include "layout.h"
#include "sbatch.h"
#include "script.h"

enum sb_family { FAMILY_UNKNOWN, FAMILY_NEURON, FAMILY_GPU };

/* One component of the allocation (a job without "#SBATCH hetjob" has
 * one): its own partition and node count. */
struct sbc_component {
	const struct sb_directive *partition, *nodes; /* NULL when not given */
	yd_node queue;                      /* the partition's queue, or 0 */
	long long min_nodes, max_nodes;     /* --nodes=N or MIN-MAX; 0 unknown */
};

struct sbc {
	struct source *src;
	const sb_model *m;
	struct diag_list *diags;
	size_t first_diag;                  /* this script's findings start here */
	const struct cluster *cluster; /* NULL when unpaired */
	yd_node queue;                      /* component 0's queue (the batch step's), or 0 */
	const struct instance_type *it;     /* the one type of every component's queue, or NULL */
	enum sb_family family;
	const sb_model *alloc;              /* the script whose #SBATCH lines make the allocation */
	struct sbc_component *comp;         /* the allocation's components */
	unsigned ncomp;
	/* Node counts: the allocation's smallest and largest (sums over the
	 * components), and what $SLURM_JOB_NUM_NODES holds in the batch step,
	 * which in a heterogeneous job is component 0's count alone. 0 when
	 * some component's count is unknown. */
	long long nodes, nodes_max, batch_nodes;
	long long tasks_per_node;           /* --ntasks-per-node; 0 unknown */
	bool per_node;                      /* started on every node by a batch script */
	/* The node count $SLURM_JOB_NUM_NODES holds for the check that
	 * evaluates the script at each count the job can run with; 0:
	 * batch_nodes (or nodes, for a per-node script). */
	long long eval_nodes;
	const struct target *target;        /* the Slurm (and ParallelCluster) checked against */
	const struct sb_programs *programs; /* the Python programs it starts; NULL: none read */
	const struct sb_world *world;       /* files beside it and sourced; NULL: none read */
	struct sbc_names *launch_names;     /* sbc_launchers_read's, built on first use */
	struct sbc_names *assigned;         /* sbc_assigned's, built on first use */
};

/* Who can set a variable the script reads where it does not set it
 * (world.c; docs/design.md, "An open world"), most certain first. */
enum sbc_origin {
	ORIGIN_SCRIPT,      /* the script sets it (or sources a file that may) */
	ORIGIN_ENVIRONMENT, /* Slurm, the login, bash or the launcher */
	ORIGIN_DOCUMENTED,  /* a comment names it: an input the script documents */
	ORIGIN_SOURCED,     /* a file the script sources sets it */
	ORIGIN_BESIDE,      /* a file beside the script sets it */
	ORIGIN_SUBMITTER,   /* nothing visible: the submitting shell's, or empty */
	ORIGIN_LOGIN,       /* --export without ALL: the login environment's, or empty */
	ORIGIN_NOTHING,     /* --export=NIL: nothing */
};
enum sbc_export { EXPORT_ALL, EXPORT_LIST, EXPORT_NONE, EXPORT_NIL };
/* Who can set name when `at` runs; *file: the file beside or sourced. */
enum sbc_origin sbc_var_origin(const struct sbc *c, const char *name, const sb_cmd *at,
			       const char **file);
/* The assumption a finding about a name of that origin rests on. */
const char *sbc_origin_assumption(enum sbc_origin o);
/* The Slurm name a name under a Slurm prefix that Slurm neither sets
 * nor reads is a near miss of, or NULL. */
const char *sbc_slurm_misspelt(const char *name);

struct diag *sbc_report(const struct sbc *c, enum rule_id rule, struct sb_span span,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The integer value of a word: a literal, $NAME through the model
 * (the Slurm node-count variables at eval_nodes), or $(( )) of those;
 * false when unknown. */
bool sbc_word_int(const struct sbc *c, const sb_word *w, const sb_cmd *at, long long *out);
/* The values a word can take: one number as sbc_word_int gives it, or
 * the interval of a $(( )) over $RANDOM (0 to 32767); *random when it
 * reads $RANDOM. False when unknown. */
bool sbc_word_range(const struct sbc *c, const sb_word *w, const sb_cmd *at, long long *lo,
		    long long *hi, bool *random);
/* The literal value a variable holds for the whole job (the last plain
 * or exported assignment), or NULL. */
const char *sbc_env_value(const struct sbc *c, const char *name, const struct sb_assign **where);
/* The last assignment of name anywhere in the script (not an unset),
 * or NULL; and the literal value an assignment gives, or NULL. */
const struct sb_assign *sbc_assignment(const struct sbc *c, const char *name);
const char *sbc_assign_value(const struct sb_assign *a);
/* The accelerator a script runs on: the paired cluster's instance type,
 * else the compiler's --target in NEURON_CC_FLAGS (trn1, trn2, trn3,
 * inf2); where says which, for messages. False when neither is known. */
bool sbc_neuron_accel(const struct sbc *c, enum accel_kind *accel, char *where, size_t cap);
/* The paired cluster config's Image.Os ("alinux2", "ubuntu2204"), or
 * NULL when unpaired or not a plain string. */
const char *sbc_cluster_os(const struct sbc *c);
/* True when the job spans more than one node (by --nodes). */
bool sbc_multi_node(const struct sbc *c);
/* torchrun's --nnodes: N (min = max = N) or the elastic MIN:MAX; false
 * when absent or not a literal (resolvable) value. */
bool sbc_nnodes(const struct sbc *c, const sb_part *torch, const sb_cmd *cmd, long long *min,
		long long *max);

/* The parallel layout a torchrun command gives its training script, read
 * with the framework's flag table (layout.c); false when the command
 * starts no training script with a framework's TP or PP flag. */
struct sbc_layout {
	const sb_cmd *cmd;
	const sb_part *torch, *entry;
	long long nodes, nodes_max;   /* --nnodes, or MIN and MAX of MIN:MAX; 0 unknown */
	long long ppn;                /* --nproc-per-node; 0 unknown */
	struct layout l;              /* world 0; degrees not given are 1 */
};
bool sbc_read_layout(const struct sbc *c, const sb_cmd *cmd, struct sbc_layout *s);
/* The layout at nodes x the processes per node. */
struct layout sbc_layout_at(const struct sbc_layout *s, long long nodes);
/* Where the script gives knob k (its program when it does not). */
struct sb_span sbc_layout_span(const struct sbc_layout *s, enum fw_knob k);
/* The first fault the script rules hold a world to (TP x PP x CP, an
 * explicit DP, the batch) at nodes, with its numbers; LAYOUT_OK when none. */
enum layout_fault sbc_world_fault(const struct sbc_layout *s, long long nodes,
				  struct layout_finding *found);

/* Whether the command line of a launcher (srun, mpirun, torchrun,
 * another launcher, python) reads name, directly or through variables
 * assigned from it (ip_head=$head_node_ip:$port) up to three links
 * away, however they are reassigned between. One pass over the script,
 * the first time it is asked. */
bool sbc_launchers_read(struct sbc *c, const char *name);
/* Whether the script assigns name anywhere (an unset too), in one pass
 * the first time it is asked. */
bool sbc_assigned(struct sbc *c, const char *name);

/* Whether the command starts work on other nodes: srun, mpirun, a remote
 * shell, or a launcher that reaches them itself (launch.c). */
bool sbc_starts_nodes(const sb_cmd *cmd);
/* A word that is a number as written (\$SLURM_NODEID in a double-quoted
 * string reads as text, and is no number). */
bool sbc_fixed_number(const sb_word *w);

void sbc_check_text(struct sbc *c);
void sbc_check_hygiene(struct sbc *c);
void sbc_check_options(struct sbc *c);
void sbc_check_launch(struct sbc *c);
void sbc_check_order(struct sbc *c);
void sbc_check_env(struct sbc *c);
void sbc_check_reach(struct sbc *c);
void sbc_check_neuron(struct sbc *c);
void sbc_check_parallel(struct sbc *c);
void sbc_check_survival(struct sbc *c);
void sbc_check_elastic(struct sbc *c);
void sbc_check_cluster(struct sbc *c);
void sbc_check_program(struct sbc *c);
void sbc_check_framework(struct sbc *c);
void sbc_check_sizes(struct sbc *c);
void sbc_check_rendezvous(struct sbc *c);
void sbc_check_direct(struct sbc *c);
void sbc_check_fabric(struct sbc *c);
void sbc_check_neuron_cores(struct sbc *c);
void sbc_check_world(struct sbc *c);
void sbc_check_continuation(struct sbc *c);
void sbc_check_paired(struct sbc *c);

/* The launcher command whose program cmd is, when the line between lost
 * its backslash (torchrun --master_port=1 / train.py --lr 1): the
 * command before cmd, with *launcher its programless part; else NULL
 * (continuation.c). */
const sb_cmd *sbc_lost_program_of(const struct sbc *c, const sb_cmd *cmd, const sb_part **launcher);
/* Whether a word (as written: --tp-size, --tensor_parallel_size=2) is a
 * flag that names a parallel size (entry_layout.c). */
bool sbc_size_flag(const char *raw, size_t len);

#endif
