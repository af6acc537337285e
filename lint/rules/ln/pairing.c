/* LN30xx on how a batch script met its cluster config (docs/design.md,
 * "Pairing"): a script checked against no config hears which checks
 * did not run, and one paired with a config that nothing named hears
 * which and why, so that pairing is never silent. */
#include <string.h>

#include "buf.h"
#include "ln.h"
#include "text.h"

/* The first #SBATCH line (where the job's options are), else line 1. */
static uint32_t directive_line(const struct source *src)
{
	uint32_t line = 1;
	for (const char *p = src->text, *end = src->text + src->len; p < end; line++) {
		if ((size_t)(end - p) >= 7 && !memcmp(p, "#SBATCH", 7))
			return line;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		p = nl + 1;
	}
	return 1;
}

static struct diag *at_directives(struct diag_list *diags, struct source *src, enum rule_id rule,
				  const char *msg)
{
	uint32_t line = directive_line(src);
	size_t len;
	const char *text = source_line(src, line, &len);
	uint32_t end = text && len ? (uint32_t)utf8_count(text, len) + 1 : 2;
	return diag_add(diags, src, rule, line, 1, line, end, "%s", msg);
}

/* LN3002 script-not-paired */
void ln_script_not_paired(struct diag_list *diags, struct source *src, const bool *enabled)
{
	/* the enabled checks; when none is (--select LN3002), all of them */
	bool any = false;
	for (int r = 0; r < RULE__COUNT; r++)
		any |= rule_area_of((enum rule_id)r) == AREA_SB_CLUSTER && enabled[r];
	struct buf b = BUF_INIT;
	size_t n = 0;
	/* the unreadable config's rule is about a config that was named */
	int unreadable = rule_find("SB3005", 6);
	for (int r = 0; r < RULE__COUNT; r++) {
		if (rule_area_of((enum rule_id)r) != AREA_SB_CLUSTER || (any && !enabled[r]) ||
		    r == unreadable)
			continue;
		buf_printf(&b, "%s%s %s", n++ ? ", " : "", rule_table[r].id, rule_table[r].name);
	}
	if (n) {
		struct buf msg = BUF_INIT;
		buf_printf(&msg, "no cluster config is paired with this batch script, so the checks against its cluster did not run: %s",
			   b.p);
		struct diag *d = at_directives(diags, src, R_LN3002, msg.p);
		diag_set_help(d, "name it with a `# trainforge cluster=PATH` line in the script (trainforge gen writes one), --cluster FILE, or cluster: in .trainforge.yaml; or lint the script together with its config");
		buf_free(&msg);
	}
	buf_free(&b);
}

/* LN3003 script-paired-implicitly */
void ln_script_paired(struct diag_list *diags, struct source *src, enum ln_pairing how,
		      const char *config, const char *partition)
{
	struct buf msg = BUF_INIT;
	switch (how) {
	case LN_PAIRED_ONLY_INPUT:
		buf_printf(&msg, "checked against %s, the only cluster config among the inputs", config);
		break;
	case LN_PAIRED_PARTITION:
		buf_printf(&msg, "checked against %s, the only cluster config among the inputs with a queue named %s (its partition)",
			   config, partition);
		break;
	case LN_PAIRED_TRACKED:
		buf_printf(&msg, "checked against %s, the only cluster config git tracks in this repository",
			   config);
		break;
	}
	struct diag *d = at_directives(diags, src, R_LN3003, msg.p);
	diag_set_help(d, "a `# trainforge cluster=PATH` line in the script names its config for every run, alone or not");
	buf_free(&msg);
}
