/* What the sbatch value checkers share (sbatch_values.c,
 * sbatch_values_spec.c). Internal to lint/sbatch_*.c. */
#ifndef TF_SBATCH_VALUES_H
#define TF_SBATCH_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

struct val {
	const char *s;
	size_t n;
	char *why;
	size_t cap;
};

/* A view of part of the value. */
struct piece {
	const char *p;
	size_t n;
};

/* Writes the reason into v->why and returns r. */
enum sbopt_verdict sbv_say(struct val *v, enum sbopt_verdict r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define BAD(...) sbv_say(v, SBOPT_BAD, __VA_ARGS__)
#define ODD(...) sbv_say(v, SBOPT_SUSPECT, __VA_ARGS__)

bool sbv_digits(struct piece p);
/* The value of a digit run, saturating so huge numbers stay huge. */
uint64_t sbv_num(struct piece p);
bool sbv_eq(struct piece p, const char *word);
/* Splits at the first sep at or after *pos; false past the end. */
bool sbv_next_item(struct piece all, size_t *pos, char sep, struct piece *out);
struct piece sbv_whole(const struct val *v);
/* Is p one of choices? */
bool sbv_in_choices(struct piece p, const char *const *choices, bool nocase);
enum sbopt_verdict sbv_check_time(struct val *v);
/* A --nodes value, N or MIN-MAX (with k or m multipliers), as numbers. */
bool sbv_node_range(const char *value, uint64_t *min, uint64_t *max);

/* sbatch_values_spec.c */
enum sbopt_verdict sbv_check_array(struct val *v);
enum sbopt_verdict sbv_check_dependency(struct val *v);
enum sbopt_verdict sbv_check_datetime(struct val *v);
enum sbopt_verdict sbv_check_signal(struct val *v);
enum sbopt_verdict sbv_check_distribution(struct val *v);
enum sbopt_verdict sbv_check_gpu_bind(struct val *v);
enum sbopt_verdict sbv_check_mem_bind(struct val *v);
enum sbopt_verdict sbv_check_cpu_freq(struct val *v);
enum sbopt_verdict sbv_check_gpu_freq(struct val *v);
enum sbopt_verdict sbv_check_extra_node_info(struct val *v);
enum sbopt_verdict sbv_check_switches(struct val *v);
enum sbopt_verdict sbv_check_acctg_freq(struct val *v);
enum sbopt_verdict sbv_check_get_user_env(struct val *v);
enum sbopt_verdict sbv_check_profile(struct val *v);
enum sbopt_verdict sbv_check_propagate(struct val *v);
enum sbopt_verdict sbv_check_priority(struct val *v);
enum sbopt_verdict sbv_check_licenses(struct val *v);

#endif
