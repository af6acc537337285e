/* The dispatcher: each framework's definition by its enum, and what
 * reads any of them the same way (flags, versions, platforms, the
 * accounting every framework shares). The facts are in the framework
 * files beside it. */
#include "frameworks_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "text.h"

static const struct fw_def *const defs[FW__COUNT] = {
	[FW_PLAIN] = &fw_def_plain,
	[FW_MEGATRON] = &fw_def_megatron,
	[FW_NXD] = &fw_def_nxd,
	[FW_TORCHTITAN] = &fw_def_torchtitan,
};

const struct fw_def *fw_def(enum framework f) { return defs[f]; }
const char *fw_name(enum framework f) { return defs[f]->name; }

bool fw_from_name(const char *s, size_t len, enum framework *out)
{
	for (int f = 0; f < FW__COUNT; f++)
		if (strlen(defs[f]->name) == len && !memcmp(defs[f]->name, s, len)) {
			*out = f;
			return true;
		}
	return false;
}

/* ---- versions ------------------------------------------------------------- */

size_t fw_version_count(enum framework f) { return defs[f]->nversions; }

const struct fw_version *fw_version_at(enum framework f, size_t i)
{
	return i < defs[f]->nversions ? &defs[f]->versions[i] : NULL;
}

size_t fw_version_default(enum framework f) { return defs[f]->nversions - 1; }

static bool same(const char *a, const char *s, size_t len)
{
	return a && strlen(a) == len && !memcmp(a, s, len);
}

int fw_version_find(enum framework f, const char *s, size_t len)
{
	for (size_t i = 0; i < defs[f]->nversions; i++)
		if (same(defs[f]->versions[i].name, s, len) || same(defs[f]->versions[i].alias, s, len))
			return (int)i;
	return -1;
}

bool fw_in_version(unsigned versions, size_t v)
{
	return versions == FW_ALL_VERSIONS || (v < 32 && (versions & FW_V(v)));
}

/* ---- flags ---------------------------------------------------------------- */

static const struct fw_flag *find(enum framework f, enum fw_knob k, bool read_only)
{
	for (size_t i = 0; i < defs[f]->nflags; i++)
		if (defs[f]->flags[i].knob == k && (defs[f]->flags[i].read || !read_only))
			return &defs[f]->flags[i];
	return NULL;
}

const struct fw_flag *fw_flag(enum framework f, enum fw_knob k) { return find(f, k, false); }
const struct fw_flag *fw_read_flag(enum framework f, enum fw_knob k) { return find(f, k, true); }

bool fw_flag_written(const struct fw_flag *f, const long long value[FK__COUNT])
{
	long long gate = value[f->gate != FK_NONE ? f->gate : f->knob];
	switch (f->when) {
	case FW_ALWAYS: return true;
	case FW_ABOVE_ONE: return gate > 1;
	case FW_GIVEN: return gate != 0;
	case FW_NEVER: return false;
	case FW_IS: return gate == f->is;
	case FW_AT_LEAST: return gate >= f->is;
	case FW_AGAINST: return false;
	}
	return false;
}

bool fw_flag_at_version(const struct fw_flag *f, size_t v)
{
	return fw_in_version(f->versions, v);
}

const struct fw_checkpoint *fw_checkpoint(enum framework f, size_t v)
{
	for (size_t i = 0; i < defs[f]->ncheckpoints; i++)
		if (fw_in_version(defs[f]->checkpoints[i].versions, v))
			return &defs[f]->checkpoints[i];
	return NULL;
}

/* ---- the flags a version defines ------------------------------------------ */

static bool dash_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++) {
		char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
		if (x != y)
			return false;
	}
	return true;
}

