/* What every worker runs, held against the spec: the environment (env,
 * path_prepend) and the entry point's arguments beside the flags gen
 * writes from the framework table. A user value never replaces a
 * generated one silently (docs/jobspec.md, "Environment" and
 * "Arguments"). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void plan_knob_values(const struct plan *p, long long v[FK__COUNT])
{
	const struct job_spec *j = p->job;
	const struct spec_model *m = j->model;
	memset(v, 0, sizeof(long long) * FK__COUNT);
	v[FK_TP] = p->tp;
	v[FK_PP] = p->pp;
	v[FK_VPP] = p->vpp;
	v[FK_CP] = p->cp;
	v[FK_EP] = p->ep;
	/* a mixed fleet trains at two sizes: torchtitan takes the leftover ranks (-1) */
	v[FK_DP] = p->fleet.mixed ? -1 : p->dp;
	v[FK_MICRO] = p->micro;
	v[FK_GLOBAL] = p->global;
	v[FK_RANK_BATCH] = p->dp ? p->global / p->dp : 0;
	v[FK_MICRO_BATCHES] = p->micro_batches;
	v[FK_LAYERS] = m->layers;
	v[FK_HIDDEN] = m->hidden_size;
	v[FK_HEADS] = m->attention_heads;
	v[FK_GROUPS] = m->query_groups;
	v[FK_EXPERTS] = m->experts;
	v[FK_SEQ] = m->seq_length;
	v[FK_ZERO] = j->training->zero_stage;
	enum recompute rc = j->training->recompute != RC_UNSET ? j->training->recompute
								: PLAN_DEFAULT_RECOMPUTE;
	v[FK_RECOMPUTE] = rc == RC_NONE ? FW_RC_NONE : rc == RC_FULL ? FW_RC_FULL : FW_RC_SELECTIVE;
	/* the shape beyond the layout: each size the spec gives, top-k with
	 * the experts, and the two booleans the spec always has */
	/* a dense FFN is always written, its default when the spec leaves
	 * it out, so that the line says the size the plan counted */
	v[FK_FFN] = m->experts > 1 ? m->ffn_hidden_size : fw_ffn_size(&p->model.shape);
	v[FK_EXPERT_FFN] = m->experts > 1 ? m->expert_ffn_hidden_size : 0;
	v[FK_TOPK] = m->experts > 1 ? m->experts_per_token : 0;
	v[FK_VOCAB] = m->vocab_size;
	v[FK_GATED] = m->gated_ffn;
	v[FK_UNTIED] = !m->tied_embeddings;
	v[FK_TRAIN_SAMPLES] = p->model.samples;
	v[FK_TRAIN_STEPS] = p->model.steps;
	v[FK_SAVE_INTERVAL] = p->model.save_interval;
	v[FK_KV_REPLICATOR] = p->model.kv_replicator;
}

bool plan_cuda_max_connections(const struct plan *p)
{
	/* Megatron asserts this with TP or CP > 1 before Blackwell (B200,
	 * B300) (docs/frameworks.md, "Megatron-LM"). */
	const char *model = p->it->accel_model ? p->it->accel_model : "";
	bool blackwell = !strcmp(model, "B200") || !strcmp(model, "B300");
	return p->gpu && fw_def(p->job->framework)->cuda_max_connections &&
	       (p->tp > 1 || p->cp > 1) && !blackwell;
}

/* ---- arguments ----------------------------------------------------------- */

/* Flag names alike when they differ only in '-' and '_', as lint reads them. */
static bool flag_eq(const char *a, size_t alen, const char *b)
{
	size_t i = 0;
	for (; i < alen && b[i]; i++) {
		char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
		if (x != y)
			return false;
	}
	return i == alen && !b[i];
}

/* The user's word i as a flag: its name and its value (after '=', or the
 * next word unless that is a flag itself; NULL for none). */
struct user_flag {
	const char *name, *value;
	size_t name_len;
	unsigned at;       /* the word that names it */
};

static bool user_flag_at(const struct job_spec *j, unsigned i, struct user_flag *u)
{
	const char *w = j->entry->args[i];
	if (strncmp(w, "--", 2) || !w[2])
		return false;
	const char *eq = strchr(w, '=');
	u->name = w;
	u->name_len = eq ? (size_t)(eq - w) : strlen(w);
	u->value = eq ? eq + 1 : NULL;
	if (!eq && i + 1 < j->entry->args_count && strncmp(j->entry->args[i + 1], "--", 2))
		u->value = j->entry->args[i + 1];
	u->at = i;
	return true;
}

