/* The instance catalog: what trainforge knows about EC2 instance types,
 * so that the linter can check EFA, process counts and names, and the
 * planner can derive processes per node and cost.
 *
 * The data comes from schemas/ec2-types.tsv (every EC2 instance type, as
 * EC2's API describes it) and schemas/instances.yaml (the hand-checked
 * entries, which win), which tools/catalog_gen validates, merges and
 * turns into static tables at build time: a run never parses them. Every
 * figure has a source or is absent, and an absent figure stays visible
 * as "unknown" here (-1, TRI_UNKNOWN, NULL) instead of being filled with
 * a plausible-looking default. */
#ifndef TF_CATALOG_H
#define TF_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum accel_kind {
	ACCEL_NONE,
	ACCEL_NVIDIA_GPU,
	ACCEL_TRAINIUM,    /* trn1, trn1n */
	ACCEL_TRAINIUM2,   /* trn2, trn2u; LNC 1 or 2 */
	ACCEL_INFERENTIA2, /* inf2 */
	ACCEL_TRAINIUM3,   /* trn3 (provisional); LNC 1 or 2 */
	ACCEL_INFERENTIA,  /* inf1: Neuron, NeuronCore-v1 */
	ACCEL_AMD_GPU,     /* g4ad: Radeon Pro V520 */
	ACCEL_OTHER,       /* an accelerator of no kind above (Qualcomm AI 100) */
};

/* The figures of an entry, by their YAML names; an entry marks some of
 * them DERIVED (computed from sourced figures, not stated for the
 * instance) in instance_type.derived, one bit (1u << figure) each.
 * NAME is the instance type's name itself, which a provisional entry
 * cites. tools/catalog_gen reads the same table. */
enum catalog_fig {
	CATALOG_FIG_ACCEL, CATALOG_FIG_ACCEL_MODEL, CATALOG_FIG_ACCEL_COUNT,
	CATALOG_FIG_NC_PHYS, CATALOG_FIG_NC_LOG, CATALOG_FIG_LNC, CATALOG_FIG_ACCEL_MEM,
	CATALOG_FIG_VCPUS, CATALOG_FIG_MEM, CATALOG_FIG_ARCH, CATALOG_FIG_EFA,
	CATALOG_FIG_MAX_EFA, CATALOG_FIG_EFA_RDMA, CATALOG_FIG_GDR, CATALOG_FIG_GPU_MEM,
	CATALOG_FIG_PEAK, CATALOG_FIG_EFA_GBPS, CATALOG_FIG_NAME, CATALOG_FIG_NET,
	CATALOG_FIG__COUNT
};

static inline const char *catalog_fig_name(enum catalog_fig f)
{
	static const char *const names[CATALOG_FIG__COUNT] = {
		"accel", "accel_model", "accel_count", "neuron_cores_physical",
		"neuron_cores_logical", "lnc_default", "accel_memory_gib", "vcpus",
		"memory_mib", "arch", "efa", "max_efa_interfaces", "efa_device_rdma",
		"gpudirect_rdma", "gpu_memory_mib", "accel_peak_bf16_tflops", "efa_gbps",
		"name", "network_mbps",
	};
	return (unsigned)f < CATALOG_FIG__COUNT ? names[f] : "?";
}

/* Absent figure = unknown; zero so that a forgotten field reads unknown. */
enum tri { TRI_UNKNOWN = 0, TRI_NO, TRI_YES };

/* A dated price in one region: Capacity Block rates differ by region and
 * change over time, so the catalog keeps each one it has a source for. */
struct catalog_price {
	double usd_per_hour;       /* one instance */
	const char *region;        /* us-east-2 */
	const char *date;          /* YYYY-MM-DD the rate was valid */
	const char *source;        /* "title <location> (date)" */
};

/* One catalog entry. Integer figures use -1 for unknown. Figures that
 * follow from others are filled in by the generator (no accelerator
 * means accel_count and accel_memory_gib 0; no EFA means
 * max_efa_interfaces 0 and both RDMA tris TRI_NO; GPUDirect RDMA is
 * TRI_NO on anything but NVIDIA GPUs). */
