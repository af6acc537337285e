#include "envvars.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "text.h"

/* Each table is sorted (a test keeps it so) and holds the names its
 * source documents; docs/frameworks.md, "Environment variables", has the
 * sources with their versions. A name a table lacks is never reported
 * as unknown: only a near miss of a listed one is. */

/* NCCL 2.23 user guide, Environment Variables (and the older names its
 * archives list: NCCL_RINGS, NCCL_MIN_NRINGS, NCCL_IB_GDR_LEVEL), and the
 * two PyTorch read under NCCL_ before it renamed them TORCH_NCCL_. */
static const char *const nccl[] = {
	"NCCL_ALGO", "NCCL_ALLOC_P2P_NET_LL_BUFFERS", "NCCL_ASYNC_ERROR_HANDLING",
	"NCCL_BLOCKING_WAIT", "NCCL_BUFFSIZE", "NCCL_CHECKS_DISABLE", "NCCL_CHECK_POINTERS",
	"NCCL_COLLNET_ENABLE", "NCCL_COLLNET_NODE_THRESHOLD", "NCCL_COMM_BLOCKING",
	"NCCL_COMM_ID", "NCCL_CONF_FILE", "NCCL_CROSS_NIC", "NCCL_CTA_POLICY",
	"NCCL_CUMEM_ENABLE", "NCCL_CUMEM_HOST_ENABLE", "NCCL_DEBUG", "NCCL_DEBUG_FILE",
	"NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_TIMESTAMP_FORMAT", "NCCL_DMABUF_ENABLE",
	"NCCL_GDRCOPY_ENABLE", "NCCL_GRAPH_DUMP_FILE", "NCCL_GRAPH_FILE",
	"NCCL_GRAPH_MIXING_SUPPORT", "NCCL_GRAPH_REGISTER", "NCCL_HOSTID",
	"NCCL_IB_ADAPTIVE_ROUTING", "NCCL_IB_AR_THRESHOLD", "NCCL_IB_CUDA_SUPPORT",
	"NCCL_IB_DISABLE", "NCCL_IB_ECE_ENABLE", "NCCL_IB_FIFO_TC", "NCCL_IB_GDR_LEVEL",
	"NCCL_IB_GID_INDEX", "NCCL_IB_HCA", "NCCL_IB_MERGE_NICS", "NCCL_IB_MERGE_VFS",
	"NCCL_IB_PCI_RELAXED_ORDERING", "NCCL_IB_QPS_PER_CONNECTION", "NCCL_IB_RETRY_CNT",
	"NCCL_IB_RETURN_ASYNC_EVENTS", "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_SL",
	"NCCL_IB_SPLIT_DATA_ON_QPS", "NCCL_IB_TC", "NCCL_IB_TIMEOUT", "NCCL_IB_USE_INLINE",
	"NCCL_IGNORE_CPU_AFFINITY", "NCCL_IGNORE_DISABLED_P2P", "NCCL_LAUNCH_MODE",
	"NCCL_LL128_BUFFSIZE", "NCCL_LL_BUFFSIZE", "NCCL_LL_THRESHOLD", "NCCL_LOCAL_REGISTER",
	"NCCL_MAX_CTAS", "NCCL_MAX_NCHANNELS", "NCCL_MAX_NRINGS", "NCCL_MAX_P2P_NCHANNELS",
	"NCCL_MIN_CTAS", "NCCL_MIN_NCHANNELS", "NCCL_MIN_NRINGS", "NCCL_MIN_P2P_NCHANNELS",
	"NCCL_MNNVL_ENABLE", "NCCL_NCHANNELS_PER_NET_PEER", "NCCL_NET", "NCCL_NETDEVS_POLICY",
	"NCCL_NET_DISABLE_INTRA", "NCCL_NET_FORCE_FLUSH", "NCCL_NET_GDR_C2C",
	"NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ", "NCCL_NET_MERGE_LEVEL", "NCCL_NET_OVERHEAD",
	"NCCL_NET_PLUGIN", "NCCL_NET_SHARED_BUFFERS", "NCCL_NET_SHARED_COMMS",
	"NCCL_NSOCKS_PERTHREAD", "NCCL_NTHREADS", "NCCL_NVB_DISABLE", "NCCL_NVLSTREE_MAX_CHUNKSIZE",
	"NCCL_NVLS_CHUNKSIZE", "NCCL_NVLS_ENABLE", "NCCL_NVLS_NCHANNELS",
	"NCCL_P2P_DIRECT_DISABLE", "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_P2P_LL_THRESHOLD",
	"NCCL_P2P_NET_CHUNKSIZE", "NCCL_P2P_NVL_CHUNKSIZE", "NCCL_P2P_PCI_CHUNKSIZE",
	"NCCL_P2P_PXN_LEVEL", "NCCL_P2P_READ_ENABLE", "NCCL_P2P_USE_CUDA_MEMCPY",
	"NCCL_PROFILER_PLUGIN", "NCCL_PROTO", "NCCL_PXN_C2C", "NCCL_PXN_DISABLE",
	"NCCL_RAS_ADDR", "NCCL_RAS_ENABLE", "NCCL_RAS_TIMEOUT_FACTOR", "NCCL_RINGS",
	"NCCL_RUNTIME_CONNECT", "NCCL_SET_CPU_AFFINITY", "NCCL_SET_STACK_SIZE",
	"NCCL_SET_THREAD_NAME", "NCCL_SHM_DISABLE", "NCCL_SHM_LOCALITY", "NCCL_SHM_MEMCPY_MODE",
	"NCCL_SHM_USE_CUDA_MEMCPY", "NCCL_SINGLE_RING_THRESHOLD", "NCCL_SOCKET_FAMILY",
	"NCCL_SOCKET_IFNAME", "NCCL_SOCKET_NTHREADS", "NCCL_SOCKET_RETRY_CNT",
	"NCCL_SOCKET_RETRY_SLEEP_MSEC", "NCCL_TOPO_DUMP_FILE", "NCCL_TOPO_FILE",
	"NCCL_TREE_THRESHOLD", "NCCL_TUNER_CONFIG_FILE", "NCCL_TUNER_PLUGIN",
	"NCCL_WARN_ENABLE_DEBUG_INFO", "NCCL_WORK_FIFO_BYTES", "NCCL_WORK_FIFO_DEPTH",
};