const struct fw_known_flag *fw_known_find(enum framework f, size_t v, const char *name, size_t len)
{
	const struct fw_def *d = defs[f];
	if (!d->known)
		return NULL;
	const struct fw_known_flag *t = d->known->flags;
	if (d->known_any_dash) {
		for (size_t i = 0; i < d->known->n; i++)
			if (fw_in_version(t[i].versions, v) && dash_eq(name, len, t[i].name, t[i].len))
				return &t[i];
		/* tyro's negation of a switch: --section.no_field */
		const char *dot = memchr(name, '.', len);
		const char *field = dot ? dot + 1 : name + 2;
		size_t at = (size_t)(field - name);
		if (len > at + 3 && field[0] == 'n' && field[1] == 'o' && (field[2] == '_' || field[2] == '-')) {
			char buf[128];
			if (len - 3 >= sizeof buf)
				return NULL;
			memcpy(buf, name, at);
			memcpy(buf + at, field + 3, len - at - 3);
			for (size_t i = 0; i < d->known->n; i++)
				if (t[i].is_switch && fw_in_version(t[i].versions, v) &&
				    dash_eq(buf, len - 3, t[i].name, t[i].len))
					return &t[i];
		}
		return NULL;
	}
	/* sorted by name: a binary search, for Megatron's 877 */
	size_t lo = 0, hi = d->known->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fw_known_flag *k = &t[mid];
		int c = strncmp(name, k->name, len);
		if (!c && k->name[len] == '\0')
			return fw_in_version(k->versions, v) ? k : NULL;
		if (c < 0 || (!c && k->name[len] != '\0'))
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool fw_known_covers(enum framework f, const char *name, size_t len)
{
	const struct fw_def *d = defs[f];
	if (!d->known)
		return false;
	if (!d->known_prefixes)
		return true;
	for (const char *const *p = d->known_prefixes; *p; p++) {
		size_t n = strlen(*p);
		if (len >= n && dash_eq(name, n, *p, n))
			return true;
	}
	return false;
}

const struct fw_known_flag *fw_known_near(enum framework f, size_t v, const char *name)
{
	const struct fw_def *d = defs[f];
	size_t len = strlen(name), limit = len >= 16 ? 2 : 1;
	const struct fw_known_flag *near = NULL;
	size_t best = limit + 1;
	bool tie = false;
	for (size_t i = 0; d->known && i < d->known->n; i++) {
		const struct fw_known_flag *k = &d->known->flags[i];
		/* the length is kept by a '_' for '-', and bounds the distance */
		if (!fw_in_version(k->versions, v) || (k->len > len ? k->len - len : len - k->len) > limit)
			continue;
		if (dash_eq(name, len, k->name, k->len))
			return k;
		size_t dist = text_edit_distance(name, len, k->name, k->len, limit);
		if (dist < best) {
			best = dist;
			near = k;
			tie = false;
		} else if (dist == best) {
			tie = true;
		}
	}
	return tie ? NULL : near;
}

/* ---- platforms ------------------------------------------------------------ */

static unsigned accel_bit(enum accel_kind a) { return 1u << a; }

static bool neuron_accel(enum accel_kind a)
{
	return a == ACCEL_TRAINIUM || a == ACCEL_TRAINIUM2 || a == ACCEL_TRAINIUM3 ||
	       a == ACCEL_INFERENTIA2;
}

/* "trn2, trn3" for a set of accelerators. */
static void accel_names(unsigned set, char *buf, size_t cap)
{
	static const struct { enum accel_kind a; const char *name; } names[] = {
		{ ACCEL_TRAINIUM, "trn1" }, { ACCEL_TRAINIUM2, "trn2" },
		{ ACCEL_TRAINIUM3, "trn3" }, { ACCEL_INFERENTIA2, "inf2" },
	};
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (set & accel_bit(names[i].a))
			n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, "%s%s",
					      n ? ", " : "", names[i].name);
}