/* The value gen writes for row f, in words (NULL: a switch). */
static const char *row_value(const struct plan *p, const struct fw_flag *f,
			     const long long v[FK__COUNT], char *num, size_t cap)
{
	switch (f->form) {
	case FW_INT:
		snprintf(num, cap, "%lld", v[f->knob]);
		return num;
	case FW_WORD:
		return f->word;
	case FW_DIR:
		return p->job->paths->checkpoints;
	case FW_SWITCH:
		break;
	}
	return NULL;
}

/* The spec key a knob comes from, for messages. */
static const char *knob_key(enum fw_knob k)
{
	static const char *const keys[FK__COUNT] = {
		[FK_NONE] = "the plan (bf16)", [FK_TP] = "parallel.tensor",
		[FK_PP] = "parallel.pipeline", [FK_VPP] = "parallel.virtual_stages",
		[FK_CP] = "parallel.context", [FK_EP] = "parallel.expert", [FK_DP] = "the derived DP",
		[FK_MICRO] = "batch.micro", [FK_GLOBAL] = "batch.global",
		[FK_RANK_BATCH] = "batch.global / DP", [FK_MICRO_BATCHES] = "batch",
		[FK_LAYERS] = "model.layers", [FK_HIDDEN] = "model.hidden_size",
		[FK_HEADS] = "model.attention_heads", [FK_GROUPS] = "model.query_groups",
		[FK_EXPERTS] = "model.experts", [FK_SEQ] = "model.seq_length",
		[FK_CHECKPOINTS] = "paths.checkpoints", [FK_ZERO] = "training.zero_stage",
		[FK_RECOMPUTE] = "training.recompute", [FK_FFN] = "model.ffn_hidden_size",
		[FK_EXPERT_FFN] = "model.expert_ffn_hidden_size", [FK_TOPK] = "model.experts_per_token",
		[FK_VOCAB] = "model.vocab_size", [FK_GATED] = "model.gated_ffn",
		[FK_UNTIED] = "model.tied_embeddings", [FK_TRAIN_SAMPLES] = "model.tokens / model.seq_length",
		[FK_TRAIN_STEPS] = "model.tokens / (model.seq_length x batch.global)",
		[FK_SAVE_INTERVAL] = "the plan's save interval",
		[FK_KV_REPLICATOR] = "parallel.tensor / model.query_groups",
	};
	return keys[k];
}

/* The key that gates row f, else its knob's. */
static const char *row_key(const struct fw_flag *f)
{
	return knob_key(f->gate != FK_NONE ? f->gate : f->knob);
}

static struct diag *report_arg(const struct spec *spec, struct diag_list *diags, enum rule_id rule,
			       unsigned i, const char *fmt, const char *a, const char *b, const char *c)
{
	yd_node args = spec_node(spec, "entry.args");
	yd_node at = yd_kind(spec->doc, args) == YD_SEQUENCE ? yd_item(spec->doc, args, i) : args;
	return spec_report_at(spec, diags, rule, at ? at : args, fmt, a, b, c);
}

/* How the user's flag u stands to the framework's rows: the row gen
 * writes with that name (*written), or a contradiction (its message in
 * why, the row in *against). */
static bool judge_flag(const struct plan *p, const struct user_flag *u, const long long v[FK__COUNT],
		       const struct fw_flag **written, const struct fw_flag **against)
{
	const struct fw_def *fw = fw_def(p->job->framework);
	bool known = false;
	*written = *against = NULL;
	for (size_t i = 0; i < fw->nflags; i++) {
		const struct fw_flag *f = &fw->flags[i];
		if (!fw_flag_at_version(f, p->fw_version) || !flag_eq(u->name, u->name_len, f->flag))
			continue;
		known = true;
		if (fw_flag_written(f, v)) {
			*written = f;
			return true;
		}
		switch (f->when) {
		case FW_AGAINST:
			if (f->gate == FK_NONE || v[f->gate] != f->is)
				*against = f;
			break;
		case FW_IS:
		case FW_AT_LEAST:
			*against = f; /* the spec says a mode this flag is not */
			break;
		case FW_ABOVE_ONE:
			/* a size of 1 unwritten: the user's other size contradicts */
			if (f->form == FW_INT && f->gate == FK_NONE && u->value &&
			    atoll(u->value) != (v[f->knob] ? v[f->knob] : 1))
				*against = f;
			break;
		case FW_ALWAYS: case FW_GIVEN: case FW_NEVER:
			break;
		}
	}
	return known;
}