/* libfabric fi_efa(7), fi_shm(7) and fabric(7) (the core's FI_ names);
 * the removed EFA names stay listed, SB2102 reports them. */
static const char *const libfabric[] = {
	"FI_EFA_ATOMRSP_POOL_SIZE", "FI_EFA_CQ_SIZE", "FI_EFA_EFA_CQ_READ_SIZE",
	"FI_EFA_ENABLE_SHM_TRANSFER", "FI_EFA_FORK_SAFE", "FI_EFA_INTER_MAX_MEDIUM_MESSAGE_SIZE",
	"FI_EFA_INTER_MIN_READ_MESSAGE_SIZE", "FI_EFA_INTER_MIN_READ_WRITE_SIZE",
	"FI_EFA_INTER_READ_SEGMENT_SIZE", "FI_EFA_MAX_MEMCPY_SIZE", "FI_EFA_MR_CACHE_ENABLE",
	"FI_EFA_MR_CACHE_MERGE_REGIONS", "FI_EFA_MR_MAX_CACHED_COUNT", "FI_EFA_MR_MAX_CACHED_SIZE",
	"FI_EFA_MTU_SIZE", "FI_EFA_OOO_POOL_CHUNK_SIZE", "FI_EFA_READCOPY_POOL_SIZE",
	"FI_EFA_RECVWIN_SIZE", "FI_EFA_RNR_BACKOFF_CAP", "FI_EFA_RNR_BACKOFF_INITIAL_WAIT_TIME",
	"FI_EFA_RNR_RETRY", "FI_EFA_RUNT_SIZE", "FI_EFA_RX_IOV_LIMIT", "FI_EFA_RX_SIZE",
	"FI_EFA_SET_CUDA_SYNC_MEMOPS", "FI_EFA_SHM_AV_SIZE", "FI_EFA_SHM_CQ_READ_SIZE",
	"FI_EFA_SHM_MAX_MEDIUM_SIZE", "FI_EFA_TX_IOV_LIMIT", "FI_EFA_TX_MIN_CREDITS",
	"FI_EFA_TX_QUEUE_SIZE", "FI_EFA_TX_SIZE", "FI_EFA_UNEXP_POOL_CHUNK_SIZE",
	"FI_EFA_USE_DEVICE_RDMA", "FI_EFA_USE_HUGE_PAGE", "FI_EFA_USE_UNSOLICITED_WRITE_RECV",
	"FI_EFA_USE_ZCPY_RX", "FI_FORK_UNSAFE", "FI_HMEM", "FI_HMEM_CUDA_ENABLE_XFER",
	"FI_HMEM_CUDA_USE_DMABUF", "FI_HMEM_CUDA_USE_GDRCOPY", "FI_HMEM_DISABLE_P2P",
	"FI_LOG_INTERVAL", "FI_LOG_LEVEL", "FI_LOG_PROV", "FI_LOG_SUBSYS", "FI_MR_CACHE_MAX_COUNT",
	"FI_MR_CACHE_MAX_SIZE", "FI_MR_CACHE_MONITOR", "FI_PROVIDER", "FI_PROVIDER_PATH",
	"FI_SHM_DISABLE_CMA", "FI_SHM_RX_SIZE", "FI_SHM_SAR_THRESHOLD", "FI_SHM_TX_SIZE",
	"FI_SHM_USE_XPMEM", "FI_TCP_IFACE", "FI_UNIVERSE_SIZE",
};

