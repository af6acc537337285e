/* JS4007-JS4011: the spec's framework held to what the framework module
 * (core/facts/frameworks) knows of it: the instances and Neuron releases
 * that run it, the generation of its command line, the expert
 * parallelism it runs on Neuron, and the arguments it cannot start
 * without. Each refusal names the version it judged by and what does
 * run (docs/frameworks.md, "Where each runs"). */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"

static const char *fw_target_text(const struct plan *p, const struct spec *spec, struct target_text *t)
{
	*t = target_fw_describe(&spec->target, p->job->framework);
	return t->s;
}

static bool neuron_release(const struct plan *p, struct neuron_version *out)
{
	const struct spec_software *sw = p->job->software;
	return sw && sw->neuron && neuron_version_parse(sw->neuron, strlen(sw->neuron), out);
}

/* JS4007 framework-not-on-platform */
static void not_on_platform(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			    const char *why)
{
	char alt[512];
	fw_neuron_alternatives(p->it, alt, sizeof alt);
	struct diag *d = spec_report(spec, diags, R_JS4007, "framework", "framework: %s cannot run on %s (%s): %s",
				     fw_name(p->job->framework), p->it->name,
				     p->it->accel_model ? p->it->accel_model : "no accelerator", why);
	if (p->gpu)
		diag_set_help(d, "on NVIDIA GPUs use framework: megatron, torchtitan or plain");
	else
		diag_set_help(d, "on %s: %s; or framework: plain with the entry point's own flags", p->it->name, alt);
}

/* JS4008 framework-release-unsupported */
static void release_unsupported(const struct plan *p, const struct spec *spec, struct diag_list *diags,
				const char *why)
{
	char alt[512];
	fw_neuron_alternatives(p->it, alt, sizeof alt);
	struct diag *d = spec_report(spec, diags, R_JS4008, "software.neuron", "framework: %s on Neuron %s: %s",
				     fw_name(p->job->framework), p->job->software->neuron, why);
	diag_set_help(d, "on %s: %s", p->it->name, alt);
}

/* JS4009 framework-command-generation: a version the stack does not take */
static void version_not_taken(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			      const char *why)
{
	struct target_text t;
	struct diag *d = spec_report(spec, diags, R_JS4009, "framework", "framework: %s, %s, on %s: %s",
				     fw_name(p->job->framework), fw_target_text(p, spec, &t), p->it->name, why);
	diag_set_help(d, "target another version (--target %s=VERSION) whose command line it takes",
		      fw_name(p->job->framework));
}

/* Where the framework runs, by its module's platforms and releases. */
static bool framework_runs(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	enum framework f = p->job->framework;
	struct neuron_version sdk;
	bool have_sdk = neuron_release(p, &sdk);
	char why[512];
	enum fw_runs r = fw_runs_on(f, p->fw_version, p->it, have_sdk ? &sdk : NULL, why, sizeof why);
	switch (r) {
	case FW_RUNS:
		return true;
	case FW_RUNS_NOT_ON_PLATFORM:
	case FW_RUNS_NOT_ON_ACCEL:
		not_on_platform(p, spec, diags, why);
		break;
	case FW_RUNS_RELEASE_TOO_OLD:
	case FW_RUNS_RELEASE_TOO_NEW:
		release_unsupported(p, spec, diags, why);
		break;
	case FW_RUNS_NOT_THIS_VERSION:
		version_not_taken(p, spec, diags, why);
		break;
	}
	return false;
}

/* JS4009 framework-command-generation */
static bool command_generation(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	enum framework f = p->job->framework;
	const struct job_spec *j = p->job;
	size_t v = p->fw_version;
	for (unsigned i = 0; i < j->entry->args_count; i++) {
		const char *w = j->entry->args[i];
		if (strncmp(w, "--", 2))
			continue;
		const char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);
		if (!fw_known_covers(f, w, len) || fw_known_find(f, v, w, len))
			continue;
		for (size_t o = 0; o < fw_version_count(f); o++) {
			if (o == v || !fw_known_find(f, o, w, len))
				continue;
			struct target_text t;
			const struct fw_version *at = fw_version_at(f, v), *other = fw_version_at(f, o);
			const struct fw_version *newer = o > v ? other : at;
			yd_node args = spec_node(spec, "entry.args");
			yd_node node = yd_kind(spec->doc, args) == YD_SEQUENCE ? yd_item(spec->doc, args, i) : args;
			struct diag *d = spec_report_at(spec, diags, R_JS4009, node ? node : args,
				"entry.args gives %.*s, which %s defines and %s, does not%s%s",
				(int)len, w, other->title, fw_target_text(p, spec, &t),
				newer->changed ? ": " : "", newer->changed ? newer->changed : "");
			diag_set_help(d, "write %s's form, or target the other (--target %s=%s)", at->title,
				      fw_name(f), other->name);
			return false;
		}
	}
	return true;
}