/* Whether the user's value for row f is the one gen writes. */
static bool same_value(const struct plan *p, const struct fw_flag *f, const struct user_flag *u,
		       const long long v[FK__COUNT])
{
	char num[32];
	const char *want = row_value(p, f, v, num, sizeof num);
	if (!want)
		return true; /* a switch: given is given */
	if (!u->value)
		return false;
	if (f->form == FW_INT) {
		char *end;
		long long got = strtoll(u->value, &end, 10);
		return !*end && got == v[f->knob];
	}
	return !strcmp(u->value, want);
}

bool plan_arg_given(const struct plan *p, const struct fw_flag *f)
{
	const struct job_spec *j = p->job;
	long long v[FK__COUNT];
	plan_knob_values(p, v);
	struct user_flag u;
	for (unsigned i = 0; i < j->entry->args_count; i++) {
		const struct fw_flag *w, *against;
		if (user_flag_at(j, i, &u) && judge_flag(p, &u, v, &w, &against) && w &&
		    flag_eq(u.name, u.name_len, f->flag) && same_value(p, w, &u, v))
			return true;
	}
	return false;
}

bool plan_args_have(const struct plan *p, const char *flag)
{
	const struct job_spec *j = p->job;
	struct user_flag u;
	for (unsigned i = 0; i < j->entry->args_count; i++)
		if (user_flag_at(j, i, &u) && flag_eq(u.name, u.name_len, flag))
			return true;
	return false;
}

/* JS4003 args-contradict-spec */
static bool args_contradict_spec(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	long long v[FK__COUNT];
	plan_knob_values(p, v);
	bool ok = true;
	struct user_flag u;
	for (unsigned i = 0; i < j->entry->args_count; i++) {
		const struct fw_flag *w, *against;
		if (!user_flag_at(j, i, &u) || !judge_flag(p, &u, v, &w, &against))
			continue;
		char given[160], want[160], num[32];
		snprintf(given, sizeof given, "%.*s%s%s", (int)u.name_len, u.name,
			 u.value && (w ? w->form : against ? against->form : FW_SWITCH) != FW_SWITCH ? " " : "",
			 u.value && (w ? w->form : against ? against->form : FW_SWITCH) != FW_SWITCH ? u.value : "");
		if (w && !same_value(p, w, &u, v)) {
			const char *val = row_value(p, w, v, num, sizeof num);
			snprintf(want, sizeof want, "%s%s%s", w->flag, val ? " " : "", val ? val : "");
			struct diag *d = report_arg(spec, diags, R_JS4003, i,
				"entry.args gives %s, but the spec says %s (%s), which the plan assumes and gen writes",
				given, want, row_key(w));
			diag_set_help(d, "change %s in the spec, or drop the argument", row_key(w));
			ok = false;
		} else if (!w && against && against->gate == FK_NONE && against->when == FW_AGAINST) {
			struct diag *d = report_arg(spec, diags, R_JS4003, i,
				"entry.args gives %s, but the plan assumes bf16 and gen writes --bf16",
				given, NULL, NULL);
			diag_set_help(d, "drop the argument");
			ok = false;
		} else if (!w && against) {
			char now[64];
			snprintf(now, sizeof now, "%s (%lld)", row_key(against),
				 v[against->gate != FK_NONE ? against->gate : against->knob]);
			if (against->gate == FK_RECOMPUTE || against->knob == FK_RECOMPUTE)
				snprintf(now, sizeof now, "%s (%s)", row_key(against),
					 recompute_name(j->training->recompute != RC_UNSET ? j->training->recompute
											   : PLAN_DEFAULT_RECOMPUTE));
			struct diag *d = report_arg(spec, diags, R_JS4003, i,
				"entry.args gives %s, which %s does not say: the plan and the flags gen writes go by the spec",
				given, now, NULL);
			diag_set_help(d, "say it in the spec (%s), or drop the argument", row_key(against));
			ok = false;
		}
	}
	return ok;
}

