/* The generated catalog as tools/catalog_gen writes it (build/catalog_data.c)
 * and core/facts/catalog.c reads it: rows of numbers and offsets into one
 * string pool, no pointers. A static-PIE program relocates every pointer
 * of its tables at start-up and dirties the pages that hold them; the
 * catalog has over a thousand rows, so it holds none, and catalog.c
 * fills a struct instance_type (in catalog__cache, zeroed until then)
 * only for the rows a run reads (docs/performance.md, "Start-up"). */
#ifndef TF_CATALOG_TABLE_H
#define TF_CATALOG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

/* A string of catalog__pool, 0 for NULL (the pool starts with a NUL). */
typedef uint32_t catalog_str;

struct catalog_row {
	catalog_str accel_model, arch, provisional, source, derived_note, peak_note; /* name: catalog__names */
	catalog_str accel_memory_source, gpu_memory_source, peak_source, efa_gbps_source;
	catalog_str price_region, price_source, price_date;
	catalog_str spot_region, spot_source, spot_date;
	catalog_str reserved_region, reserved_source, reserved_date;
	int32_t accel_count, nc_phys, nc_log, lnc, accel_memory_gib, vcpus, memory_mib;
	int32_t max_efa, gpu_memory_mib, efa_gbps, network_mbps;
	uint32_t derived;
	uint8_t accel, efa, rdma, gdr;            /* enum accel_kind, enum tri */
	uint16_t cb_first, cb_count;              /* Capacity Block rates in catalog__cb */
	double peak, price_on_demand, price_spot, price_reserved; /* < 0 unknown */
};

struct catalog_cb_row {
	double usd_per_hour;
	catalog_str region, date, source;
};

/* The names again, as fixed-size strings in row order, and the first of
 * each block of CATALOG_NAME_BLOCK: a lookup searches the index, then
 * one block, and reads the rows only at the end. Over the rows, each
 * step of a binary search touched a page of its own (page faults are
 * most of a short run's cost: docs/performance.md). */
#define CATALOG_NAME_CAP 24
#define CATALOG_NAME_BLOCK 128
extern const char catalog__names[][CATALOG_NAME_CAP];
extern const char catalog__name_index[][CATALOG_NAME_CAP];
extern const size_t catalog__name_index_len;

extern const char catalog__pool[];
extern const struct catalog_row catalog__rows[];
extern const size_t catalog__rows_len;
extern const struct catalog_cb_row catalog__cb[];
/* One entry per row and per Capacity Block rate, filled on first use. */
extern struct instance_type catalog__cache[];
extern struct catalog_price catalog__cb_cache[];

#endif