/* The EP nearest ep that the framework runs on it and that divides the
 * experts; 1 when none. */
static long long nearest_ep(const struct plan *p, long long ep)
{
	char why[256];
	long long experts = p->job->model->experts;
	for (long long d = 1; d < ep; d++)
		for (int s = 0; s < 2; s++) {
			long long e = s ? ep + d : ep - d;
			if (e >= 2 && (!experts || experts % e == 0) && (p->dp * p->cp * p->tp) % e == 0 &&
			    fw_ep_runs_on(p->job->framework, p->it, e, why, sizeof why))
				return e;
		}
	return 1;
}

/* JS4010 expert-parallel-unsupported */
static bool expert_parallel(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	char why[512];
	if (fw_ep_runs_on(p->job->framework, p->it, p->ep, why, sizeof why))
		return true;
	long long near = nearest_ep(p, p->ep);
	struct diag *d = spec_report(spec, diags, R_JS4010, "parallel.expert",
		"EP %d on %s: %s", p->ep, p->it->name, why);
	if (near > 1)
		diag_set_help(d, "the nearest layout it runs: EP %lld (TP %d x PP %d x CP %d -> DP %d)", near, p->tp,
			      p->pp, p->cp, p->dp);
	else
		diag_set_help(d, "the nearest layout it runs: no expert parallelism (parallel.expert: 1; TP %d x PP %d x CP %d -> DP %d, the experts sharded with the rest)",
			      p->tp, p->pp, p->cp, p->dp);
	return false;
}

/* Whether the line has flag: entry.args gives it, or gen writes it. */
static bool line_has(const struct plan *p, const char *flag)
{
	if (plan_args_have(p, flag))
		return true;
	const struct fw_def *d = fw_def(p->job->framework);
	long long v[FK__COUNT];
	plan_knob_values(p, v);
	for (size_t i = 0; i < d->nflags; i++)
		if (!strcmp(d->flags[i].flag, flag) && fw_flag_at_version(&d->flags[i], p->fw_version) &&
		    fw_flag_written(&d->flags[i], v))
			return true;
	return false;
}

/* JS4011 mandatory-args-missing */
static bool mandatory_args(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct fw_def *d = fw_def(p->job->framework);
	struct buf missing = BUF_INIT, help = BUF_INIT;
	int n = 0;
	for (size_t i = 0; i < d->nneeds; i++) {
		const struct fw_need *need = &d->needs[i];
		if (!fw_in_version(need->versions, p->fw_version))
			continue;
		bool given = false;
		for (size_t k = 0; k < FW_NEED_FLAGS && need->flags[k] && !given; k++)
			given = line_has(p, need->flags[k]);
		if (given)
			continue;
		buf_printf(&missing, "%s%s (", n ? "; " : "", need->what);
		for (size_t k = 0; k < FW_NEED_FLAGS && need->flags[k]; k++)
			buf_printf(&missing, "%s%s", k ? " or " : "", need->flags[k]);
		buf_printf(&missing, ": %s)", need->why);
		if (need->spec)
			buf_printf(&help, "%s%s for %s", help.len ? "; " : "give ", need->spec, need->what);
		n++;
	}
	if (n) {
		struct target_text t;
		yd_node at = spec_node(spec, "entry.args");
		struct diag *dg = spec_report_at(spec, diags, R_JS4011, at,
			"%s, cannot start without %s%s, which gen does not write and entry.args does not give: %s",
			fw_target_text(p, spec, &t), n == 1 ? "this" : "these", n == 1 ? "" : " arguments",
			missing.p);
		diag_set_help(dg, "%s%sadd the others to entry.args", help.len ? help.p : "",
			      help.len ? " in the spec; " : "");
	}
	buf_free(&missing);
	buf_free(&help);
	return n == 0;
}

bool plan_framework_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	bool ok = framework_runs(p, spec, diags);
	ok &= command_generation(p, spec, diags);
	ok &= expert_parallel(p, spec, diags);
	ok &= mandatory_args(p, spec, diags);
	return ok;
}
