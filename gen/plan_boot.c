/* JS500x: how the Neuron SDK reaches the compute nodes, as AWS and Neuron
 * document it (docs/jobspec.md, "Neuron on ParallelCluster"; the facts
 * are core/facts/neuron_pcluster's). Three routes:
 *
 * - cluster.ami: a ParallelCluster AMI that carries the SDK, on the
 *   Neuron queues only (ROUTE_AMI);
 * - software.neuron_image without cluster.ami: gen writes the
 *   pcluster build-image config that makes one from a Neuron DLAMI, and
 *   the cluster config waits for its result (ROUTE_PENDING);
 * - software.neuron alone: Neuron's install script at every boot of
 *   every compute node (ROUTE_SCRIPT), where a sample shows the path,
 *   or where the spec confirms the extrapolation.
 *
 * The head node gets none of it: it has no Neuron device, and gen's
 * jobs compile on the compute nodes. */
#include "plan.h"

#include <string.h>

#include "buf.h"
#include "neuron_pcluster.h"
#include "pcluster_nodes.h"

/* JS5001 neuron-script-undocumented */
static bool neuron_script_undocumented(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags, const struct neuron_script_os *os)
{
	const struct spec_software *sw = p->job->software;
	struct buf url = BUF_INIT;
	neuron_script_url(&url, sw->neuron, os->dir);
	struct diag *d = spec_report(spec, diags, R_JS5001, "software.neuron",
		"Neuron's ParallelCluster samples show the install script for al2 and u20 only; %s (%s) would "
		"run %s, a path that follows their pattern but that nothing documents: if the object is not "
		"there, every node's bootstrap fails and the cluster rolls back",
		os->os, os->dir, url.p);
	diag_set_help(d, "build a ParallelCluster AMI from the Neuron DLAMI of %s (software.neuron_image: "
		      "{parent: ami-...}) and give it as cluster.ami, or confirm the path with "
		      "software.neuron_script: extrapolated", sw->neuron);
	buf_free(&url);
	return false;
}

/* JS5002 neuron-script-extrapolated */
static void neuron_script_extrapolated(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags, const struct neuron_script_os *os)
{
	struct buf url = BUF_INIT;
	neuron_script_url(&url, p->job->software->neuron, os->dir);
	struct diag *d = spec_report(spec, diags, R_JS5002, "software.neuron_script",
		"confirmed: the nodes run %s, which no Neuron sample shows for %s", url.p, os->os);
	diag_set_help(d, "check it exists before creating the cluster: aws s3 ls %s (gen's next steps print it)",
		      url.p);
	buf_free(&url);
}

/* The spot nodes of a mixed fleet, or every node of a spot spec: nodes
 * that are rebuilt at every reclaim. */
static int spot_nodes(const struct plan *p)
{
	if (p->fleet.mixed)
		return p->fleet.spot;
	return p->job->capacity->type == CAP_SPOT ? p->nodes : 0;
}

/* JS5003 neuron-image-recommended: above the largest queue Neuron's own
 * sample runs its script on, and on spot nodes, which install again
 * after every reclaim. */
static void neuron_image_recommended(const struct plan *p, const struct spec *spec,
				     struct diag_list *diags)
{
	int spot = spot_nodes(p);
	if (p->nodes <= NEURON_SCRIPT_SAMPLE_NODES && !spot)
		return;
	struct diag *d = spec_report(spec, diags, R_JS5003, "software.neuron",
		"%d nodes%s install Neuron %s at every boot: every scale-up repeats the install on every node "
		"(ParallelCluster replaces a node whose bootstrap takes more than %d s), and Neuron's sample "
		"runs this route on %d nodes at most",
		p->nodes, spot ? ", spot nodes among them," : "", p->job->software->neuron,
		PCLUSTER_BOOTSTRAP_TIMEOUT_S, NEURON_SCRIPT_SAMPLE_NODES);
	diag_set_help(d, "build the SDK into an AMI once: software.neuron_image: {parent: ami-...} (the "
		      "Neuron DLAMI of %s) writes its pcluster build-image config; give the result as cluster.ami",
		      p->job->software->neuron);
}

/* JS5004 neuron-root-volume-small */
static bool neuron_root_volume_small(const struct plan *p, const struct spec *spec,
				     struct diag_list *diags)
{
	int given = p->job->cluster->root_volume_gib;
	if (!p->neuron || !given || given >= NEURON_ROOT_VOLUME_MIN_GIB)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS5004, "cluster.root_volume_gib",
		"a root volume of %d GiB on %s: Neuron's setup guides ask for at least %d GiB on Trainium "
		"(the compiler's work and the SDK live there)", given, p->it->name, NEURON_ROOT_VOLUME_MIN_GIB);
	diag_set_help(d, "set it to %d or more, or leave it out (gen then writes %d)",
		      NEURON_ROOT_VOLUME_MIN_GIB, NEURON_ROOT_VOLUME_MIN_GIB);
	return false;
}

