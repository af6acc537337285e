/* What trainforge knows of container images' EFA stack: whether an image
 * carries libfabric's EFA provider and the NCCL plugin aws-ofi-nccl,
 * without which NCCL in the container talks over TCP sockets, silently.
 * A table of image repositories, each with the source that shows it
 * (docs/jobspec.md, "Containers"); an image not in it is unknown. */
#ifndef TF_CONTAINERS_H
#define TF_CONTAINERS_H

#include <stddef.h>

enum image_efa {
	IMAGE_EFA_UNKNOWN,
	IMAGE_EFA_YES, /* built with the EFA installer (libfabric and aws-ofi-nccl) */
	IMAGE_EFA_NO,  /* known to come without them */
};

struct image_efa_fact {
	enum image_efa efa;
	const char *what;   /* "AWS Deep Learning Container (PyTorch training, GPU)" */
	const char *source; /* "title <location>" */
};

/* The fact for an image as enroot names it ([USER@][REGISTRY#]IMAGE[:TAG],
 * docker:// and a registry's own slash form alike), or NULL: unknown,
 * a squashfs file among them. */
const struct image_efa_fact *image_efa_of(const char *image);

#endif
