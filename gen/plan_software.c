/* JS30xx: the software a job spec says its nodes run (software:),
 * against the instance. The Neuron facts are core/facts/neuron's
 * (docs/versions.md, neuron-min-sdk). The OS windows need no check here:
 * a spec's cluster.os cannot be alinux2. A Neuron instance needs one of
 * software.neuron and cluster.ami: ParallelCluster's own AMIs carry no
 * Neuron SDK (docs/jobspec.md, "Software"). */
#include "plan.h"

#include <string.h>

#include "buf.h"

#include "neuron.h"
#include "neuron_pcluster.h"

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

bool plan_neuron_install(const struct plan *p, struct buf *url)
{
	const struct neuron_script_os *os = neuron_script_os(p->os);
	if (p->cl.route != ROUTE_SCRIPT || !os)
		return false;
	neuron_script_url(url, p->job->software->neuron, os->dir);
	return true;
}

/* JS3002 neuron-install-unavailable: no path at all for the OS (a path
 * the samples do not show is JS5001's). */
static bool neuron_install_unavailable(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	if (!p->neuron || !sw || !sw->neuron || sw->neuron_image || p->job->cluster->ami ||
	    neuron_script_os(p->os))
		return true;
	struct diag *d = spec_report(spec, diags, R_JS3002, "software.neuron",
		"Neuron's ParallelCluster install script has no %s version, so gen cannot install Neuron %s on the nodes",
		p->os, sw->neuron);
	diag_set_help(d, "build a ParallelCluster AMI from a Neuron DLAMI (software.neuron_image) and give it as cluster.ami");
	return false;
}

/* The release the help of JS3003 offers: the one docs/jobspec.md's
 * examples run, or the accelerator's first release when that is newer. */
#define NEURON_SUGGESTED "2.29.0"

/* JS3003 neuron-software-missing: not of a --compare candidate, which is
 * compared on layout, time and cost; where its SDK would come from is for
 * the spec that names its type. */
static bool neuron_software_missing(const struct plan *p, const struct spec *spec,
				    struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	if (!p->neuron || (sw && sw->neuron) || p->job->cluster->ami || spec->candidate)
		return true;
	const char *release = NEURON_SUGGESTED;
	struct neuron_first_release first;
	struct neuron_version suggested;
	char min[16];
	if (neuron_min_sdk(p->it->accel, &first) &&
	    neuron_version_parse(release, strlen(release), &suggested) &&
	    neuron_version_cmp(first.version, suggested) > 0)
		release = neuron_version_str(first.version, min, sizeof min);
	struct diag *d = spec_report(spec, diags, R_JS3003, "instance",
		"%s is a Neuron instance, but the spec gives neither software.neuron nor cluster.ami, "
		"so the nodes come up without the Neuron SDK",
		p->it->name);
	diag_set_help(d, "add `software: {neuron: \"%s\", neuron_image: {parent: ami-...}}` (gen writes the "
		      "pcluster build-image config that makes a ParallelCluster AMI from that release's Neuron DLAMI; "
		      "its result goes in cluster.ami), or give such an AMI as `cluster: {ami: ami-...}`",
		      release);
	return false;
}

bool plan_software_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	struct neuron_version sdk;
	if (!sw || !sw->neuron || !neuron_version_parse(sw->neuron, strlen(sw->neuron), &sdk))
		return neuron_software_missing(p, spec, diags); /* the schema checked the form */
	bool ok = spec_neuron_sdk_too_old(p, spec, diags, sdk);
	return neuron_install_unavailable(p, spec, diags) && ok;
}
