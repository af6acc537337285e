/* SB2701-SB2703: jobs that lose nodes and must go on. A job on spot
 * capacity loses its nodes to reclaims, and an elastic one restarts its
 * workers at the sizes that are left; the framework's line decides
 * whether a lost node costs the training since the start, and the
 * layout whether the size left trains at all. Each framework's save,
 * resume and signal arguments come from its checkpoint facts
 * (core/facts/frameworks, fw_checkpoint), at the version the lint
 * targets (docs/jobspec.md, "Mixed fleet"). */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "sb.h"

/* The spot queue the job's nodes come from, or NULL: a component's
 * queue of CapacityType SPOT in the paired cluster config. */
static const char *spot_queue(const struct sbc *c)
{
	if (!c->cluster)
		return NULL;
	for (unsigned k = 0; k < c->ncomp; k++) {
		const char *t = c->comp[k].queue ? cluster_capacity_type(c->cluster, c->comp[k].queue) : NULL;
		if (t && !strcmp(t, "SPOT")) {
			const struct sb_directive *p = c->comp[k].partition;
			return p && p->value ? p->value : "the job's";
		}
	}
	return NULL;
}

static const struct fw_checkpoint *checkpoint_of(const struct sbc *c, enum framework fw, const char **version)
{
	size_t v = target_fw_version(c->target, fw);
	*version = fw_version_at(fw, v)->title;
	return fw_checkpoint(fw, v);
}

/* What the line lacks to save periodically and resume, in words; NULL
 * when it does both. */
static const char *save_gap(const sb_part *entry, const struct fw_checkpoint *ck, char *buf, size_t cap)
{
	if (ck->enable && !sb_flag_find(entry, ck->enable))
		snprintf(buf, cap, "has no %s: it saves no checkpoint, so a reclaim loses the training since the start", ck->enable);
	else if (ck->save_dir && !sb_flag_find(entry, ck->save_dir))
		snprintf(buf, cap, "has no %s: it saves no checkpoint, so a reclaim loses the training since the start", ck->save_dir);
	else if (ck->interval && ck->interval_required && !sb_flag_find(entry, ck->interval))
		snprintf(buf, cap, "has %s without %s: it refuses to start, and saves nothing", ck->save_dir, ck->interval);
	else if (ck->load_dir && !sb_flag_find(entry, ck->load_dir))
		snprintf(buf, cap, "saves but has no %s: after a reclaim it starts again from scratch", ck->load_dir);
	else if (ck->resume && !sb_flag_find(entry, ck->resume))
		snprintf(buf, cap, "saves but has no %s %s: after a reclaim it starts again from scratch", ck->resume, ck->resume_value);
	else
		return NULL;
	return buf;
}

/* SB2701 spot-job-never-saves */
static void spot_job_never_saves(struct sbc *c, const struct sbc_layout *s)
{
	const char *queue = spot_queue(c), *version;
	if (!queue || !sbc_multi_node(c) || s->l.fw == FW_PLAIN)
		return;
	const struct fw_checkpoint *ck = checkpoint_of(c, s->l.fw, &version);
	char gap[200];
	if (!ck || !save_gap(s->entry, ck, gap, sizeof gap))
		return;
	struct diag *g = sbc_report(c, R_SB2701, sb_word_span(sb_part_program(s->entry)),
		"a %lld-node job on spot capacity (queue %s) whose %s line %s",
		c->nodes, queue, version, gap);
	diag_set_help(g, "save periodically and resume from the latest save: %s%s%s DIR%s%s%s%s (%s)",
		      ck->enable ? ck->enable : "", ck->enable ? " " : "", ck->save_dir,
		      ck->load_dir ? " " : "", ck->load_dir ? ck->load_dir : "", ck->load_dir ? " DIR" : "",
		      ck->interval ? " and an interval" : "", ck->source);
}

/* The signal a command sends, by the words after its program: scancel
 * --signal=SIG | -s SIG; kill and pkill -SIG | -s SIG | -n NUM |
 * --signal SIG. 0 when none is named. */