/* Neuron: the runtime configuration guide (NEURON_RT_), the compiler and
 * its cache (neuron-caching), torch-neuronx's environment variables and
 * the Logical NeuronCore page. NEURON_COMPILE_CACHE_DIR is not Neuron's:
 * it is listed so that SB2104, which says so, is the one finding. */
static const char *const neuron[] = {
	"NEURON_CC_FLAGS", "NEURON_COMPILE_CACHE_DIR", "NEURON_COMPILE_CACHE_URL",
	"NEURON_DUMP_HLO_SNAPSHOT", "NEURON_EXTRACT_GRAPHS_ONLY", "NEURON_FRAMEWORK_DEBUG",
	"NEURON_FUSE_SOFTMAX", "NEURON_LOGICAL_NC_CONFIG", "NEURON_NUM_RECENT_MODELS_TO_KEEP",
	"NEURON_PARALLEL_COMPILE_MAX_RETRIES", "NEURON_RT_ASYNC_EXEC_MAX_INFLIGHT_REQUESTS",
	"NEURON_RT_EXEC_TIMEOUT", "NEURON_RT_INSPECT_ENABLE", "NEURON_RT_INSPECT_OUTPUT_DIR",
	"NEURON_RT_IO_RING_CACHE_SIZE", "NEURON_RT_LOG_LEVEL", "NEURON_RT_LOG_LOCATION",
	"NEURON_RT_NUMERICAL_ERRORS_VERBOSITY", "NEURON_RT_NUM_CORES", "NEURON_RT_RESET_CORES",
	"NEURON_RT_ROOT_COMM_ID", "NEURON_RT_STOCHASTIC_ROUNDING_EN",
	"NEURON_RT_STOCHASTIC_ROUNDING_SEED", "NEURON_RT_VIRTUAL_CORE_SIZE",
	"NEURON_RT_VISIBLE_CORES", "NEURON_TRANSFER_WITH_STATIC_RING_OPS",
};

/* CUDA C++ Programming Guide, CUDA Environment Variables; CUDA_HOME and
 * CUDA_PATH as PyTorch's extension builder reads them. */
static const char *const cuda[] = {
	"CUDA_AUTO_BOOST", "CUDA_CACHE_DISABLE", "CUDA_CACHE_MAXSIZE", "CUDA_CACHE_PATH",
	"CUDA_COREDUMP_FILE", "CUDA_DEVICE_MAX_CONNECTIONS", "CUDA_DEVICE_ORDER",
	"CUDA_DEVICE_WAITS_ON_EXCEPTION", "CUDA_DISABLE_PTX_JIT", "CUDA_ENABLE_COREDUMP_ON_EXCEPTION",
	"CUDA_FORCE_PTX_JIT", "CUDA_HOME", "CUDA_LAUNCH_BLOCKING", "CUDA_MANAGED_FORCE_DEVICE_ALLOC",
	"CUDA_MODULE_DATA_LOADING", "CUDA_MODULE_LOADING", "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
	"CUDA_MPS_LOG_DIRECTORY", "CUDA_MPS_PIPE_DIRECTORY", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
};

/* PyTorch: torch.distributed's and ProcessGroupNCCL's TORCH_ variables,
 * the hub and extension directories, and the compile logging switches. */
static const char *const torch[] = {
	"TORCH_COMPILE_DEBUG", "TORCH_COMPILE_DEBUG_DIR", "TORCH_CPP_LOG_LEVEL",
	"TORCH_CUDA_ARCH_LIST", "TORCH_DISABLE_ADDR2LINE", "TORCH_DISTRIBUTED_DEBUG",
	"TORCH_EXTENSIONS_DIR", "TORCH_FR_BUFFER_SIZE", "TORCH_FR_DUMP_TEMP_FILE",
	"TORCH_GLOO_LAZY_INIT", "TORCH_HOME", "TORCH_LOGS", "TORCH_NCCL_ASYNC_ERROR_HANDLING",
	"TORCH_NCCL_AVOID_RECORD_STREAMS", "TORCH_NCCL_BLOCKING_WAIT", "TORCH_NCCL_CUDA_EVENT_CACHE",
	"TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "TORCH_NCCL_DESYNC_DEBUG", "TORCH_NCCL_DUMP_ON_TIMEOUT",
	"TORCH_NCCL_ENABLE_MONITORING", "TORCH_NCCL_ENABLE_TIMING", "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC",
	"TORCH_NCCL_HIGH_PRIORITY", "TORCH_NCCL_NAN_CHECK", "TORCH_NCCL_PROPAGATE_ERROR",
	"TORCH_NCCL_RETHROW_CUDA_ERRORS", "TORCH_NCCL_TRACE_BUFFER_SIZE",
	"TORCH_NCCL_TRACE_CPP_STACK", "TORCH_NCCL_USE_COMM_NONBLOCKING",
	"TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC",
	"TORCH_SHOW_CPP_STACKTRACES", "TORCH_USE_CUDA_DSA",
};