enum fw_runs fw_runs_on(enum framework f, size_t v, const struct instance_type *it,
			const struct neuron_version *sdk, char *why, size_t cap)
{
	const struct fw_def *d = defs[f];
	const struct fw_platforms *pl = &d->platforms;
	char s[16], t[64];
	why[0] = '\0';
	if (it->accel == ACCEL_NVIDIA_GPU) {
		if (pl->on & FW_ON_CUDA)
			return FW_RUNS;
		snprintf(why, cap, "%s runs on Neuron only, not on NVIDIA GPUs", d->title);
		return FW_RUNS_NOT_ON_PLATFORM;
	}
	if (!neuron_accel(it->accel))
		return FW_RUNS; /* no accelerator the tables know: nothing to say */
	if (!(pl->on & FW_ON_NEURON)) {
		snprintf(why, cap, "%s", pl->cuda_only_why);
		return FW_RUNS_NOT_ON_PLATFORM;
	}
	if (pl->neuron_accels && !(pl->neuron_accels & accel_bit(it->accel))) {
		accel_names(pl->neuron_accels, t, sizeof t);
		snprintf(why, cap, "%s on Neuron runs on %s only (%s)", d->title, t, pl->neuron_first_why);
		return FW_RUNS_NOT_ON_ACCEL;
	}
	if (!fw_in_version(pl->neuron_versions, v)) {
		snprintf(why, cap, "%s", pl->neuron_versions_why);
		return FW_RUNS_NOT_THIS_VERSION;
	}
	if (sdk && pl->neuron_first.major && neuron_version_cmp(*sdk, pl->neuron_first) < 0) {
		snprintf(why, cap, "%s on Neuron needs release %s or later (%s)", d->title,
			 neuron_version_str(pl->neuron_first, s, sizeof s), pl->neuron_first_why);
		return FW_RUNS_RELEASE_TOO_OLD;
	}
	if (sdk && pl->neuron_last.major && neuron_version_cmp(*sdk, pl->neuron_last) > 0) {
		snprintf(why, cap, "%s training is supported up to Neuron %s (%s)", d->title,
			 neuron_version_str(pl->neuron_last, s, sizeof s), pl->neuron_last_why);
		return FW_RUNS_RELEASE_TOO_NEW;
	}
	return FW_RUNS;
}

bool fw_ep_runs_on(enum framework f, const struct instance_type *it, long long ep, char *why, size_t cap)
{
	const struct fw_platforms *pl = &defs[f]->platforms;
	char t[64];
	why[0] = '\0';
	if (ep <= 1 || !neuron_accel(it->accel))
		return true;
	if (pl->neuron_ep_accels && !(pl->neuron_ep_accels & accel_bit(it->accel))) {
		accel_names(pl->neuron_ep_accels, t, sizeof t);
		snprintf(why, cap, "%s's expert parallelism on Neuron runs on %s only (%s)",
			 defs[f]->title, t, pl->neuron_ep_why);
		return false;
	}
	if (pl->neuron_ep_multiple > 1 && ep % pl->neuron_ep_multiple) {
		snprintf(why, cap, "%s's expert parallelism on Neuron takes EP in multiples of %d (%s)",
			 defs[f]->title, pl->neuron_ep_multiple, pl->neuron_ep_why);
		return false;
	}
	return true;
}

void fw_neuron_alternatives(const struct instance_type *it, char *buf, size_t cap)
{
	size_t n = 0;
	char s[16], l[16];
	buf[0] = '\0';
	for (int f = 0; f < FW__COUNT; f++) {
		const struct fw_platforms *pl = &defs[f]->platforms;
		if (!(pl->on & FW_ON_NEURON) ||
		    (pl->neuron_accels && !(pl->neuron_accels & accel_bit(it->accel))))
			continue;
		char when[64] = "";
		if (pl->neuron_first.major && pl->neuron_last.major)
			snprintf(when, sizeof when, " on Neuron %s to %s",
				 neuron_version_str(pl->neuron_first, s, sizeof s),
				 neuron_version_str(pl->neuron_last, l, sizeof l));
		else if (pl->neuron_first.major)
			snprintf(when, sizeof when, " on Neuron %s or later",
				 neuron_version_str(pl->neuron_first, s, sizeof s));
		else if (pl->neuron_last.major)
			snprintf(when, sizeof when, " on Neuron up to %s",
				 neuron_version_str(pl->neuron_last, l, sizeof l));
		n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, "%sframework: %s%s",
				      n ? "; " : "", defs[f]->name, when);
	}
}

/* ---- accounting ----------------------------------------------------------- */

bool fw_count_params(enum framework f, const struct fw_shape *s, struct fw_params *out)
{
	if (!defs[f]->count || s->layers <= 0 || s->hidden <= 0 || s->heads <= 0)
		return false;
	return defs[f]->count(s, out);
}

