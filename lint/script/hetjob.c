/* The components of a heterogeneous job, as sbatch 22.05 builds them
 * from "#SBATCH hetjob" lines: each is a job of its own, and sbatch
 * starts each from the options of the one before for some options only.
 *
 * The carried options were measured, not taken from the Slurm manual
 * (whose list has srun's options too and names --distribution, which
 * sbatch 22.05.8 does not carry): each 22.05 option set in component 0
 * alone, `sbatch -v` printing what component 1 received. --comment,
 * --export-file, --get-user-env, --gid, --priority and --reboot could not
 * be measured that way and follow the manual's list. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Sorted (strcmp order) for bsearch. */
static const char *const carried[] = {
	"account", "acctg-freq", "batch", "begin", "chdir", "cluster-constraint",
	"clusters", "comment", "container", "deadline", "delay-boot", "dependency",
	"error", "exclude", "export", "export-file", "get-user-env", "gid", "hint",
	"hold", "ignore-pbs", "input", "job-name", "kill-on-invalid-dep", "mcs-label",
	"mem", "nice", "no-kill", "no-requeue", "open-mode", "output", "prefer",
	"priority", "profile", "propagate", "qos", "reboot", "requeue", "reservation",
	"signal", "time", "time-min", "wait-all-nodes", "wckey",
};

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

bool sb_option_carried(const char *long_name)
{
	return bsearch(long_name, carried, sizeof carried / sizeof carried[0], sizeof carried[0],
		       by_name) != NULL;
}

/* sbd_scan records a component's directives together and in component
 * order, then those after the first command: one pass finds the ranges,
 * so that a lookup in one component reads that component only. */
void sbh_index(sb_model *m)
{
	unsigned n = m->components;
	m->component_first = sbm_alloc(m, (n + 1) * sizeof *m->component_first);
	size_t i = 0;
	for (unsigned k = 0; k < n; k++) {
		m->component_first[k] = i;
		while (i < m->directives.len && !m->directives.v[i].after_command &&
		       m->directives.v[i].component == k)
			i++;
	}
	m->component_first[n] = i;
}

unsigned sb_component_count(const sb_model *m)
{
	/* A script too large to read has no directives: one component. */
	return m->components ? m->components : 1;
}

static const char *canonical(const char *long_name)
{
	const struct sbopt *want = sbopt_find(long_name);
	return want ? (want->alias_of ? want->alias_of : want->name) : long_name;
}

static const struct sb_directive *own(const sb_model *m, unsigned component, const char *name)
{
	if (component >= m->components)
		return NULL;
	const struct sb_directive *hit = NULL;
	for (size_t i = m->component_first[component]; i < m->component_first[component + 1]; i++) {
		const struct sb_directive *d = &m->directives.v[i];
		if (d->long_name && strcmp(d->long_name, name) == 0)
			hit = d;
	}
	return hit;
}

const struct sb_directive *sb_directive_in(const sb_model *m, unsigned component,
					   const char *long_name)
{
	return own(m, component, canonical(long_name));
}

const struct sb_directive *sb_directive_find_in(const sb_model *m, unsigned component,
						const char *long_name)
{
	const char *name = canonical(long_name);
	bool carries = sb_option_carried(name);
	for (unsigned k = component + 1; k-- > 0;) {
		const struct sb_directive *d = own(m, k, name);
		if (d || !carries)
			return d;
	}
	return NULL;
}
