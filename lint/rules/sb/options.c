/* SB1xxx: #SBATCH options against sbatch's own table, and the options of
 * srun commands against the release table, for the target's Slurm: an
 * option or value newer than the target (SB1003) or that the target no
 * longer has (SB1004) says which release added or removed it. The script
 * model reads each name as every release together would; here each is
 * read again as the target's getopt reads it, so that "--extra" on
 * 22.05 is the abbreviation of --extra-node-info it is there. */
#include <stdio.h>
#include <string.h>

#include "changes.h"
#include "releases.h"
#include "sb.h"

#define TARGET_SLURM(c) SLURM_TEXT((c)->target->slurm)

/* SB1001 unknown-sbatch-option */
static void unknown_sbatch_option(struct sbc *c, const struct sb_directive *d, bool ambiguous)
{
	if (d->form == SB_DFORM_STRAY) {
		sbc_report(c, R_SB1001, d->name_span,
			   "'%s' on an #SBATCH line is not an option; sbatch refuses the script", d->name);
		return;
	}
	if (ambiguous) {
		sbc_report(c, R_SB1001, d->name_span,
			   "%s is an abbreviation of several options of Slurm %s's sbatch; sbatch refuses it",
			   d->name, TARGET_SLURM(c));
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
static void invalid_option_value(struct sbc *c, const struct sb_directive *d,
				 const struct sbopt *opt)
{
	if (d->missing_value) {
		sbc_report(c, R_SB1002, d->name_span, "%s needs a value", d->name);
		return;
	}
	if (!d->value)
		return;
	char why[256] = "";
	enum sbopt_verdict v = sbopt_check_value(opt, d->value, strlen(d->value), why, sizeof why);
	if (v == SBOPT_OK)
		return;
	struct diag *g = sbc_report(c, R_SB1002, d->value_span, "--%s=%s: %s", opt->name,
				    d->value, why[0] ? why : "sbatch rejects this value");
	if (v == SBOPT_SUSPECT)
		g->sev = SEV_WARNING;
	if (opt->example)
		diag_set_help(g, "for example --%s=%s", opt->name, opt->example);
}

static void target_help(struct diag *g)
{
	diag_set_help(g, "the target is the Slurm your cluster runs: --target slurm=VERSION or "
			 "--target parallelcluster=VERSION (or target: in .trainforge.yaml)");
}

/* SB1003 newer-slurm-option */
static void newer_slurm_option(struct sbc *c, struct sb_span at, const char *what,
			       enum sbopt_release rel, struct version when, const struct sbopt *reads_as)
{
	struct diag *g;
	if (rel == SBOPT_MAYBE) {
		g = sbc_report(c, R_SB1003, at,
			       "%s is not in Slurm 22.05 and is in %s; which release added it is not known, "
			       "so Slurm %s may reject it", what, SLURM_RELEASE_TEXT(when), TARGET_SLURM(c));
		g->sev = SEV_WARNING;
	} else if (reads_as) {
		g = sbc_report(c, R_SB1003, at,
			       "%s arrived in Slurm %s; Slurm %s reads it as --%s, an option it abbreviates",
			       what, SLURM_RELEASE_TEXT(when), TARGET_SLURM(c), reads_as->name);
	} else {
		g = sbc_report(c, R_SB1003, at, "%s arrived in Slurm %s; Slurm %s rejects it", what,
			       SLURM_RELEASE_TEXT(when), TARGET_SLURM(c));
	}
	target_help(g);
}

/* SB1004 removed-slurm-option: rejected, or (ignored) taken and
 * dropped with a message, so the job runs without what it asked for. */
static void removed_slurm_option(struct sbc *c, struct sb_span at, const char *what,
				 struct version when, bool ignored)
{
	struct diag *g;
	if (ignored) {
		g = sbc_report(c, R_SB1004, at,
			       "%s was removed in Slurm %s; Slurm %s ignores it with a message and does without",
			       what, SLURM_RELEASE_TEXT(when), TARGET_SLURM(c));
		g->sev = SEV_WARNING;
	} else {
		g = sbc_report(c, R_SB1004, at, "%s was removed in Slurm %s; Slurm %s rejects it", what,
			       SLURM_RELEASE_TEXT(when), TARGET_SLURM(c));
	}
	target_help(g);
}

/* A release's verdict on an option or value: reported, or true when the
 * target has it. */
static bool judge(struct sbc *c, struct sb_span at, const char *what, enum sbopt_release rel,
		  struct version when, const struct sbopt *reads_as, bool ignored)
{
	if (rel == SBOPT_REMOVED)
		removed_slurm_option(c, at, what, when, ignored);
	else if (rel != SBOPT_PRESENT)
		newer_slurm_option(c, at, what, rel, when, reads_as);
	return rel == SBOPT_PRESENT;
}

/* One value of an option the target has: its form and its items. */
static void judge_value(struct sbc *c, unsigned cmd, const char *prog, const char *option,
			const char *value, struct sb_span at)
{
	const struct slurm_change *ch = slurm_change_value(cmd, option, value);
	struct version when;
	if (!ch)
		return;
	char what[160];
	if (ch->flags & SLURM_CHANGE_FORM)
		snprintf(what, sizeof what, "%s--%s=%s (%s)", prog, option, value, ch->value);
	else
		snprintf(what, sizeof what, "%s--%s=%s", prog, option, ch->value);
	judge(c, at, what, slurm_change_at(ch, c->target->slurm, &when), when, NULL,
	      ch->flags & SLURM_CHANGE_IGNORED);
}

static void check_directive(struct sbc *c, const struct sb_directive *d)
{
	struct version slurm = c->target->slurm, when;
	const struct sbopt *opt = d->opt;
	bool ambiguous = d->ambiguous;
	bool long_form = d->name[0] == '-' && d->name[1] == '-';
	/* The target's getopt: what the name selects there. */
	const struct sbopt *at_target = NULL;
	bool ambiguous_at_target = false;
	if (long_form && d->form != SB_DFORM_STRAY)
		at_target = sbopt_match_at(d->name + 2, strcspn(d->name + 2, "="), slurm,
					   &ambiguous_at_target);
	if (!opt && ambiguous && at_target) {
		opt = at_target; /* a prefix several releases share, one here */
		ambiguous = false;
	}
	if (!opt) {
		unknown_sbatch_option(c, d, ambiguous && (ambiguous_at_target || !long_form));
		return;
	}
	enum sbopt_release rel = sbopt_at_release(opt, slurm, &when);
	if (rel != SBOPT_PRESENT) {
		char what[96];
		if (d->abbreviated)
			snprintf(what, sizeof what, "%s (--%s)", d->name, opt->name);
		else
			snprintf(what, sizeof what, "--%s", opt->name);
		judge(c, d->name_span, what, rel, when, at_target != opt ? at_target : NULL, false);
		return;
	}
	invalid_option_value(c, d, opt);
	if (d->value)
		judge_value(c, SLURM_SBATCH, "", opt->name, d->value, d->value_span);
}

/* srun's options in the script, as the target's srun has them. */
static void check_srun(struct sbc *c, const sb_part *p)
{
	struct version when;
	for (size_t i = 0; i < sb_part_flag_count(p); i++) {
		const struct sb_flag *f = sb_part_flag(p, i);
		struct sb_span at = sb_word_span(f->word);
		const struct slurm_change *ch = slurm_change_option(SLURM_SRUN, f->name);
		char what[96];
		snprintf(what, sizeof what, "srun --%s", f->name);
		if (ch && !judge(c, at, what, slurm_change_at(ch, c->target->slurm, &when), when, NULL,
				 ch->flags & SLURM_CHANGE_IGNORED))
			continue;
		const char *value = f->value ? sb_word_value(f->value) : NULL;
		if (value)
			judge_value(c, SLURM_SRUN, "srun ", f->name, value, at);
	}
}

void sbc_check_options(struct sbc *c)
{
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		if (d->after_command)
			continue; /* sbatch never reads it: SB0001 says so */
		check_directive(c, d);
	}
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_part_count(cmd); k++)
			if (sb_part_kind(sb_cmd_part(cmd, k)) == SB_PROG_SRUN)
				check_srun(c, sb_cmd_part(cmd, k));
	}
}
