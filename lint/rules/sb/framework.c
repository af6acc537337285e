/* SB2401-SB2403: a launch line held to what the framework module
 * (core/facts/frameworks) knows of the framework it starts, at the
 * target's version: a flag that version does not define, a shape flag
 * left to a default that contradicts the others, a framework on a
 * platform that does not run it. Each finding names the version it
 * judged by (the pinned default unless the user targets another). */
#include <stdio.h>
#include <string.h>

#include "frameworks.h"
#include "pyargs.h"
#include "sb.h"

/* The framework an entry point is, by its path: NxD's Llama script by
 * its name, torchtitan and Megatron-LM by theirs; else the framework
 * whose TP or PP flag the line passes. */
static bool entry_framework(const sb_part *p, const char *entry, enum framework *out)
{
	const char *base = strrchr(entry, '/');
	base = base ? base + 1 : entry;
	if (!strcmp(base, "run_llama_nxd.py")) {
		*out = FW_NXD;
		return true;
	}
	if (strstr(entry, "torchtitan")) {
		*out = FW_TORCHTITAN;
		return true;
	}
	/* Megatron-DeepSpeed and NeMo take other command lines */
	bool deepspeed = sb_flag_find(p, "deepspeed") || sb_flag_find(p, "deepspeed-config");
	if ((!strncmp(base, "pretrain_", 9) || strstr(entry, "Megatron-LM") || strstr(entry, "megatron")) &&
	    !strstr(entry, "nemo") && !strstr(entry, "NeMo") && !deepspeed) {
		*out = FW_MEGATRON;
		return true;
	}
	for (size_t i = 0; i < sb_part_flag_count(p); i++) {
		const char *w = sb_part_flag(p, i)->written;
		if (w && !strncmp(w, "--parallelism.", 14)) {
			*out = FW_TORCHTITAN;
			return true;
		}
	}
	return false;
}

/* A flag a line passes, as written, when it is one to judge: a literal
 * long flag (not an expansion, not "--"). */
static const char *literal_flag(const struct sb_flag *fl)
{
	if (!fl->written || strncmp(fl->written, "--", 2) || !fl->written[2] ||
	    (sb_word_flags(fl->word) & SB_W_EXPANSION))
		return NULL;
	return fl->written;
}

/* The version of f a finding judged by, and how to judge by another. */
static void version_help(const struct sbc *c, enum framework f, struct diag *g, const char *other)
{
	if (other)
		diag_set_help(g, "%s defines it: target it (--target %s=%s, or target: {%s: \"%s\"} in .trainforge.yaml), or drop the flag",
			      other, fw_name(f), other, fw_name(f), other);
	else if (!target_fw_named(c->target, f))
		diag_set_help(g, "a later %s may define it: target that version (--target %s=VERSION), or drop the flag",
			      fw_def(f)->title, fw_name(f));
	else
		diag_set_help(g, "drop the flag, or target the version that defines it");
}

/* SB2401 flag-not-in-framework-version */
static void flag_not_in_version(struct sbc *c, const sb_part *p, enum framework f)
{
	size_t v = target_fw_version(c->target, f);
	struct target_text t = target_fw_describe(c->target, f);
	const struct fw_def *d = fw_def(f);
	for (size_t i = 0; i < sb_part_flag_count(p); i++) {
		const struct sb_flag *fl = sb_part_flag(p, i);
		const char *w = literal_flag(fl);
		if (!w)
			continue;
		size_t len = strlen(w);
		const char *eq = memchr(w, '=', len);
		if (eq)
			len = (size_t)(eq - w);
		if (!fw_known_covers(f, w, len) || fw_known_find(f, v, w, len))
			continue;
		/* Megatron's near misses are SB2301's: a misspelling, not a version */
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)len, w);
		if (f == FW_MEGATRON && fw_known_near(f, v, name))
			continue;
		const char *other = NULL;
		for (size_t o = 0; o < fw_version_count(f) && !other; o++)
			if (o != v && fw_known_find(f, o, w, len))
				other = fw_version_at(f, o)->name;
		struct diag *g = sbc_report(c, R_SB2401, sb_word_span(fl->word),
			"%s, does not define %s: %s", t.s, name,
			d->known_ignores_unknown ? "its parser drops it without a word (parse_known_args), so it does nothing"
						 : "its parser stops the program at start-up on every node");
		version_help(c, f, g, other);
	}
}

static const struct sb_flag *flag_in(const sb_part *p, const char *flag)
{
	size_t n = strlen(flag);
	for (size_t i = 0; i < sb_part_flag_count(p); i++) {
		const struct sb_flag *fl = sb_part_flag(p, i);
		if (fl->written && !strncmp(fl->written, flag, n) && (fl->written[n] == '\0' || fl->written[n] == '='))
			return fl;
	}
	return NULL;
}

/* SB2402 shape-default-contradicts: Megatron-LM's defaults that make
 * another model than the other flags describe (its defaults table). */
