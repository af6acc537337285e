/* Container images and their EFA stack; docs/jobspec.md, "Containers",
 * has the sources. */
#include "containers.h"

#include <stdbool.h>
#include <string.h>

static const struct image_efa_fact dlc_gpu = {
	IMAGE_EFA_YES, "an AWS Deep Learning Container for PyTorch training on GPUs",
	"aws/deep-learning-containers pytorch/training/docker/2.6/py3/cu126/Dockerfile.gpu (runs "
	"efa_installer.sh, which bundles aws-ofi-nccl from EFA installer 1.38.0) "
	"<https://github.com/aws/deep-learning-containers/blob/2a53a1d19f47e71fb9c9dea6074955f84f2a9b28/"
	"pytorch/training/docker/2.6/py3/cu126/Dockerfile.gpu>",
};

static const struct image_efa_fact ngc_pytorch = {
	IMAGE_EFA_NO, "NVIDIA's NGC PyTorch container as published",
	"aws-samples/awsome-distributed-training 2.ami_and_containers/containers/pytorch/"
	"0.nvcr-pytorch-aws.dockerfile (builds the EFA installer and aws-ofi-nccl into "
	"nvcr.io/nvidia/pytorch, which comes without them) "
	"<https://github.com/aws-samples/awsome-distributed-training/blob/230321b8430af823306d1cea6b4933f9296bec9c/"
	"2.ami_and_containers/containers/pytorch/0.nvcr-pytorch-aws.dockerfile>",
};

/* The image without enroot's USER@ and docker:// prefixes, its registry
 * separated by '#' or by the first '/' of a host name (one with a dot). */
struct image_ref {
	const char *registry, *repo, *tag;
	size_t registry_len, repo_len, tag_len;
};

static void image_ref_of(const char *image, struct image_ref *r)
{
	memset(r, 0, sizeof *r);
	if (!strncmp(image, "docker://", 9))
		image += 9;
	const char *at = strchr(image, '@');
	const char *hash = strchr(image, '#');
	if (at && (!hash || at < hash))
		image = at + 1;
	const char *rest = image;
	if ((hash = strchr(image, '#'))) {
		r->registry = image;
		r->registry_len = (size_t)(hash - image);
		rest = hash + 1;
	} else {
		const char *slash = strchr(image, '/');
		if (slash && memchr(image, '.', (size_t)(slash - image))) {
			r->registry = image;
			r->registry_len = (size_t)(slash - image);
			rest = slash + 1;
		}
	}
	const char *colon = strrchr(rest, ':');
	r->repo = rest;
	r->repo_len = colon ? (size_t)(colon - rest) : strlen(rest);
	r->tag = colon ? colon + 1 : "";
	r->tag_len = strlen(r->tag);
}

static bool eq(const char *s, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(s, want, len);
}

/* 763104351884.dkr.ecr.<region>.amazonaws.com, the DLC account's
 * registries (the DLC available_images list). */
static bool dlc_registry(const struct image_ref *r)
{
	static const char head[] = "763104351884.dkr.ecr.", tail[] = ".amazonaws.com";
	size_t n = r->registry_len, h = sizeof head - 1, t = sizeof tail - 1;
	return n > h + t && !memcmp(r->registry, head, h) && !memcmp(r->registry + n - t, tail, t);
}

const struct image_efa_fact *image_efa_of(const char *image)
{
	if (!image || image[0] == '/' || image[0] == '.')
		return NULL; /* a squashfs file: what was built into it is not visible */
	struct image_ref r;
	image_ref_of(image, &r);
	if (dlc_registry(&r) && eq(r.repo, r.repo_len, "pytorch-training") &&
	    memmem(r.tag, r.tag_len, "gpu", 3))
		return &dlc_gpu;
	if (eq(r.registry, r.registry_len, "nvcr.io") && eq(r.repo, r.repo_len, "nvidia/pytorch"))
		return &ngc_pytorch;
	return NULL;
}
