#include "nvlink.h"

#include <string.h>

/* AWS's instance-type pages: P3 (NVLink), P3dn, P4d and P4de (NVSwitch,
 * 600 GB/s), P5, P5e, P5en (NVSwitch, 900 GB/s), P6-B200 and P6-B300
 * (NVLink 5); G4dn, G5, G6 and G6e have PCIe GPUs without NVLink. */
static const struct {
	const char *family;
	enum tri nvlink;
} families[] = {
	{ "g4dn", TRI_NO }, { "g5", TRI_NO }, { "g6", TRI_NO }, { "g6e", TRI_NO },
	{ "p3", TRI_YES }, { "p3dn", TRI_YES }, { "p4d", TRI_YES }, { "p4de", TRI_YES },
	{ "p5", TRI_YES }, { "p5e", TRI_YES }, { "p5en", TRI_YES }, { "p6-b200", TRI_YES },
	{ "p6-b300", TRI_YES },
};

enum tri nvlink_of(const struct instance_type *t)
{
	if (!t || t->accel != ACCEL_NVIDIA_GPU || t->accel_count < 2)
		return TRI_UNKNOWN;
	size_t n = catalog_family_len(t->name, strlen(t->name));
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strlen(families[i].family) == n && !strncmp(t->name, families[i].family, n))
			return families[i].nvlink;
	return TRI_UNKNOWN;
}
