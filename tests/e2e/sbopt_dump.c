/* Prints the linter's sbatch option table (lint/slurm/options.c), one
 * option a line, for tests/e2e/options.sh to hold against the real sbatch:
 *
 *   name TAB short TAB arg TAB since TAB flags TAB example
 *
 * short is the letter or "-"; arg is none, required or optional; since is
 * the Slurm release that added the option or "-" (in 22.05); flags is a
 * comma list of hidden, site, client, privileged, file or "-"; example is
 * the value the table says sbatch accepts, or "-" when none is taken or
 * the example is a value a later release added (--requeue=expedite,
 * 25.11: lint/slurm/changes.c). Built by options.sh against the project's
 * libtf.a. */
#include <stdbool.h>
#include <stdio.h>

#include "changes.h"
#include "options.h"

static const char *arg_name(enum sbopt_arg a)
{
	switch (a) {
	case SBOPT_ARG_NONE:
		return "none";
	case SBOPT_ARG_REQUIRED:
		return "required";
	case SBOPT_ARG_OPTIONAL:
		return "optional";
	}
	return "?";
}

static void print_flags(unsigned f)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ SBOPT_HIDDEN, "hidden" }, { SBOPT_SITE, "site" }, { SBOPT_CLIENT, "client" },
		{ SBOPT_PRIVILEGED, "privileged" }, { SBOPT_FILE, "file" },
	};
	int any = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (f & names[i].bit) {
			printf("%s%s", any ? "," : "", names[i].name);
			any = 1;
		}
	}
	if (!any)
		fputs("-", stdout);
}

int main(void)
{
	size_t n = sbopt_count();
	for (size_t i = 0; i < n; i++) {
		const struct sbopt *o = sbopt_at(i);
		if (!o)
			return 1;
		printf("%s\t", o->name);
		if (o->short_name)
			printf("%c\t", o->short_name);
		else
			fputs("-\t", stdout);
		printf("%s\t%s\t", arg_name(o->arg),
		       version_is_set(o->since) ? version_release_text(o->since, 2).s : "-");
		print_flags(o->flags);
		const struct slurm_change *later = o->example
			? slurm_change_value(SLURM_SBATCH, o->name, o->example) : NULL;
		bool newer = later && version_is_set(later->since);
		printf("\t%s\n", o->example && !newer ? o->example : "-");
	}
	return sbopt_at(n) == NULL ? 0 : 1;
}