bool fw_flops_per_token(enum framework f, const struct fw_shape *s, const struct fw_params *p,
			struct fw_flops *out)
{
	if (s->layers <= 0 || s->hidden <= 0 || s->heads <= 0 || s->seq <= 0)
		return false;
	defs[f]->flops(s, p, out);
	return true;
}

void fw_state_bytes(enum framework f, int zero_stage, struct fw_bytes *out)
{
	memset(out, 0, sizeof *out);
	defs[f]->bytes(zero_stage < 0 ? 0 : zero_stage > 3 ? 3 : zero_stage, out);
}

double fw_checkpoint_bytes_per_param(enum framework f, int zero_stage)
{
	struct fw_bytes b;
	fw_state_bytes(f, zero_stage, &b);
	return b.weights + b.optim;
}

/* The signals a training job is sent, by their numbers on Linux
 * (signal(7)): the ones Slurm's --signal, kill and Python name. */
static const struct {
	int sig;
	const char *name;
} signals[] = {
	{ 1, "SIGHUP" }, { 2, "SIGINT" }, { 3, "SIGQUIT" }, { 9, "SIGKILL" }, { 10, "SIGUSR1" },
	{ 12, "SIGUSR2" }, { 14, "SIGALRM" }, { 15, "SIGTERM" }, { 18, "SIGCONT" }, { 19, "SIGSTOP" },
	{ 20, "SIGTSTP" }, { 23, "SIGURG" }, { 24, "SIGXCPU" },
};

int fw_signal_number(const char *s, size_t len)
{
	if (len > 0 && len < 4 && s[0] >= '1' && s[0] <= '9') {
		int n = 0;
		for (size_t i = 0; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				return 0;
			n = n * 10 + (s[i] - '0');
		}
		return n < 65 ? n : 0;
	}
	if (len > 3 && !strncasecmp(s, "SIG", 3))
		s += 3, len -= 3;
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		if (strlen(signals[i].name + 3) == len && !strncasecmp(signals[i].name + 3, s, len))
			return signals[i].sig;
	return 0;
}

const char *fw_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	return NULL;
}

double fw_bytes_per_param(const struct fw_bytes *b, double dp)
{
	double d = dp >= 1 ? dp : 1;
	return b->weights / (b->weights_sharded ? d : 1) + b->grads / (b->grads_sharded ? d : 1) +
	       b->optim / (b->optim_sharded ? d : 1);
}

long long fw_ffn_size(const struct fw_shape *s)
{
	if (s->ffn > 0)
		return s->ffn;
	if (s->hidden <= 0)
		return 0;
	return s->gated ? (4 * s->hidden * 2 / 3) / 64 * 64 : 4 * s->hidden;
}

void fw_params_sum(const struct fw_shape *s, const struct fw_layer *layer, double final_norm,
		   double padded_vocab, struct fw_params *out)
{
	double h = (double)s->hidden, L = (double)s->layers;
	memset(out, 0, sizeof *out);
	out->padded_vocab = padded_vocab;
	out->output = s->untied ? h * padded_vocab : 0;
	out->embedding = h * padded_vocab + out->output;
	out->dense_layers = L * layer->dense + final_norm;
	out->replicated = L * layer->replicated + final_norm;
	out->expert_layers = L * layer->experts;
	out->total = out->dense_layers + out->expert_layers + out->embedding;
	out->active = out->dense_layers + L * layer->active_experts + out->embedding;
}

bool fw_count_decoder(const struct fw_shape *s, struct fw_params *out)
{
	double h = s->hidden, a = s->heads, g = s->groups > 0 ? s->groups : s->heads;
	double d = h / a, f = (double)fw_ffn_size(s), mats = s->gated ? 3 : 2;
	double ef = s->expert_ffn > 0 ? s->expert_ffn : f, E = s->experts > 1 ? s->experts : 0;
	double k = s->topk > 0 ? s->topk : 1, V = s->vocab > 0 ? s->vocab : 0;

	double attention = h * a * d + 2 * h * g * d + a * d * h;
	double norms = 2 * h;
	double router = E ? h * E : 0;
	double mlp = E ? 0 : mats * h * f;
	double experts = E ? E * mats * h * ef : 0;
	struct fw_layer layer = {
		.dense = attention + norms + router + mlp, .replicated = norms + router,
		.experts = experts, .active_experts = E ? experts / E * k : 0,
	};
	fw_params_sum(s, &layer, h, V, out);
	out->accounting = "a Llama-style decoder as Hugging Face's modeling code builds it (RMSNorm, no biases)";
	out->source = "huggingface/transformers src/transformers/models/llama/modeling_llama.py <https://github.com/huggingface/transformers/blob/main/src/transformers/models/llama/modeling_llama.py>";
	return true;
}

