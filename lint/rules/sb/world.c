/* The open world a batch script runs in (docs/design.md, "An open
 * world"): who can set a variable the script reads but does not set. The
 * rules that reason about variables ask here, so that each finding rests
 * on one stated assumption and its level follows from it: an error only
 * when nothing can set the name, a warning naming the assumption when an
 * empty value breaks the job, nothing otherwise. */
#include <ctype.h>
#include <string.h>

#include "envvars.h"
#include "sb.h"

/* Names the environment of a job step holds without the script: the
 * login (bash(1), "Shell Variables"; login(1)), bash's own, and what
 * torchrun gives each worker (torch.distributed.run's environment). The
 * Slurm family's names are envvars.c's table. */
static bool environment_name(const char *n)
{
	static const char *const prefixes[] = { "PMI_", "PMIX_", "OMPI_", "BASH_" };
	static const char *const names[] = {
		"HOME", "USER", "LOGNAME", "PATH", "PWD", "OLDPWD", "HOSTNAME", "SHELL", "TMPDIR",
		"LANG", "TERM", "CUDA_VISIBLE_DEVICES", "RANK", "LOCAL_RANK", "WORLD_SIZE",
		"LOCAL_WORLD_SIZE", "GROUP_RANK", "NODE_RANK", "MASTER_ADDR", "MASTER_PORT", "RANDOM",
		"SECONDS", "LINENO", "BASH_SOURCE", "UID", "EUID", "PPID", "BASHPID", "HOSTTYPE",
		"OSTYPE", "MACHTYPE", "IFS", "PS1", "PS4", "SHLVL", "LD_LIBRARY_PATH", "MODULEPATH",
		"LOADEDMODULES", "CONDA_PREFIX", "VIRTUAL_ENV",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(n, names[i]))
			return true;
	return env_slurm_known(n);
}

/* Whether the script says the name is an input: a comment names it. */
static bool documented_input(const struct sbc *c, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < sb_comment_count(c->m); i++) {
		const char *t = sb_comment_at(c->m, i)->text;
		for (const char *p = strstr(t, name); p; p = strstr(p + 1, name)) {
			bool left = p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
			bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
			if (left && right)
				return true;
		}
	}
	return false;
}

/* ${NAME:?msg} or ${NAME?msg} anywhere: the script stops with a message
 * when the name is not set, so an empty value cannot reach a launcher. */
static bool guarded(const struct sbc *c, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_word_count(cmd); k++) {
			size_t len;
			const char *raw = sb_word_raw(sb_cmd_word(cmd, k), &len);
			for (size_t j = 0; raw && j + n + 3 <= len; j++)
				if (raw[j] == '$' && raw[j + 1] == '{' && !strncmp(raw + j + 2, name, n) &&
				    (raw[j + 2 + n] == '?' ||
				     (raw[j + 2 + n] == ':' && j + n + 3 < len && raw[j + 3 + n] == '?')))
					return true;
		}
	}
	return false;
}

static bool assigned_anywhere(const struct sbc *c, const char *name)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++)
		if (!strcmp(sb_assign_at(c->m, i)->name, name))
			return true;
	return false;
}

/* The --export of the job (sbatch(1) of Slurm 25.11, --export): ALL
 * unless an #SBATCH line says otherwise, or SBATCH_EXPORT in the
 * submitting shell, which a file beside the script that users source
 * before sbatch sets: sbatch reads it as --export, and "Environment
 * variables will override any options set in a batch script" (sbatch(1),
 * INPUT ENVIRONMENT VARIABLES). */
static enum sbc_export job_export(const struct sbc *c, const char *name)
{
	const struct sb_directive *d = sb_directive_find(c->alloc ? c->alloc : c->m, "export");
	const char *v = d ? d->value : NULL, *file;
	const char *env = c->world && c->world->value_beside
				  ? c->world->value_beside(c->world->ctx, "SBATCH_EXPORT", &file)
				  : NULL;
	if (env)
		v = env;
	if (!v || !*v)
		return EXPORT_ALL;
	if (!strcmp(v, "NIL"))
		return EXPORT_NIL;
	if (!strcmp(v, "NONE"))
		return EXPORT_NONE;
	/* [ALL,]NAME[=VALUE],...: ALL, or the name listed, passes it */
	size_t n = strlen(name);
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ",");
		size_t key = strcspn(p, ",=");
		if ((len == 3 && !strncmp(p, "ALL", 3)) || (key == n && !strncmp(p, name, n)))
			return EXPORT_ALL;
		p += len + (p[len] == ',');
	}
	return EXPORT_LIST;
}

enum sbc_origin sbc_var_origin(const struct sbc *c, const char *name, const sb_cmd *at,
			       const char **file)
{
	struct sb_resolved r;
	*file = NULL;
	if (sb_resolve(c->m, name, at, &r) != SB_RES_ENV || !r.var || strcmp(r.var, name) != 0)
		return ORIGIN_SCRIPT; /* set here, or follows one that is */
	if (r.after_source || assigned_anywhere(c, name))
		return ORIGIN_SCRIPT;
	if (environment_name(name))
		return ORIGIN_ENVIRONMENT;
	if (documented_input(c, name) || guarded(c, name))
		return ORIGIN_DOCUMENTED;
	bool sourced = false, beside = false;
	if (c->world && c->world->sets && c->world->sets(c->world->ctx, name, file, &sourced)) {
		if (sourced)
			return ORIGIN_SOURCED;
		beside = true;
	}
	/* a file beside the script sets the submitting shell's names, which
	 * reach the job only with --export=ALL */
	switch (job_export(c, name)) {
	case EXPORT_NIL:
		*file = NULL;
		return ORIGIN_NOTHING;
	case EXPORT_NONE:
	case EXPORT_LIST:
		*file = NULL;
		return ORIGIN_LOGIN;
	case EXPORT_ALL:
		break;
	}
	return beside ? ORIGIN_BESIDE : ORIGIN_SUBMITTER;
}

const char *sbc_origin_assumption(enum sbc_origin o)
{
	switch (o) {
	case ORIGIN_SUBMITTER:
		return "the submitting shell's (sbatch passes its environment on: --export=ALL, the default), or empty";
	case ORIGIN_LOGIN:
		return "the login environment's (--export without ALL loads only that), or empty";
	case ORIGIN_NOTHING:
		return "empty (--export=NIL passes the job nothing of the submitting shell and loads no login environment)";
	default:
		return "set before the script runs";
	}
}

/* A name under a Slurm prefix (SLURM_, SBATCH_, SRUN_, SLURMD_) that no
 * Slurm command sets or reads, one edit or two from one that it does:
 * the name Slurm sets, or NULL. */
const char *sbc_slurm_misspelt(const char *name)
{
	const struct env_family_def *f = env_family_of(name);
	if (!f || !f->slurm || env_slurm_known(name))
		return NULL;
	const char *near = env_near(name);
	const struct env_family_def *nf = near ? env_family_of(near) : NULL;
	return nf && nf->slurm ? near : NULL;
}
