/* Neuron SDK facts that decide whether software pinned in a script, a
 * cluster config or a job spec can run on an instance: the first release
 * for each accelerator, the OS support windows, and which SDK release
 * shipped which pip package version. Static tables: docs/versions.md,
 * sections neuron-min-sdk, neuron-os, neuron-packages, neuron-dlami-dlc
 * and neuron-env, give each row with its source.
 *
 * Package versions map to SDK releases only through the table: the
 * compiler's version is not a function of the SDK's (neuron-packages), so
 * a version the table lacks maps to nothing. */
#ifndef TF_NEURON_H
#define TF_NEURON_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"

/* An SDK release, major.minor.patch; patch -1 when not given ("2.24"),
 * which compares as any patch of that minor release. */
struct neuron_version {
	int major, minor, patch;
};

/* Parses "2.21", "2.21.0" (digits and dots, nothing else) from
 * s[0..len); false, and out untouched, for anything else. */
bool neuron_version_parse(const char *s, size_t len, struct neuron_version *out);
/* < 0, 0, > 0; a missing patch equals every patch of its minor release. */
int neuron_version_cmp(struct neuron_version a, struct neuron_version b);
/* "2.21.0" or "2.24" into buf (at least 16 bytes); returns buf. */
const char *neuron_version_str(struct neuron_version v, char *buf, size_t cap);

/* The first SDK release for accelerator kind accel: its version, its
 * release date (YYYY-MM-DD) and the accelerator's name. False when no
 * source states one (Trainium1 and Inferentia2 have been supported since
 * before the releases read, so nothing is too old for them). */
struct neuron_first_release {
	struct neuron_version version;
	const char *date;
	const char *accel; /* "Trainium2" */
};
bool neuron_min_sdk(enum accel_kind accel, struct neuron_first_release *out);

/* Amazon Linux 2: the last SDK release with a Neuron runtime for it. */
struct neuron_version neuron_al2_last(void);
bool neuron_runs_on_al2(struct neuron_version sdk);
/* Ubuntu 22.04: the first SDK release without Neuron DLAMIs and DLC
 * images for it, and the day it came out. */
struct neuron_version neuron_u2204_images_end(const char **date);
/* XLA_USE_BF16 and XLA_DOWNCAST_BF16: the last release that reads them. */
struct neuron_version neuron_bf16_vars_last(void);

/* The SDK releases known to ship pip package pkg (neuronx-cc,
 * torch-neuronx, neuronx-distributed; pip's spelling rules: case, '-',
 * '_' and '.' alike) at version ver: the oldest and newest of them.
 * False when the package is not one of those or the version is not in
 * the table. */
bool neuron_package_sdk(const char *pkg, size_t pkg_len, const char *ver, size_t ver_len,
			struct neuron_version *oldest, struct neuron_version *newest);
/* Whether pkg is one of the packages above (in any pip spelling). */
bool neuron_package_known(const char *pkg, size_t len);

#endif