static int sent_signal(const sb_cmd *cmd, size_t from, bool is_scancel, const sb_word **at)
{
	size_t n = sb_cmd_word_count(cmd);
	for (size_t i = from; i < n; i++) {
		const char *w = sb_word_value(sb_cmd_word(cmd, i));
		const char *next = i + 1 < n ? sb_word_value(sb_cmd_word(cmd, i + 1)) : NULL;
		if (!w || w[0] != '-')
			continue;
		const char *sig = NULL;
		if (!strncmp(w, "--signal=", 9))
			sig = w + 9;
		else if (!strcmp(w, "--signal") || !strcmp(w, "-s") || (!is_scancel && !strcmp(w, "-n")))
			sig = next;
		else if (is_scancel && !strncmp(w, "-s", 2) && w[2])
			sig = w + 2;
		else if (!is_scancel && w[1] && w[1] != '-')
			sig = w + 1;
		if (!sig)
			continue;
		*at = sb_cmd_word(cmd, i);
		return fw_signal_number(sig, strlen(sig));
	}
	return 0;
}

/* Slurm's --signal=[{R|B}:]SIG[@TIME]: the signal, unless it goes to
 * the batch shell alone (B:, which the script handles itself). */
static int slurm_signal(const char *v)
{
	if (!v)
		return 0;
	const char *colon = strchr(v, ':');
	if (colon) {
		if (memchr(v, 'B', (size_t)(colon - v)))
			return 0;
		v = colon + 1;
	}
	const char *at = strchr(v, '@');
	return fw_signal_number(v, at ? (size_t)(at - v) : strlen(v));
}

/* The signal the line saves on: its signal flag's, its default with the
 * switch, 0 without. */
static int saves_on(const sb_part *entry, const struct fw_checkpoint *ck)
{
	if (!ck || !ck->signal_switch || !sb_flag_find(entry, ck->signal_switch))
		return 0;
	const sb_word *w = ck->signal_flag ? sb_flag(entry, ck->signal_flag) : NULL;
	if (!w && ck->signal_flag)
		w = sb_flag_next(entry, ck->signal_flag);
	const char *v = w ? sb_word_value(w) : NULL;
	return v ? fw_signal_number(v, strlen(v)) : ck->signal_default;
}

/* Signals that end a process whatever it does, or resume it: not a save request. */
static bool ends_or_resumes(int sig)
{
	return sig == 9 || sig == 19 || sig == 18;
}

static void report_signal(struct sbc *c, const struct sbc_layout *s, struct sb_span span, int sig,
			  const char *how)
{
	const char *version;
	const struct fw_checkpoint *ck = checkpoint_of(c, s->l.fw, &version);
	int want = saves_on(s->entry, ck);
	if (!ck || !sig || ends_or_resumes(sig) || sig == want)
		return;
	const char *name = fw_signal_name(sig) ? fw_signal_name(sig) : "a signal";
	struct diag *g;
	if (want)
		g = sbc_report(c, R_SB2702, span, "%s %s, but the %s line saves on %s (%s): it makes no checkpoint",
			       how, name, version, fw_signal_name(want) ? fw_signal_name(want) : "another signal",
			       ck->signal_flag ? ck->signal_flag : ck->signal_switch);
	else if (ck->signal_switch)
		g = sbc_report(c, R_SB2702, span, "%s %s, but the %s line has no %s, so it saves on no signal: %s ends it without a checkpoint",
			       how, name, version, ck->signal_switch, name);
	else
		g = sbc_report(c, R_SB2702, span, "%s %s, but %s saves on no signal (%s): the training since its last periodic save is lost",
			       how, name, version, ck->signal_how);
	if (ck->signal_switch)
		diag_set_help(g, "send the signal the line saves on, or give it %s %s %s (%s)", ck->signal_switch,
			      ck->signal_flag ? ck->signal_flag : "", name, ck->signal_source ? ck->signal_source : ck->source);
	else
		diag_set_help(g, "save periodically often enough for the work a reclaim may cost, and stop the job rather than signal it");
}

/* Whether the script polls EC2's spot interruption notice (a watcher). */
static bool watches_notice(const struct sbc *c)
{
	return c->src->text && memmem(c->src->text, c->src->len, "spot/instance-action",
				      strlen("spot/instance-action"));
}