struct instance_type {
	const char *name;
	enum accel_kind accel;
	const char *accel_model;   /* "H100", "Trainium2"; NULL if none/unknown */
	int accel_count;           /* GPUs or Neuron chips */
	int neuron_cores_physical; /* 0 on non-Neuron types */
	int neuron_cores_logical;  /* at lnc_default; -1 when that is unknown */
	int lnc_default;           /* Logical NeuronCore Config; 0 if not Neuron, -1 unknown */
	int accel_memory_gib;      /* per instance; unknown for NVIDIA (see YAML) */
	int vcpus;
	int memory_gib;            /* whole GiB, rounded down */
	int memory_mib;            /* exact, as the EC2 API reports it */
	const char *arch;          /* "x86_64", "arm64" or NULL */
	enum tri efa;
	int max_efa_interfaces;    /* one EFA per network card */
	enum tri efa_device_rdma;  /* FI_EFA_USE_DEVICE_RDMA=1 aborts if TRI_NO */
	enum tri gpudirect_rdma;
	int gpu_memory_gib;        /* one NVIDIA GPU, whole GiB rounded down; 0 on other kinds */
	int gpu_memory_mib;        /* one NVIDIA GPU, exact, as the EC2 API reports it */
	double accel_peak_bf16_tflops; /* dense BF16, one GPU or Neuron chip; < 0 unknown */
	int efa_gbps;              /* EFA bandwidth of the instance; 0 without EFA */
	int network_mbps;          /* network bandwidth of the instance, Mbps; -1 unknown */
	/* "title <location> (date)" of the figure above, NULL when unknown */
	const char *accel_memory_source;
	const char *gpu_memory_source;
	const char *peak_source;
	const char *efa_gbps_source;
	const char *peak_note;     /* why the peak is unknown, when the catalog says */
	/* Spot and reserved (effective hourly) prices, like the on-demand
	 * one below: < 0 and NULLs when the catalog has none. */
	double price_spot;
	const char *price_spot_region, *price_spot_source, *price_spot_date;
	double price_reserved;
	const char *price_reserved_region, *price_reserved_source, *price_reserved_date;
	/* Capacity Block rates (a different product from on demand: a block
	 * of instances bought ahead for a fixed time), sorted by region, then
	 * date; see catalog_capacity_block. */
	const struct catalog_price *capacity_block;
	int capacity_block_count;
	double price_on_demand;    /* USD per hour, Linux; < 0 = unknown */
	const char *price_region;  /* the price is for this region only */
	const char *price_source;
	const char *price_date;    /* YYYY-MM-DD the price was valid */
	const char *source;        /* "fields: title <location> (date); ..." */
	/* A provisional entry is one AWS has not confirmed (a name seen in
	 * AWS software but not in the EC2 API, per-instance figures computed
	 * from system totals): why, or NULL for a confirmed entry. */
	const char *provisional;
	unsigned derived;          /* (1u << enum catalog_fig) of each DERIVED figure */
	const char *derived_note;  /* "fields: how (title <location> (date)); ...", NULL if none */
};

/* Exact, case-sensitive lookup of name[0..len) (no NUL needed, so a
 * linter can pass a slice of its input). NULL if absent. The entry is
 * the same object for the whole run. */
const struct instance_type *catalog_find(const char *name, size_t len);

/* Entries in ascending name order, for listings and docs. catalog_at
 * returns NULL past the end. */
size_t catalog_count(void);
const struct instance_type *catalog_at(size_t i);

enum catalog_name { CATALOG_KNOWN, CATALOG_UNKNOWN_PLAUSIBLE, CATALOG_INVALID };

/* Classifies a string as an instance type.
 * KNOWN: in the catalog.
 * UNKNOWN_PLAUSIBLE: fits AWS naming (a family such as c5, p6-b200,
 *   u-6tb1, trn2u or c7gd, a dot, and a size such as large, xlarge,
 *   24xlarge, metal or metal-48xl) but is not in the catalog: AWS adds
 *   types faster than any catalog, so this is a note, not an error.
 * INVALID: cannot be an instance type: no dot ("trn3-48xlarge"), upper
 *   case, spaces, or non-ASCII look-alikes such as U+2011 pasted from a
 *   web page.
 * Writes a NUL-terminated suggestion of at most cap bytes (nothing when
 * cap is 0): for INVALID, the string with look-alikes, case and spaces
 * repaired when that gives a valid name, else the catalog name at the
 * smallest edit distance if it is close. Never for UNKNOWN_PLAUSIBLE:
 * the catalog has every type EC2 listed when it was built, so a name of
 * EC2's shape that it lacks is most likely a newer type, and c6i.large is
 * not a misspelt c6i.xlarge (catalog_family_sizes lists what the family
 * has instead). Empty when there is none, or when it would not fit: a
 * cut-off name would be a wrong suggestion. */