void fw_flops_palm(const struct fw_shape *s, const struct fw_params *p, struct fw_flops *out)
{
	/* the input embedding is a lookup, not a multiply; a tied output
	 * layer multiplies with the same weights */
	double input = p->embedding - p->output;
	double tied_output = s->untied ? 0 : input;
	out->dense = 6 * (p->active - input + tied_output);
	out->attention = 12.0 * s->layers * s->hidden * s->seq;
	out->per_token = out->dense + out->attention;
	out->convention = "6 N + 12 L h s (PaLM, Chowdhery et al. 2022, appendix B; torchtitan's get_nparams_and_flops) <https://arxiv.org/abs/2204.02311>";
}

void fw_bytes_zero_paper(int zero_stage, struct fw_bytes *out)
{
	*out = (struct fw_bytes){
		.weights = 2, .grads = 2, .optim = 12,
		.optim_sharded = zero_stage >= 1, .grads_sharded = zero_stage >= 2,
		.weights_sharded = zero_stage >= 3,
		.how = "16-bit weights and gradients, fp32 master weights and Adam moments, divided over DP by the ZeRO stage",
		.source = "Rajbhandari et al. 2020, ZeRO, section 5 <https://arxiv.org/abs/1910.02054>",
	};
}

void fw_rank_state(enum framework f, const struct fw_shape *s, const struct fw_params *p,
		   const struct fw_layout *l, int zero_stage, struct fw_rank_state *out)
{
	const struct fw_def *d = defs[f];
	double tp = l->tp > 0 ? l->tp : 1, pp = l->pp > 0 ? l->pp : 1, cp = l->cp > 0 ? l->cp : 1;
	double ep = l->ep > 0 ? l->ep : 1, dp = l->dp > 0 ? l->dp : 1;
	struct fw_bytes b;

	memset(out, 0, sizeof *out);
	fw_state_bytes(f, zero_stage, &b);
	/* the first stage: its share of the layers and the input embedding;
	 * the output layer too when there is one stage (Megatron's "most
	 * loaded shard") */
	double input = p->embedding - p->output;
	double split = p->dense_layers - p->replicated;
	double dense = (split / pp + input + (pp == 1 ? p->output : 0)) / tp + p->replicated / pp;
	double expert = p->expert_layers / pp / tp / (s->experts > 1 ? ep : 1);
	if (d->fully_sharded) {
		/* FSDP shards the dense slice over DP x CP, and the experts
		 * (EP ranks apart, no TP) over what is left of DP x CP x TP */
		out->dense = dense;
		out->expert = s->experts > 1 ? p->expert_layers / pp / ep : 0;
		out->dense_dp = dp * cp;
		double efsdp = dp * cp * tp / ep;
		out->expert_dp = efsdp >= 1 ? efsdp : 1;
	} else {
		out->dense = dense;
		out->expert = expert;
		out->dense_dp = dp;
		double edp = l->world > 0 ? (double)l->world / (tp * ep * pp) : dp * cp / ep;
		out->expert_dp = edp >= 1 ? edp : 1;
	}
	double dd = out->dense_dp, xd = out->expert_dp;
	out->weights = b.weights * (out->dense / (b.weights_sharded ? dd : 1) + out->expert / (b.weights_sharded ? xd : 1));
	out->grads = b.grads * (out->dense / (b.grads_sharded ? dd : 1) + out->expert / (b.grads_sharded ? xd : 1));
	out->optim = b.optim * (out->dense / (b.optim_sharded ? dd : 1) + out->expert / (b.optim_sharded ? xd : 1));
	out->bytes = out->weights + out->grads + out->optim;
}
