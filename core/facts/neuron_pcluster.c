/* The Neuron-on-ParallelCluster facts; docs/jobspec.md, "Neuron on
 * ParallelCluster", gives each with its source. */
#include "neuron_pcluster.h"

#include <string.h>

#include "buf.h"

/* aws-neuron/aws-neuron-parallelcluster-samples at 938959b2 (al2 and u20
 * at v2.4.0) and at 0c1742de... (u20 at v<SDK RELEASE VER>, v2.13.0):
 * examples/cluster-configs/trn1-16-nodes-pcluster.md. Nothing there or
 * in the Neuron documentation shows u22 or u24. */
#define SAMPLES "aws-neuron/aws-neuron-parallelcluster-samples examples/cluster-configs/trn1-16-nodes-pcluster.md"

static const struct neuron_script_os script_oses[] = {
	{ "alinux2", "al2", NEURON_SCRIPT_DOCUMENTED, SAMPLES },
	{ "ubuntu2004", "u20", NEURON_SCRIPT_DOCUMENTED, SAMPLES },
	{ "ubuntu2204", "u22", NEURON_SCRIPT_EXTRAPOLATED, NULL },
	{ "ubuntu2404", "u24", NEURON_SCRIPT_EXTRAPOLATED, NULL },
};

const struct neuron_script_os *neuron_script_os(const char *os)
{
	for (size_t i = 0; os && i < sizeof script_oses / sizeof script_oses[0]; i++)
		if (!strcmp(os, script_oses[i].os))
			return &script_oses[i];
	return NULL;
}

void neuron_script_url(struct buf *url, const char *release, const char *dir)
{
	buf_printf(url, "s3://%s/pcluster/post-install-scripts/neuron-installation/v%s/%s/pt/install_neuron.sh",
		   NEURON_SCRIPT_BUCKET, release, dir);
}

/* The DLAMI names' OS part (Neuron DLAMI User Guide, deploy/environments/
 * dlami.rst: "Deep Learning AMI Neuron (Ubuntu 24.04)"). */
const char *neuron_dlami_os(const char *os)
{
	static const struct { const char *os, *name; } names[] = {
		{ "ubuntu2204", "Ubuntu 22.04" }, { "ubuntu2404", "Ubuntu 24.04" },
		{ "alinux2023", "Amazon Linux 2023" },
	};
	for (size_t i = 0; os && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(os, names[i].os))
			return names[i].name;
	return NULL;
}

/* The guide's "Finding a DLAMI for a specific Neuron SDK version": each
 * DLAMI's description carries the SDK release. */
void neuron_dlami_lookup(struct buf *b, const char *release, const char *region)
{
	buf_printf(b, "aws ec2 describe-images --region %s --owners amazon "
		      "--filters 'Name=name,Values=Deep Learning AMI Neuron*' "
		      "'Name=description,Values=*Neuron SDK %s*' "
		      "--query 'Images[].{Name:Name,ImageId:ImageId}' --output table",
		   region, release);
}