enum catalog_name catalog_check_name(const char *s, size_t len,
				     char *suggestion, size_t cap);

/* True if s[0..len) fits the AWS naming grammar described above:
 * family  = segments of [a-z0-9] joined by single '-', starting with a
 *           letter and holding at least one digit;
 * size    = nano | micro | small | medium | large | xlarge | <n>xlarge |
 *           metal | metal-<n>xl, with n a number without leading zero.
 * Inline because tools/catalog_gen, which links nothing from core/, must
 * validate catalog names with exactly the rule the run time applies. */
static inline bool catalog__size_ok(const char *s, size_t len)
{
	static const char *const words[] = {
		"nano", "micro", "small", "medium", "large", "xlarge", "metal",
	};
	size_t i = 0, digits;

	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		if (strlen(words[w]) == len && memcmp(words[w], s, len) == 0)
			return true;
	}
	if (len > 6 && memcmp(s, "metal-", 6) == 0)
		i = 6;
	digits = i;
	while (digits < len && s[digits] >= '0' && s[digits] <= '9')
		digits++;
	if (digits == i || s[i] == '0')
		return false;
	if (i == 6)
		return len - digits == 2 && s[digits] == 'x' && s[digits + 1] == 'l';
	return len - digits == 6 && memcmp(s + digits, "xlarge", 6) == 0;
}

static inline bool catalog_name_plausible(const char *s, size_t len)
{
	size_t dot = 0;
	bool digit = false;

	if (s == NULL || len == 0 || len > 64)
		return false;
	while (dot < len && s[dot] != '.')
		dot++;
	if (dot == 0 || dot >= len - 1 || !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 0; i < dot; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9')
			digit = true;
		else if (c == '-' && (s[i + 1] == '-' || i + 1 == dot))
			return false;
		else if (c != '-' && !(c >= 'a' && c <= 'z'))
			return false;
	}
	return digit && catalog__size_ok(s + dot + 1, len - dot - 1);
}

/* Length of the family part of s[0..len) ("p6-b200" in
 * "p6-b200.48xlarge"), 0 if there is no dot. Rules whose facts differ by
 * instance family key on this, for types the catalog lacks too. */
size_t catalog_family_len(const char *s, size_t len);

/* The sizes the catalog has of the family of s[0..len) ("4xlarge,
 * 48xlarge" for p5.84xlarge), comma-separated into out (NUL-ended, cut
 * at a whole size when cap is short); false when the family has none. */
bool catalog_family_sizes(const char *s, size_t len, char *out, size_t cap);

bool catalog_is_neuron(const struct instance_type *t);

/* Whether t's NeuronCores can be grouped by a Logical NeuronCore Config
 * (Trainium2 and Trainium3). */
bool catalog_has_lnc(const struct instance_type *t);

/* Whether figure f of t is DERIVED rather than stated by its source. */
bool catalog_fig_derived(const struct instance_type *t, enum catalog_fig f);

/* Whether lnc is a valid Logical NeuronCore Config for t: 0 always means
 * "the default"; 1 is valid on Neuron types; 2 on Trainium2 and 3. */
bool catalog_lnc_valid(const struct instance_type *t, int lnc);

/* Worker processes per node: one per GPU on NVIDIA types, one per
 * logical NeuronCore on Neuron types (lnc 0 = the type's default), 0 on
 * types without accelerators. -1 when unknown (lnc 0 on a type whose
 * default LNC is unknown, such as trn3.48xlarge) or lnc is invalid for t.
 * trn2.48xlarge: 64 at LNC 2, 128 at LNC 1; trn1.32xlarge: 32. */
int catalog_procs_per_node(const struct instance_type *t, int lnc);

/* On-demand cost of nodes instances for hours hours, in USD of
 * t->price_region; negative when the price is unknown or an argument is
 * negative. */
double catalog_cost(const struct instance_type *t, long nodes, double hours);

/* The Capacity Block rate of t in region that was valid on date
 * (YYYY-MM-DD): the latest one dated on or before it, or with date NULL
 * the latest of all. NULL when the catalog has no such rate. */
const struct catalog_price *catalog_capacity_block(const struct instance_type *t,
						   const char *region, const char *date);

/* Spellings used in the YAML ("nvidia-gpu"; "unknown", "no", "yes"). */
const char *catalog_accel_kind_name(enum accel_kind k);
const char *catalog_tri_name(enum tri v);

#endif
