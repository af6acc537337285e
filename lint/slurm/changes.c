/* The release table of srun options and of single values. Releases as
 * docs/versions.md gives them from Slurm 25.11.7's changelogs and source:
 * "by 23.11.4" is kept as 23.11.4; a first release no source names is
 * the first release known to have it, marked UNSURE. */
#include "changes.h"

#include <string.h>
#include <strings.h>

#define V0 { 0, 0, 0, false }
#define S(y, m) VERSION_AT(y, m, 0)
#define SP(y, m, p) VERSION_AT(y, m, p)
#define B SLURM_SBATCH
#define R SLURM_SRUN
#define BR (SLURM_SBATCH | SLURM_SRUN)
#define ADDED(opt, cmds, since, flags) { opt, NULL, cmds, since, V0, flags }
#define GONE(opt, cmds, until) { opt, NULL, cmds, V0, until, 0 }
#define VALUE(opt, value, cmds, since, until, flags) { opt, value, cmds, since, until, flags }

static const struct slurm_change changes[] = {
	/* srun's options (sbatch's are in its own table) */
	ADDED("async", R, S(26, 5), 0),
	ADDED("autocomplete", R, S(23, 2), 0),
	ADDED("consolidate-segments", R, S(25, 11), SLURM_CHANGE_BLOCK),
	ADDED("container-id", R, S(25, 11), SLURM_CHANGE_UNSURE),
	ADDED("external-launcher", R, S(23, 11), 0),
	ADDED("extra", R, S(23, 2), 0),
	GONE("gid", R, SP(23, 2, 5)),
	ADDED("oom-kill-step", R, S(24, 11), 0),
	GONE("power", R, S(24, 5)),
	ADDED("resources", R, S(25, 5), 0),
	ADDED("segment", R, S(24, 5), SLURM_CHANGE_BLOCK),
	ADDED("spread-segments", R, S(25, 11), SLURM_CHANGE_BLOCK),
	ADDED("stepmgr", R, S(24, 5), 0),
	ADDED("treewidth", R, S(25, 11), SLURM_CHANGE_UNSURE),
	ADDED("tres-bind", R, S(23, 11), 0),
	ADDED("tres-per-task", R, S(23, 2), 0),
	GONE("uid", R, SP(23, 2, 5)),
	ADDED("wait-for-children", R, S(25, 5), 0),
	/* values */
	VALUE("cpu-bind", "boards", R, V0, S(22, 5), 0),
	/* 25.11.7: "Ignoring --cpu-bind=rank. Rank binding is obsolete." */
	VALUE("cpu-bind", "rank", R, V0, S(24, 11), SLURM_CHANGE_IGNORED),
	VALUE("exclusive", "topo", BR, S(24, 5), V0, SLURM_CHANGE_BLOCK),
	/* 25.05.0rc1 deprecates its timeout and mode; 25.11.7 takes no argument */
	VALUE("get-user-env", "a timeout or mode", B, V0, S(25, 5), SLURM_CHANGE_FORM),
	VALUE("gres-flags", "allow-task-sharing", R, SP(23, 11, 4), V0, 0),
	VALUE("gres-flags", "multiple-tasks-per-sharing", BR, SP(23, 11, 4), V0, 0),
	VALUE("gres-flags", "one-task-per-sharing", BR, SP(23, 11, 2), V0, 0),
	VALUE("network", "unique-channel-per-segment", BR, S(25, 11), V0, SLURM_CHANGE_BLOCK),
	VALUE("nodes", "a size list or step", BR, S(23, 2), V0, SLURM_CHANGE_FORM),
	VALUE("requeue", "expedite", B, S(25, 11), V0, 0),
};

#define N_CHANGES (sizeof changes / sizeof changes[0])

size_t slurm_change_count(void)
{
	return N_CHANGES;
}

const struct slurm_change *slurm_change_at_index(size_t i)
{
	return i < N_CHANGES ? &changes[i] : NULL;
}

const struct slurm_change *slurm_change_option(unsigned cmd, const char *option)
{
	for (size_t i = 0; option && i < N_CHANGES; i++)
		if (!changes[i].value && (changes[i].cmds & cmd) && !strcmp(changes[i].option, option))
			return &changes[i];
	return NULL;
}

static bool any_value(const char *value)
{
	return value && *value;
}

/* The forms a FORM row names, by its value text. */
static const struct {
	const char *name;
	bool (*matches)(const char *value);
} forms[] = {
	{ "a size list or step", sbopt_nodes_size_list },
	{ "a timeout or mode", any_value },
};

static bool form_matches(const char *form, const char *value)
{
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (!strcmp(forms[i].name, form))
			return forms[i].matches(value);
	return false;
}

/* Whether value has item among its comma-separated items. */
static bool has_item(const char *value, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncasecmp(p, item, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

const struct slurm_change *slurm_change_value(unsigned cmd, const char *option,
					      const char *value)
{
	for (size_t i = 0; option && value && i < N_CHANGES; i++) {
		const struct slurm_change *c = &changes[i];
		if (!c->value || !(c->cmds & cmd) || strcmp(c->option, option) != 0)
			continue;
		bool hit = c->flags & SLURM_CHANGE_FORM ? form_matches(c->value, value)
							: has_item(value, c->value);
		if (hit)
			return c;
	}
	return NULL;
}

enum sbopt_release slurm_change_at(const struct slurm_change *c, struct version slurm,
				   struct version *when)
{
	return sbopt_release_of(c->since, c->until, c->flags & SLURM_CHANGE_UNSURE, slurm, when);
}
