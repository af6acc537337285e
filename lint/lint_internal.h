/* What the files of the lint pipeline share: input.c reads, classify.c
 * decides kinds, pair.c finds each script's cluster, lint.c runs the
 * rules. Not an API. */
#ifndef TF_LINT_INTERNAL_H
#define TF_LINT_INTERNAL_H

#include <stdbool.h>

#include "lint.h"
#include "sbatch.h"

/* A new file of the run, holding text (which it takes). */
struct lint_file *lint_add_file(struct lint_run *run, const char *path, char *text, size_t len,
				bool named);
void lint_io_error(struct lint_run *run, const char *path, const char *why);
/* Classifies and lints one input. */
void lint_file_check(struct lint_run *run, struct lint_file *f);
/* Drops disabled rules and applies --severity from diagnostic first on. */
void lint_apply_selection(struct lint_run *run, size_t first);
/* The PC5 review of a cluster config against its old version, when the
 * options name one (review.c); false when there was none to review
 * against. */
bool lint_review(struct lint_run *run, struct source *src, const yamldoc *doc);

/* yaml_input.c */
/* Parses the YAML file f as its kind is read (KIND_AUTO: classifies it
 * first) and returns the kind. */
enum file_kind lint_parse_yaml(struct lint_run *run, struct lint_file *f, enum file_kind kind);

/* classify.c */
/* A file a directory walk should look at: YAML, a script name, or a
 * template (.j2, .template...) that may be a batch script. */
bool lint_candidate(const char *path);
bool lint_yaml_name(const char *path);
/* trainforge's own settings file by name: .trainforge.yaml, .trainforge.yml. */
bool lint_settings_name(const char *path);
/* A batch script by name (.sbatch, .slurm), a shell script by name,
 * each also under a template suffix (train.sbatch.j2). */
bool lint_script_name(const char *path);
bool lint_shell_name(const char *path);
/* A Python program (.py): an input only when named, read for the scripts. */
bool lint_python_name(const char *path);
/* Whether src is in a language other than the shell's: by its name
 * (.py) or by the program its #! line runs (python3, perl); why gets
 * the reason ("a .py file is Python"). No #! line says nothing. */
bool lint_not_shell(const struct source *src, char *why, size_t size);
/* Whether the head of a file (len bytes) is a batch script's: a #! line
 * and a line starting with #SBATCH, or #SBATCH lines before any command. */
bool lint_batch_head(const char *text, size_t len);
/* Whether a #! line runs csh or tcsh. */
bool lint_csh(const struct source *src);
/* A csh script's text as the model reads it: every line but the #! line,
 * comments (with the #SBATCH lines) and blank lines is a no-op command
 * of the same length, so the directives stay where sbatch reads them
 * and none of the body is judged as bash; the caller frees. */
char *lint_csh_mask(const struct source *src);
/* Whether any line starts with #SBATCH. */
bool lint_has_sbatch_line(const struct source *src);
/* The kind of a YAML document by its top-level keys. */
enum file_kind lint_classify_yaml(const yamldoc *doc);
/* A YAML document of no kind that is a part of a cluster config: the
 * place in ParallelCluster's schema its keys belong to (a top-level
 * mapping holds keys of that object, a top-level list its items), or
 * NULL for a file that is not ParallelCluster-shaped (docker-compose,
 * a k8s manifest, a workflow) (docs/design.md, "Kinds"). */
const struct schema_place *lint_fragment_of(const yamldoc *doc);

/* programs.c */
struct py_args;
/* The command-line definitions of the Python file a script (path
 * `script`) starts as `entry`; NULL when it is not there. *path: where
 * it was read. */
const struct py_args *lint_program_find(struct lint_run *run, const char *script,
					const char *entry, const char **path);
/* Whether a script of the run read the program input at path. */
bool lint_program_was_read(const struct lint_run *run, const char *path);
void lint_programs_free(struct lint_run *run);

/* template.c */
/* The tags of a template ({{ }}, {% %}, {# #}) and the text with each
 * masked, or NULL when src holds none. */
struct lint_template *lint_template_new(const struct source *src);
void lint_template_free(struct lint_template *tp);
/* Puts the masked text in src's place, or the file's own back: the
 * model and shellcheck read the first, findings are shown on the second.
 * The two have the same length and lines. NULL: nothing to do. */
void lint_template_swap(struct lint_template *tp, struct source *src);
/* The tags and placeholders masked, by byte range, in text order per line. */
size_t lint_template_count(const struct lint_template *tp);
void lint_template_at(const struct lint_template *tp, size_t i, size_t *start, size_t *end);
/* Whether the byte at offset lies in a tag. */
bool lint_template_covers(const struct lint_template *tp, size_t offset);
/* Parses f as a script into f->model, its tags masked (lint.c). */
void lint_parse_script(struct lint_file *f);

/* world.c */
struct lint_world;
/* The files beside a script and those it sources, read when first asked
 * (docs/design.md, "An open world"); m must outlive it. */
struct lint_world *lint_world_new(const char *script, const sb_model *m);
struct sb_world lint_world_of(struct lint_world *w);
void lint_world_free(struct lint_world *w);

/* pair.c */
/* Shell scripts that a batch script of the run starts with srun become
 * scripts of the run; the others, when named, get the note. */
void lint_adopt_shells(struct lint_run *run);
/* How a script met its config: named (--cluster, its comment or the
 * settings' cluster:, including one that could not be used), or one of
 * the ways nothing names, which an info says (LN3003), or not at all. */
enum pair_by { PAIR_NONE, PAIR_NAMED, PAIR_ONLY_INPUT, PAIR_PARTITION, PAIR_TRACKED };
struct lint_pairing {
	enum pair_by by;
	const char *config;    /* the config's path as the run shows it */
	const char *partition; /* PAIR_PARTITION: the script's */
};
/* The cluster config a script is checked against, or NULL; *how says how. */
const struct cluster *lint_pair(struct lint_run *run, struct lint_file *script,
				size_t known_clusters, struct lint_pairing *how);
/* The first of scripts[0..n) that starts `script` on every node with
 * srun, or NULL; by its path, or (*by_name) by the basename of the
 * absolute path it is deployed at, when no other input has that name. */
const struct lint_file *lint_caller_of(const struct lint_run *run, struct lint_file *const *scripts,
				       size_t n, const struct lint_file *script, bool *by_name);

#endif
