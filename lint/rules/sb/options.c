/* SB1xxx: #SBATCH options against sbatch's own table (Slurm 22.05). */
#include <stdio.h>
#include <string.h>

#include "sb.h"

/* SB1001 unknown-sbatch-option */
static void unknown_sbatch_option(struct sbc *c, const struct sb_directive *d)
{
	if (d->form == SB_DFORM_STRAY) {
		sbc_report(c, R_SB1001, d->name_span,
			   "'%s' on an #SBATCH line is not an option; sbatch refuses the script", d->name);
		return;
	}
	if (d->ambiguous) {
		sbc_report(c, R_SB1001, d->name_span,
			   "%s is an abbreviation of several sbatch options; sbatch refuses it", d->name);
		return;
	}
	const char *bare = d->name;
	while (*bare == '-')
		bare++;
	const char *near = sbopt_suggest(bare);
	struct diag *g = sbc_report(c, R_SB1001, d->name_span, "sbatch has no option %s", d->name);
	if (near)
		diag_set_help(g, "did you mean --%s?", near);
}

/* SB1002 invalid-option-value */
static void invalid_option_value(struct sbc *c, const struct sb_directive *d)
{
	if (d->missing_value) {
		sbc_report(c, R_SB1002, d->name_span, "%s needs a value", d->name);
		return;
	}
	if (!d->value)
		return;
	char why[256] = "";
	enum sbopt_verdict v = sbopt_check_value(d->opt, d->value, strlen(d->value), why, sizeof why);
	if (v == SBOPT_OK)
		return;
	struct diag *g = sbc_report(c, R_SB1002, d->value_span, "--%s=%s: %s", d->opt->name,
				    d->value, why[0] ? why : "sbatch rejects this value");
	if (v == SBOPT_SUSPECT)
		g->sev = SEV_WARNING;
	if (d->opt->example)
		diag_set_help(g, "for example --%s=%s", d->opt->name, d->opt->example);
}

/* SB1003 newer-slurm-option */
static void newer_slurm_option(struct sbc *c, const struct sb_directive *d)
{
	if (d->opt->since)
		sbc_report(c, R_SB1003, d->name_span,
			   "--%s arrived in Slurm %s; Slurm 22.05 rejects it, or reads it as an older option it abbreviates",
			   d->opt->name, d->opt->since);
}

void sbc_check_options(struct sbc *c)
{
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		if (d->after_command)
			continue; /* sbatch never reads it: SB0001 says so */
		if (!d->opt) {
			unknown_sbatch_option(c, d);
			continue;
		}
		newer_slurm_option(c, d);
		invalid_option_value(c, d);
	}
}
