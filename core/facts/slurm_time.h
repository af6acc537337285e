/* A Slurm time limit as seconds: the forms sbatch's --time takes
 * (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS; sbatch(1),
 * --time), which the job spec's time_limit is written in. */
#ifndef TF_SLURM_TIME_H
#define TF_SLURM_TIME_H

#include <stdbool.h>
#include <stddef.h>

/* False (out untouched) for UNLIMITED, INFINITE, -1 and anything that
 * is not one of the forms. */
bool slurm_time_seconds(const char *s, size_t len, double *out);

#endif