/* A Hydra override: dotted.key=value, +dotted.key=value, ~key. */
static bool hydra_override(const char *w)
{
	if (*w == '+' || *w == '~')
		w++;
	const char *eq = strchr(w, '=');
	if (!eq || !memchr(w, '.', (size_t)(eq - w)))
		return false;
	for (const char *s = w; s < eq; s++)
		if (!(*s == '.' || *s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* JS4004 hydra-args-for-megatron */
static bool hydra_args_for_megatron(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	if (j->framework != FW_MEGATRON)
		return true;
	const char *base = strrchr(j->entry->script, '/');
	base = base ? base + 1 : j->entry->script;
	/* NeMo 1's entry points, as neuronx-nemo-megatron runs them */
	if (!strcmp(base, "megatron_gpt_pretraining.py") || !strncmp(base, "megatron_llama", 14)) {
		struct diag *d = spec_report(spec, diags, R_JS4004, "entry.script",
			"%s is a NeMo (neuronx-nemo-megatron) entry point: it takes Hydra overrides such as model.tensor_model_parallel_size=%d, not the Megatron-LM flags that framework: megatron writes",
			base, p->tp);
		diag_set_help(d, "use framework: plain and give the layout as overrides in entry.args");
		return false;
	}
	for (unsigned i = 0; i < j->entry->args_count; i++)
		if (hydra_override(j->entry->args[i])) {
			char tp[32];
			snprintf(tp, sizeof tp, "%d", p->tp);
			struct diag *d = report_arg(spec, diags, R_JS4004, i,
				"entry.args has the Hydra override %s (neuronx-nemo-megatron, NeMo), but framework: megatron writes Megatron-LM flags such as --tensor-model-parallel-size %s, which a Hydra entry point rejects",
				j->entry->args[i], tp, NULL);
			diag_set_help(d, "use framework: plain and give the whole layout as overrides");
			return false;
		}
	return true;
}

/* JS4005 zero-stage-not-generated */
static void zero_stage_not_generated(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct fw_def *fw = fw_def(p->job->framework);
	int stage = p->job->training->zero_stage;
	if (!fw->zero_stages || fw->zero_stages & (1u << stage))
		return;
	int near = -1;
	for (int s = 0; s < 4; s++)
		if (fw->zero_stages & (1u << s) && (near < 0 || abs(s - stage) < abs(near - stage)))
			near = s;
	struct diag *d = spec_report(spec, diags, R_JS4005, p->job->training->zero_stage ? "training.zero_stage" : "framework",
		"the plan assumes ZeRO stage %d, but with %s %s: its memory figures are not what runs",
		stage, fw->title, fw->zero_how);
	diag_set_help(d, "training: {zero_stage: %d} states what the generated job does", near);
}

/* ---- environment ---------------------------------------------------------- */

/* The variables the generated script sets itself, with their values. */
static size_t generated_env(const struct plan *p, struct plan_env_set *out, size_t cap)
{
	static char lnc_flags[48], lnc[8], lnc_why[48];
	size_t n = 0;
	const struct instance_type *it = p->it;
	bool efa = it->efa == TRI_YES;
#define ADD(name_, value_, why_) do { if (n < cap) out[n++] = (struct plan_env_set){ name_, value_, why_ }; } while (0)
	ADD("CHECKPOINT_DIR", p->job->paths->checkpoints, "paths.checkpoints");
	ADD("RUN_DIR", NULL, "the run's log directory, read-only");
	ADD("RDZV_ENDPOINT", NULL, "the rendezvous endpoint, read-only");
	if (p->fleet.mixed)
		ADD("RESUME", "latest", "a mixed fleet resumes on every start");
	if (p->neuron) {
		ADD("NEURON_COMPILE_CACHE_URL", p->job->paths->compile_cache, "paths.compile_cache");
		if (efa) {
			ADD("FI_PROVIDER", "efa", "EFA");
			ADD("FI_EFA_USE_DEVICE_RDMA", "1", "EFA");
		}
		if (it->accel == ACCEL_TRAINIUM2) {
			snprintf(lnc, sizeof lnc, "%d", p->lnc);
			snprintf(lnc_why, sizeof lnc_why, p->job->lnc ? "lnc: %d" : "lnc, by default %d", p->lnc);
			snprintf(lnc_flags, sizeof lnc_flags, "--logical-nc-config=%d", p->lnc);
			ADD("NEURON_LOGICAL_NC_CONFIG", lnc, lnc_why);
			ADD("NEURON_CC_FLAGS", lnc_flags, lnc_why);
		}
	}
	if (p->gpu && efa)
		ADD("FI_PROVIDER", "efa", "EFA");
	if (plan_cuda_max_connections(p))
		ADD("CUDA_DEVICE_MAX_CONNECTIONS", "1", "Megatron with TP or CP above 1");
#undef ADD
	return n;
}

const struct plan_env_set *plan_env_generated(const struct plan *p, const char *name)
{
	static struct plan_env_set set[16];
	size_t n = generated_env(p, set, sizeof set / sizeof set[0]);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(set[i].name, name))
			return &set[i];
	return NULL;
}

/* The LNC a NEURON_CC_FLAGS value compiles for (--logical-nc-config=N,
 * --logical-nc-config N, -lnc N), or 0. */
static int cc_flags_lnc(const char *flags)
{
	const char *s = strstr(flags, "--logical-nc-config");
	size_t skip = 19;
	if (!s && (s = strstr(flags, "-lnc")))
		skip = 4;
	if (!s)
		return 0;
	s += skip;
	while (*s == '=' || *s == ' ')
		s++;
	return atoi(s);
}

bool plan_cc_flags_agree(const struct plan *p, const char *user)
{
	return p->it->accel == ACCEL_TRAINIUM2 && user && cc_flags_lnc(user) == p->lnc;
}

/* The variables whose old value a replacement loses: PATH always, the
 * others when the value names them (the expansion it meant). */
static bool path_like(const char *name)
{
	static const char *const names[] = { "PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "CPATH",
					     "LIBRARY_PATH", "PKG_CONFIG_PATH" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool names_itself(const char *name, const char *value)
{
	size_t n = strlen(name);
	for (const char *s = value; (s = strchr(s, '$')); s++) {
		const char *v = s + 1 + (s[1] == '{');
		if (!strncmp(v, name, n) && !(v[n] == '_' || (v[n] >= 'A' && v[n] <= 'Z') ||
					      (v[n] >= 'a' && v[n] <= 'z') || (v[n] >= '0' && v[n] <= '9')))
			return true;
	}
	return false;
}

/* JS4001 env-replaces-path */
static bool env_replaces_path(const struct spec *spec, struct diag_list *diags, yd_node key,
			      const char *name, const char *value)
{
	if (!path_like(name) || (strcmp(name, "PATH") && !names_itself(name, value)))
		return true;
	struct diag *d = spec_report_at(spec, diags, R_JS4001, key,
		"env.%s replaces %s with '%s' as written (env values never expand)%s",
		name, name, value, !strcmp(name, "PATH")
			? ": srun, hostname and torchrun are no longer found" : "");
	diag_set_help(d, "path_prepend: {%s: [DIR]} puts DIR before the old value", name);
	return false;
}

/* JS4002 env-overrides-generated */
static bool env_overrides_generated(const struct plan *p, const struct spec *spec,
				    struct diag_list *diags, yd_node key, const char *name,
				    const char *value)
{
	const struct plan_env_set *g = plan_env_generated(p, name);
	if (!g || (g->value && !strcmp(g->value, value)))
		return true;
	if (!strcmp(name, "NEURON_CC_FLAGS") && (plan_cc_flags_agree(p, value) || !cc_flags_lnc(value)))
		return true; /* both extend NEURON_CC_FLAGS; one carrying the LNC is written alone */
	struct diag *d;
	if (!g->value) {
		d = spec_report_at(spec, diags, R_JS4002, key,
			"env.%s is a variable the generated script sets itself (%s)", name, g->why);
		diag_set_help(d, "choose another name");
	} else if (!strcmp(name, "NEURON_CC_FLAGS")) {
		d = spec_report_at(spec, diags, R_JS4002, key,
			"env.NEURON_CC_FLAGS='%s' compiles for LNC %d, and the generated NEURON_CC_FLAGS (from %s) "
			"for %d, as the runtime runs it (NEURON_LOGICAL_NC_CONFIG=%d)",
			value, cc_flags_lnc(value), g->why, p->lnc, p->lnc);
		diag_set_help(d, "write %s in env.NEURON_CC_FLAGS, or leave the LNC out of it (gen adds it)", g->value);
	} else {
		d = spec_report_at(spec, diags, R_JS4002, key,
			"env.%s='%s' replaces the generated %s=%s (from %s)", name, value, name, g->value, g->why);
		diag_set_help(d, "drop env.%s, or change %s", name, g->why);
	}
	return false;
}

static bool check_env(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const yamldoc *d = spec->doc;
	yd_node env = yd_get(d, yd_root(d), "env");
	bool ok = true;
	for (size_t i = 0; yd_kind(d, env) == YD_MAPPING && i < yd_len(d, env); i++) {
		yd_node key = yd_key(d, env, i);
		const char *name = yd_str(d, key, NULL), *value = yd_str(d, yd_value(d, env, i), NULL);
		if (!name || !value)
			continue;
		ok &= env_replaces_path(spec, diags, key, name, value);
		ok &= env_overrides_generated(p, spec, diags, key, name, value);
	}
	return ok;
}

bool plan_run_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	bool ok = check_env(p, spec, diags);
	ok &= hydra_args_for_megatron(p, spec, diags);
	ok &= args_contradict_spec(p, spec, diags);
	zero_stage_not_generated(p, spec, diags);
	return ok;
}
