/* JS503x: a container every worker runs in (software.container). srun
 * --container-image is Pyxis's option, and ParallelCluster ships Pyxis
 * and enroot on its AMIs from 3.11.1 but disabled: gen enables them with
 * the scripts of ParallelCluster's Pyxis tutorial (docs/jobspec.md,
 * "Containers"). NCCL in the image reaches EFA only through libfabric's
 * EFA provider and aws-ofi-nccl in the image itself: without them it
 * falls back to TCP sockets and says nothing. */
#include "plan.h"

#include "buf.h"
#include "containers.h"
#include "releases.h"

/* The first release whose AMIs carry Pyxis and enroot (ParallelCluster's
 * tutorial "Running containerized jobs with Pyxis": "Starting with AWS
 * ParallelCluster 3.11.1, all official AMIs come with Pyxis and Enroot
 * pre-installed"). */
static const struct version pyxis_since = VERSION_AT(3, 11, 1);

/* JS5030 container-needs-pyxis */
static bool container_needs_pyxis(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct version pc = version_is_set(spec->target.pc) ? spec->target.pc : pc_newest();
	if (version_cmp(pc, pyxis_since) >= 0 || p->job->cluster->ami)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS5030, "software.container",
		"srun --container-image needs Pyxis, which ParallelCluster's AMIs carry from %s; the target, %s, "
		"has none", PC_RELEASE_TEXT(pyxis_since), PC_TEXT(pc));
	diag_set_help(d, "target ParallelCluster %s or later (--target parallelcluster=VERSION), or give an "
		      "AMI with Pyxis and enroot as cluster.ami", PC_RELEASE_TEXT(pyxis_since));
	return false;
}

/* JS5031 container-efa-unknown */
static void container_efa_unknown(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_container *c = p->job->software->container;
	struct diag *d = spec_report(spec, diags, R_JS5031, "software.container.image",
		"whether %s carries libfabric's EFA provider and aws-ofi-nccl is not known: without them NCCL "
		"talks TCP between the %d nodes, without a word", c->base ? c->base : c->image, p->nodes);
	diag_set_help(d, "check the image (ls /opt/amazon/efa /opt/amazon/ofi-nccl in it), then say so with "
		      "software.container.efa, or name the EFA-enabled image it was built from as "
		      "software.container.base");
}

/* JS5032 container-without-efa */
static void container_without_efa(const struct plan *p, const struct spec *spec, struct diag_list *diags,
				  const struct image_efa_fact *fact)
{
	const struct spec_container *c = p->job->software->container;
	struct diag *d;
	if (fact)
		d = spec_report(spec, diags, R_JS5032, c->base && !image_efa_of(c->image) ? "software.container.base"
											: "software.container.image",
			"%s is %s, which comes without libfabric's EFA provider and aws-ofi-nccl (%s): NCCL "
			"would talk TCP between the %d nodes", c->base && !image_efa_of(c->image) ? c->base : c->image,
			fact->what, fact->source, p->nodes);
	else
		d = spec_report(spec, diags, R_JS5032, "software.container.efa",
			"software.container.efa is false: NCCL in the image talks TCP between the %d nodes, not EFA",
			p->nodes);
	diag_set_help(d, "build the EFA installer (with aws-ofi-nccl) into the image and set "
		      "software.container.efa: true, or start from an EFA-enabled image");
}

bool plan_container_check(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_software *sw = p->job->software;
	const struct spec_container *c = sw ? sw->container : NULL;
	p->cl.pyxis = c != NULL;
	if (!c)
		return true;
	bool ok = container_needs_pyxis(p, spec, diags);
	if (!p->gpu || p->nodes <= 1 || p->it->efa != TRI_YES)
		return ok; /* NCCL crosses EFA only between nodes */
	if (c->efa_given) {
		if (!c->efa)
			container_without_efa(p, spec, diags, NULL);
		return ok;
	}
	const struct image_efa_fact *fact = image_efa_of(c->image);
	if (!fact && c->base)
		fact = image_efa_of(c->base);
	if (!fact)
		container_efa_unknown(p, spec, diags);
	else if (fact->efa == IMAGE_EFA_NO)
		container_without_efa(p, spec, diags, fact);
	return ok;
}

/* The container line of the summary: what gen enables, and the image's
 * EFA stack as far as it is known (JS5031, JS5032 say the same). */
void plan_container_text(const struct plan *p, struct buf *b)
{
	const struct spec_container *c = p->job->software ? p->job->software->container : NULL;
	if (!c)
		return;
	buf_printf(b, "  container        %s through Pyxis and enroot (gen's set-up scripts enable them)", c->image);
	const struct image_efa_fact *fact = image_efa_of(c->image);
	if (!fact && c->base)
		fact = image_efa_of(c->base);
	if (!p->gpu || p->it->efa != TRI_YES)
		buf_puts(b, "\n");
	else if (c->efa_given)
		buf_printf(b, "; EFA: %s, as the spec states (software.container.efa)\n",
			   c->efa ? "libfabric and aws-ofi-nccl in the image" : "none, NCCL talks TCP");
	else if (fact && fact->efa == IMAGE_EFA_YES)
		buf_printf(b, "; EFA: %s (%s)\n", fact->what, fact->source);
	else if (fact)
		buf_printf(b, "; EFA: none in %s: NCCL talks TCP between nodes\n", fact->what);
	else
		buf_puts(b, "; EFA: unknown, yours to check (libfabric's EFA provider and aws-ofi-nccl in the image)\n");
}
