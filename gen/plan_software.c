/* JS30xx: the software a job spec says its nodes run (software:),
 * against the instance. The Neuron facts are core/facts/neuron's
 * (docs/versions.md, neuron-min-sdk). The OS windows need no check here:
 * a spec's cluster.os cannot be alinux2. */
#include "plan.h"

#include <string.h>

#include "neuron.h"

/* JS3001 spec-neuron-sdk-too-old */
static bool spec_neuron_sdk_too_old(const struct plan *p, const struct spec *spec,
				    struct diag_list *diags, struct neuron_version sdk)
{
	struct neuron_first_release first;
	char v[16], min[16];
	if (!neuron_min_sdk(p->it->accel, &first) || neuron_version_cmp(sdk, first.version) >= 0)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS3001, "software.neuron",
		"Neuron %s is older than %s, the first release for %s (%s)",
		neuron_version_str(sdk, v, sizeof v), neuron_version_str(first.version, min, sizeof min),
		first.accel, p->it->name);
	diag_set_help(d, "use \"%s\" or later", min);
	return false;
}

bool plan_software_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	struct neuron_version sdk;
	if (!sw || !sw->neuron || !neuron_version_parse(sw->neuron, strlen(sw->neuron), &sdk))
		return true; /* the schema checked its form */
	return spec_neuron_sdk_too_old(p, spec, diags, sdk);
}
