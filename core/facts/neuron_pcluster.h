/* How the Neuron SDK reaches a ParallelCluster node, as AWS and Neuron
 * document it (docs/jobspec.md, "Neuron on ParallelCluster", has each
 * fact with its source):
 *
 * - Neuron's install script, run as a CustomActions script. Neuron's
 *   samples (aws-neuron/aws-neuron-parallelcluster-samples) show it for
 *   two OS directories, al2 and u20, at any release ("v<SDK RELEASE
 *   VER>"); u22 and u24 follow the pattern but no sample shows them, so
 *   a path there is an extrapolation the user must confirm.
 * - A ParallelCluster AMI built by `pcluster build-image` from a Neuron
 *   DLAMI (ParentImage may be any AMI of a supported OS; the DLAMI of a
 *   release is found by its description).
 *
 * Static tables: nothing is read at start-up. */
#ifndef TF_NEURON_PCLUSTER_H
#define TF_NEURON_PCLUSTER_H

#include <stdbool.h>

struct buf;

/* The bucket every install script is read from. */
#define NEURON_SCRIPT_BUCKET "neuron-s3"
/* Neuron's setup guides: "adjust your primary EBS volume size to a
 * minimum of 512GB" on Trn1, Trn2 and Trn3; the samples set 1024. */
#define NEURON_ROOT_VOLUME_MIN_GIB 512
/* The largest queue the samples run the install script on (MaxCount 16):
 * above it, the prebuilt image is the route trainforge recommends. */
#define NEURON_SCRIPT_SAMPLE_NODES 16

enum neuron_script_doc {
	NEURON_SCRIPT_NONE,         /* no script path for the OS at all */
	NEURON_SCRIPT_DOCUMENTED,   /* a sample shows this OS directory */
	NEURON_SCRIPT_EXTRAPOLATED, /* the samples' pattern, no sample shows it */
};

struct neuron_script_os {
	const char *os;             /* ParallelCluster's Image.Os: ubuntu2004 */
	const char *dir;            /* the path's OS directory: u20 */
	enum neuron_script_doc doc;
	const char *sample;         /* the sample that shows it, or NULL */
};

/* The install script's OS directory for a ParallelCluster OS; NULL when
 * there is none (the doc is then NEURON_SCRIPT_NONE). */
const struct neuron_script_os *neuron_script_os(const char *os);
/* s3://neuron-s3/pcluster/post-install-scripts/neuron-installation/
 * v<release>/<dir>/pt/install_neuron.sh, appended to url. */
void neuron_script_url(struct buf *url, const char *release, const char *dir);
/* The OS as Neuron's DLAMI names write it ("Ubuntu 22.04"), or NULL. */
const char *neuron_dlami_os(const char *os);
/* The documented lookup of a release's DLAMIs, appended to b:
 * aws ec2 describe-images --owners amazon --filters
 * "Name=name,Values=Deep Learning AMI Neuron*" "Name=description,Values=
 * *Neuron SDK <release>*" ... (Neuron DLAMI User Guide). */
void neuron_dlami_lookup(struct buf *b, const char *release, const char *region);

#endif
