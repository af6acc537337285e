/* Which GPU instance families join their GPUs with NVLink (through
 * NVSwitch on the 8-GPU sizes), by family, so that checks of NCCL's
 * peer-to-peer transport know what it would carry
 * (docs/frameworks.md, "NVLink"). */
#ifndef TF_NVLINK_H
#define TF_NVLINK_H

#include "catalog.h"

/* TRI_YES: the GPUs of t talk over NVLink; TRI_NO: over PCIe only;
 * TRI_UNKNOWN for a family the table lacks or a type with one GPU. */
enum tri nvlink_of(const struct instance_type *t);

#endif
