#include "regions.h"

#include <string.h>

#include "text.h"

static const char *const regions[] = {
	"af-south-1", "ap-east-1", "ap-northeast-1", "ap-northeast-2",
	"ap-south-1", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
	"ca-central-1", "cn-north-1", "cn-northwest-1", "eu-central-1",
	"eu-north-1", "eu-south-1", "eu-west-1", "eu-west-2", "eu-west-3",
	"il-central-1", "me-south-1", "sa-east-1", "us-east-1", "us-east-2",
	"us-iso-east-1", "us-isob-east-1", "us-gov-east-1", "us-gov-west-1",
	"us-west-1", "us-west-2",
};

bool region_supported(const char *name)
{
	for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++)
		if (strcmp(name, regions[i]) == 0)
			return true;
	return false;
}

const char *region_nearest(const char *name)
{
	const char *near = NULL;
	size_t best = 3, len = strlen(name);
	for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
		size_t d = text_edit_distance(name, len, regions[i], strlen(regions[i]), 2);
		if (d < best) {
			best = d;
			near = regions[i];
		}
	}
	return near;
}