/* glibc's malloc environment variables (the manual's Memory Allocation
 * Tunables and mallopt(3)): note the trailing underscores; MALLOC_CONF
 * is jemalloc's, listed so that it is not read as a misspelling. */
static const char *const glibc[] = {
	"MALLOC_ARENA_MAX", "MALLOC_ARENA_TEST", "MALLOC_CHECK_", "MALLOC_CONF",
	"MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_PERTURB_", "MALLOC_TOP_PAD_",
	"MALLOC_TRIM_THRESHOLD_",
};

#define FAMILY(prefix, title, source, t) { prefix, title, source, t, sizeof t / sizeof t[0] }
static const struct env_family_def families[ENV__COUNT] = {
	[ENV_NCCL] = FAMILY("NCCL_", "NCCL", "NCCL's user guide, Environment Variables", nccl),
	[ENV_LIBFABRIC] = FAMILY("FI_", "libfabric", "libfabric's fi_efa(7) and fabric(7)", libfabric),
	[ENV_NEURON] = FAMILY("NEURON_", "Neuron", "the Neuron runtime configuration guide", neuron),
	[ENV_CUDA] = FAMILY("CUDA_", "CUDA", "the CUDA programming guide, CUDA Environment Variables", cuda),
	[ENV_TORCH] = FAMILY("TORCH_", "PyTorch", "PyTorch's environment variables", torch),
	[ENV_GLIBC] = FAMILY("MALLOC_", "glibc", "glibc's manual, Memory Allocation Tunables", glibc),
};

/* Read by the dynamic loader of every program started (ld.so(8)). */
static const char *const loader[] = { "LD_PRELOAD" };

const struct env_family_def *env_family(enum env_family f)
{
	return f < ENV__COUNT ? &families[f] : NULL;
}

const struct env_family_def *env_family_of(const char *name)
{
	for (int f = 0; f < ENV__COUNT; f++)
		if (!strncmp(name, families[f].prefix, strlen(families[f].prefix)))
			return &families[f];
	return NULL;
}

static bool in_table(const char *const *t, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, t[mid]);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

bool env_known(const char *name)
{
	const struct env_family_def *f = env_family_of(name);
	return f && in_table(f->names, f->n, name);
}

bool env_read_by_workers(const char *name)
{
	for (size_t i = 0; i < sizeof loader / sizeof loader[0]; i++)
		if (!strcmp(name, loader[i]))
			return true;
	return env_known(name);
}

/* Whether name can be within limit edits of a name that starts with
 * prefix: some start of name (as long as the prefix, give or take the
 * limit) is within limit edits of the prefix. Most names a script sets
 * (MASTER_ADDR, its own) start like no family, whose names then need no
 * distance each. */
static bool may_start_with(const char *name, size_t len, const char *prefix, size_t limit)
{
	size_t pl = strlen(prefix), window = pl + limit < len ? pl + limit : len;
	/* first the cheap bound: each character of the prefix the window
	 * lacks (counted as a multiset) costs an edit of its own */
	bool used[16] = { false };
	size_t missing = 0;
	for (size_t i = 0; i < pl && window <= sizeof used; i++) {
		size_t j = 0;
		while (j < window && (used[j] || tolower((unsigned char)name[j]) !=
						       tolower((unsigned char)prefix[i])))
			j++;
		if (j < window)
			used[j] = true;
		else if (++missing > limit)
			return false;
	}
	for (size_t j = pl > limit ? pl - limit : 0; j <= pl + limit && j <= len; j++)
		if (text_edit_distance(name, j, prefix, pl, limit) <= limit)
			return true;
	return false;
}

const char *env_near(const char *name)
{
	size_t len = strlen(name);
	if (len < 6 || env_known(name))
		return NULL;
	size_t limit = len >= 12 ? 2 : 1;
	const char *near = NULL;
	size_t best = limit + 1;
	bool tie = false;
	for (int f = 0; f < ENV__COUNT; f++) {
		if (!may_start_with(name, len, families[f].prefix, limit))
			continue;
		for (size_t i = 0; i < families[f].n; i++) {
			const char *k = families[f].names[i];
			size_t d = text_edit_distance(name, len, k, strlen(k), limit);
			/* the case folded away is a difference bash and getenv see */
			if (d == 0)
				d = 1;
			if (d < best) {
				best = d;
				near = k;
				tie = false;
			} else if (d == best) {
				tie = true;
			}
		}
	}
	return tie ? NULL : near;
}