/* SB2702 signal-not-saved-on */
static void signal_not_saved_on(struct sbc *c, const struct sbc_layout *s)
{
	if (s->l.fw == FW_PLAIN)
		return;
	for (size_t i = 0; i < sb_directive_count(c->alloc); i++) {
		const struct sb_directive *d = sb_directive_at(c->alloc, i);
		if (d->long_name && !strcmp(d->long_name, "signal"))
			report_signal(c, s, d->span, slurm_signal(d->value), "#SBATCH --signal sends the job's steps");
	}
	bool watcher = watches_notice(c);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_part_count(cmd); k++) {
			const sb_part *p = sb_cmd_part(cmd, k);
			const char *name = sb_part_name(p);
			const sb_word *at = NULL;
			size_t from = 0;
			while (from < sb_cmd_word_count(cmd) && sb_cmd_word(cmd, from) != sb_part_program(p))
				from++;
			if (sb_part_kind(p) == SB_PROG_SRUN) {
				const sb_word *v = sb_flag(p, "signal");
				if (v)
					report_signal(c, s, sb_word_span(v), slurm_signal(sb_word_value(v)),
						      "srun --signal sends its tasks");
			} else if (!strcmp(name, "scancel")) {
				int sig = sent_signal(cmd, from + 1, true, &at);
				if (sig)
					report_signal(c, s, sb_word_span(at), sig, "scancel sends");
			} else if (watcher && (!strcmp(name, "kill") || !strcmp(name, "pkill"))) {
				int sig = sent_signal(cmd, from + 1, false, &at);
				if (sig)
					report_signal(c, s, sb_word_span(at), sig, "the spot watcher sends");
			}
		}
	}
}

/* SB2703 elastic-range-untrainable */
static void elastic_range_untrainable(struct sbc *c, const struct sbc_layout *s)
{
	if (!s->nodes || !s->ppn || s->nodes_max <= s->nodes + 1)
		return;
	const sb_word *mr = sb_flag(s->torch, "max-restarts");
	long long restarts = 0;
	if (!mr || (sbc_word_int(c, mr, s->cmd, &restarts) && restarts <= 0))
		return; /* no restart: SB2209's */
	/* the ends are SB2210's */
	struct layout_finding f;
	if (sbc_world_fault(s, s->nodes, &f) != LAYOUT_OK || sbc_world_fault(s, s->nodes_max, &f) != LAYOUT_OK)
		return;
	struct buf bad = BUF_INIT;
	long long count = 0, first = 0;
	struct layout_finding first_f = { 0 };
	for (long long n = s->nodes + 1; n < s->nodes_max; n++) {
		if (sbc_world_fault(s, n, &f) == LAYOUT_OK)
			continue;
		if (!count++)
			first = n, first_f = f;
		if (count <= 8)
			buf_printf(&bad, "%s%lld", count > 1 ? ", " : "", n);
	}
	if (count) {
		struct layout l = sbc_layout_at(s, first);
		char why[160];
		if (first_f.fault == LAYOUT_BATCH)
			snprintf(why, sizeof why, "the global batch %lld is not a multiple of micro batch %lld x DP %lld",
				 first_f.value, l.micro, layout_dp(&l));
		else
			snprintf(why, sizeof why, "TP %lld x PP %lld x CP %lld does not divide its %lld processes",
				 l.tp, l.pp, l.cp, l.world);
		struct diag *g = sbc_report(c, R_SB2703, mr ? sb_word_span(mr) : sb_word_span(sb_flag(s->torch, "nnodes")),
			"torchrun may restart its workers at any size from %lld to %lld nodes, and the layout cannot train at %s%s (at %lld nodes, %s): once the nodes left make such a size, every restart fails at start-up until --max-restarts runs out",
			s->nodes, s->nodes_max, bad.p, count > 8 ? " and more" : "", first, why);
		diag_set_help(g, "let nodes join and leave only in units that keep a size the layout trains at, each unit a job of its own with a check before the workers start (trainforge gen writes such a mixed fleet: docs/jobspec.md), or make every size from %lld to %lld train",
			      s->nodes, s->nodes_max);
	}
	buf_free(&bad);
}

void sbc_check_survival(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		struct sbc_layout s;
		if (!sbc_read_layout(c, sb_cmd_at(c->m, i), &s))
			continue;
		spot_job_never_saves(c, &s);
		signal_not_saved_on(c, &s);
		elastic_range_untrainable(c, &s);
	}
}