/* JS5005 neuron-script-without-venv: the sample script makes its
 * PyTorch virtualenv on the head node only (its HeadNode branch), which
 * gen does not run it on. */
static bool neuron_script_without_venv(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	if (sw->python || sw->container)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS5005, "software.neuron",
		"Neuron's install script gives the compute nodes the driver, runtime and tools, but makes its "
		"PyTorch virtualenv on the head node only, which has no Neuron device and which gen does not "
		"install Neuron on: the workers would have no torch-neuronx");
	diag_set_help(d, "give software.python.venv, a virtualenv with the framework on the shared storage, "
		      "or build the SDK into an AMI (software.neuron_image), whose DLAMI brings its virtualenvs");
	return false;
}

/* JS5006 neuron-image-pending */
static void neuron_image_pending(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct diag *d = spec_report(spec, diags, R_JS5006, "software.neuron_image",
		"the compute nodes' AMI is built from %s first: gen writes %s-image.yaml and the batch script, "
		"and the cluster config once cluster.ami names the result",
		p->job->software->neuron_image->parent, p->job->name);
	diag_set_help(d, "run the pcluster build-image step gen prints, then set cluster.ami to the AMI it made "
		      "and run trainforge gen again");
}

static bool script_route(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	const struct neuron_script_os *os = neuron_script_os(p->os);
	if (!os)
		return true; /* JS3002 */
	if (os->doc == NEURON_SCRIPT_EXTRAPOLATED && !sw->neuron_script_extrapolated)
		return neuron_script_undocumented(p, spec, diags, os);
	p->cl.route = ROUTE_SCRIPT;
	p->cl.extrapolated = os->doc == NEURON_SCRIPT_EXTRAPOLATED;
	if (p->cl.extrapolated)
		neuron_script_extrapolated(p, spec, diags, os);
	neuron_image_recommended(p, spec, diags);
	return neuron_script_without_venv(p, spec, diags);
}

void plan_image_id(const struct plan *p, struct buf *id)
{
	buf_printf(id, "%s-neuron-", p->job->name);
	for (const char *s = p->job->software->neuron; *s; s++)
		buf_putc(id, *s == '.' ? '-' : *s);
}

bool plan_boot_check(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	const struct spec_software *sw = j->software;
	p->cl.route = ROUTE_NONE;
	p->cl.image = sw && sw->neuron_image;
	if (p->cl.image && !sw->neuron) {
		struct diag *d = spec_missing_key(spec, diags, spec_node(spec, "software.neuron_image"),
			"software.neuron_image builds on the Neuron DLAMI of a release: software.neuron names it");
		diag_set_help(d, "add software.neuron, such as \"2.29.0\"");
		return false;
	}
	if (p->neuron)
		p->cl.root_volume_gib = j->cluster->root_volume_gib ? j->cluster->root_volume_gib
								    : NEURON_ROOT_VOLUME_MIN_GIB;
	else
		p->cl.root_volume_gib = j->cluster->root_volume_gib;
	bool ok = neuron_root_volume_small(p, spec, diags);
	if (!p->neuron)
		return ok;
	if (j->cluster->ami) {
		p->cl.route = ROUTE_AMI;
	} else if (p->cl.image) {
		p->cl.route = ROUTE_PENDING;
		neuron_image_pending(p, spec, diags);
	} else if (sw && sw->neuron) {
		ok &= script_route(p, spec, diags);
	}
	return ok;
}

void plan_software_text(const struct plan *p, struct buf *b)
{
	const struct job_spec *j = p->job;
	const struct spec_software *sw = j->software;
	struct buf url = BUF_INIT;
	switch (p->cl.route) {
	case ROUTE_AMI:
		buf_printf(b, "  neuron           on the compute nodes from cluster.ami %s%s%s%s; none on the head node\n",
			   j->cluster->ami, sw && sw->neuron ? ", which must carry Neuron " : "",
			   sw && sw->neuron ? sw->neuron : "",
			   p->cl.image ? " (the AMI the image config builds)" : "");
		break;
	case ROUTE_PENDING:
		buf_printf(b, "  neuron           %s on the compute nodes from the AMI %s-image.yaml builds from %s: "
			      "the cluster config waits for it (cluster.ami)\n",
			   sw->neuron, j->name, sw->neuron_image->parent);
		break;
	case ROUTE_SCRIPT:
		plan_neuron_install(p, &url);
		buf_printf(b, "  neuron           %s installed at every boot of every compute node by %s%s; none on the head node\n",
			   sw->neuron, url.p, p->cl.extrapolated ? " (a path no Neuron sample shows, as the spec confirms)" : "");
		break;
	case ROUTE_NONE:
		break;
	}
	buf_free(&url);
	plan_container_text(p, b);
}