static void shape_defaults(struct sbc *c, const sb_part *p)
{
	struct target_text t = target_fw_describe(c->target, FW_MEGATRON);
	const struct sb_flag *swiglu = flag_in(p, "--swiglu"), *experts = flag_in(p, "--num-experts");
	/* a dense FFN is built unless every layer is an expert layer with
	 * its own size (--moe-layer-freq leaves dense layers between) */
	bool dense = !experts || !flag_in(p, "--moe-ffn-hidden-size") || flag_in(p, "--moe-layer-freq");
	if (swiglu && dense && !flag_in(p, "--ffn-hidden-size")) {
		struct diag *g = sbc_report(c, R_SB2402, sb_word_span(swiglu->word),
			"--swiglu without --ffn-hidden-size: %s, sizes the FFN 8/3 x --hidden-size rounded down to 64 (its 4 x hidden default, scaled to three matrices), which is no published model's size",
			t.s);
		diag_set_help(g, "pass --ffn-hidden-size with the model's FFN size (Llama 3 8B: 14336)");
	}
	bool topk = flag_in(p, "--moe-router-topk") != NULL, ffn = flag_in(p, "--moe-ffn-hidden-size") != NULL;
	if (!experts || (topk && ffn))
		return;
	struct diag *g = sbc_report(c, R_SB2402, sb_word_span(experts->word),
		"--num-experts without %s%s%s: %s, %s%s%s", topk ? "" : "--moe-router-topk", topk || ffn ? "" : " or ",
		ffn ? "" : "--moe-ffn-hidden-size", t.s,
		topk ? "" : "routes every token to 2 experts (its default), which doubles the active parameters of a top-1 model",
		topk || ffn ? "" : ", and ",
		ffn ? "" : "makes every expert as large as the dense FFN (--ffn-hidden-size, 4 x hidden by default)");
	diag_set_help(g, "pass %s%s%s", topk ? "" : "--moe-router-topk with the experts per token",
		      topk || ffn ? "" : " and ", ffn ? "" : "--moe-ffn-hidden-size with one expert's FFN size");
}

/* SB2403 framework-not-on-platform */
static void not_on_platform(struct sbc *c, const sb_part *p, enum framework f)
{
	if (c->family == FAMILY_UNKNOWN)
		return;
	/* the instance, else one of its family (only the family is known) */
	const struct instance_type *it = c->it;
	struct instance_type probe = { 0 };
	if (!it) {
		enum accel_kind a = ACCEL_NONE;
		char where[64];
		if (c->family == FAMILY_GPU)
			a = ACCEL_NVIDIA_GPU;
		else if (!sbc_neuron_accel(c, &a, where, sizeof where))
			a = ACCEL_NONE;
		if (a == ACCEL_NONE && c->family == FAMILY_NEURON) {
			/* Neuron, generation unknown: only what runs on no Neuron */
			if (fw_def(f)->platforms.on & FW_ON_NEURON)
				return;
			a = ACCEL_TRAINIUM;
		}
		probe.accel = a;
		probe.name = c->family == FAMILY_GPU ? "an NVIDIA GPU instance" : "a Neuron instance";
		it = &probe;
	}
	char why[512];
	size_t v = target_fw_version(c->target, f);
	enum fw_runs r = fw_runs_on(f, v, it, NULL, why, sizeof why);
	if (r == FW_RUNS)
		return;
	struct target_text t = target_fw_describe(c->target, f);
	struct diag *g = sbc_report(c, R_SB2403, sb_word_span(sb_part_entry(p)),
		"%s, on %s: %s", t.s, it->name, why);
	if (it->accel == ACCEL_NVIDIA_GPU) {
		diag_set_help(g, "on NVIDIA GPUs run Megatron-LM or torchtitan");
	} else {
		char alt[512];
		fw_neuron_alternatives(it, alt, sizeof alt);
		diag_set_help(g, "what runs there: %s (docs/frameworks.md, \"Where each runs\")", alt);
	}
}

void sbc_check_framework(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_part_count(cmd); k++) {
			const sb_part *p = sb_cmd_part(cmd, k);
			const sb_word *ew = sb_part_kind(p) == SB_PROG_PYTHON ? sb_part_entry(p) : NULL;
			const char *entry = ew ? sb_word_value(ew) : NULL;
			enum framework f;
			if (!entry || !entry_framework(p, entry, &f))
				continue;
			/* a program lint reads itself has its own flags checked (SB2301) */
			const char *path = NULL;
			const struct py_args *a = c->programs && c->programs->find
				? c->programs->find(c->programs->ctx, entry, &path) : NULL;
			if (!a || (!a->parser && !a->n))
				flag_not_in_version(c, p, f);
			if (f == FW_MEGATRON)
				shape_defaults(c, p);
			not_on_platform(c, p, f);
		}
	}
}
