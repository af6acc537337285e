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
 * archives list: NCCL_RINGS, NCCL_MIN_NRINGS, NCCL_IB_GDR_LEVEL), the
 * names PyTorch read under NCCL_ before it renamed them TORCH_NCCL_
 * (NCCL_ASYNC_ERROR_HANDLING, NCCL_BLOCKING_WAIT, NCCL_DESYNC_DEBUG,
 * NCCL_ENABLE_TIMING, NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK: pytorch/pytorch
 * torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp @
 * 0007e752d518810f0f8942a830dbbbfc69f34577), NCCL_IBEXT_DISABLE, which
 * the SHARP plugin (Mellanox's nccl-rdma-sharp-plugins) reads, and the
 * NCCL_PARAM declarations read in NVIDIA/nccl's own source so far:
 * src/init.cc of 2.26.2 (f44ac759fee12ecb3cc6891e9e739a000f66fd70:
 * GROUP_CUDA_STREAM, GRAPH_HELPER_DISABLE, GDRCOPY_FIFO_ENABLE,
 * WORK_ARGS_BYTES) and src/transport/net_ib/common.cc of 2.31.2
 * (889806836097808572f87a2019eefd01f27aae68: IB_PREPOST_RECEIVE_WORK_REQUESTS,
 * IB_EVENT_BASED_LB, IB_EVENT_BASED_LB_REMOTE). The rest of src/ is not
 * yet transcribed, so a name the table lacks may still be NCCL's: it is
 * never reported, only a near miss of a listed one is. */
static const char *const nccl[] = {
	"NCCL_ALGO", "NCCL_ALLOC_P2P_NET_LL_BUFFERS", "NCCL_ASYNC_ERROR_HANDLING",
	"NCCL_AVOID_RECORD_STREAMS", "NCCL_BLOCKING_WAIT", "NCCL_BUFFSIZE", "NCCL_CHECKS_DISABLE",
	"NCCL_CHECK_POINTERS", "NCCL_COLLNET_ENABLE", "NCCL_COLLNET_NODE_THRESHOLD",
	"NCCL_COMM_BLOCKING", "NCCL_COMM_ID", "NCCL_CONF_FILE", "NCCL_CROSS_NIC",
	"NCCL_CTA_POLICY", "NCCL_CUMEM_ENABLE", "NCCL_CUMEM_HOST_ENABLE", "NCCL_DEBUG",
	"NCCL_DEBUG_FILE", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_TIMESTAMP_FORMAT", "NCCL_DESYNC_DEBUG",
	"NCCL_DMABUF_ENABLE", "NCCL_ENABLE_TIMING", "NCCL_GDRCOPY_ENABLE",
	"NCCL_GDRCOPY_FIFO_ENABLE", "NCCL_GRAPH_DUMP_FILE", "NCCL_GRAPH_FILE",
	"NCCL_GRAPH_HELPER_DISABLE", "NCCL_GRAPH_MIXING_SUPPORT", "NCCL_GRAPH_REGISTER",
	"NCCL_GROUP_CUDA_STREAM", "NCCL_HOSTID", "NCCL_IBEXT_DISABLE", "NCCL_IB_ADAPTIVE_ROUTING",
	"NCCL_IB_AR_THRESHOLD", "NCCL_IB_CUDA_SUPPORT", "NCCL_IB_DISABLE", "NCCL_IB_ECE_ENABLE",
	"NCCL_IB_EVENT_BASED_LB", "NCCL_IB_EVENT_BASED_LB_REMOTE", "NCCL_IB_FIFO_TC",
	"NCCL_IB_GDR_LEVEL", "NCCL_IB_GID_INDEX", "NCCL_IB_HCA", "NCCL_IB_MERGE_NICS",
	"NCCL_IB_MERGE_VFS", "NCCL_IB_PCI_RELAXED_ORDERING",
	"NCCL_IB_PREPOST_RECEIVE_WORK_REQUESTS", "NCCL_IB_QPS_PER_CONNECTION", "NCCL_IB_RETRY_CNT",
	"NCCL_IB_RETURN_ASYNC_EVENTS", "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_SL",
	"NCCL_IB_SPLIT_DATA_ON_QPS", "NCCL_IB_TC", "NCCL_IB_TIMEOUT", "NCCL_IB_USE_INLINE",
	"NCCL_IGNORE_CPU_AFFINITY", "NCCL_IGNORE_DISABLED_P2P", "NCCL_LAUNCH_MODE",
	"NCCL_LL128_BUFFSIZE", "NCCL_LL_BUFFSIZE", "NCCL_LL_THRESHOLD", "NCCL_LOCAL_REGISTER",
	"NCCL_MAX_CTAS", "NCCL_MAX_NCHANNELS", "NCCL_MAX_NRINGS", "NCCL_MAX_P2P_NCHANNELS",
	"NCCL_MIN_CTAS", "NCCL_MIN_NCHANNELS", "NCCL_MIN_NRINGS", "NCCL_MIN_P2P_NCHANNELS",
	"NCCL_MNNVL_ENABLE", "NCCL_NCHANNELS_PER_NET_PEER", "NCCL_NET", "NCCL_NETDEVS_POLICY",
	"NCCL_NET_DISABLE_INTRA", "NCCL_NET_FORCE_FLUSH", "NCCL_NET_GDR_C2C", "NCCL_NET_GDR_LEVEL",
	"NCCL_NET_GDR_READ", "NCCL_NET_MERGE_LEVEL", "NCCL_NET_OVERHEAD", "NCCL_NET_PLUGIN",
	"NCCL_NET_SHARED_BUFFERS", "NCCL_NET_SHARED_COMMS", "NCCL_NSOCKS_PERTHREAD",
	"NCCL_NTHREADS", "NCCL_NVB_DISABLE", "NCCL_NVLSTREE_MAX_CHUNKSIZE", "NCCL_NVLS_CHUNKSIZE",
	"NCCL_NVLS_ENABLE", "NCCL_NVLS_NCHANNELS", "NCCL_P2P_DIRECT_DISABLE", "NCCL_P2P_DISABLE",
	"NCCL_P2P_LEVEL", "NCCL_P2P_LL_THRESHOLD", "NCCL_P2P_NET_CHUNKSIZE",
	"NCCL_P2P_NVL_CHUNKSIZE", "NCCL_P2P_PCI_CHUNKSIZE", "NCCL_P2P_PXN_LEVEL",
	"NCCL_P2P_READ_ENABLE", "NCCL_P2P_USE_CUDA_MEMCPY", "NCCL_PROFILER_PLUGIN", "NCCL_PROTO",
	"NCCL_PXN_C2C", "NCCL_PXN_DISABLE", "NCCL_RAS_ADDR", "NCCL_RAS_ENABLE",
	"NCCL_RAS_TIMEOUT_FACTOR", "NCCL_RINGS", "NCCL_RUNTIME_CONNECT", "NCCL_SET_CPU_AFFINITY",
	"NCCL_SET_STACK_SIZE", "NCCL_SET_THREAD_NAME", "NCCL_SHM_DISABLE", "NCCL_SHM_LOCALITY",
	"NCCL_SHM_MEMCPY_MODE", "NCCL_SHM_USE_CUDA_MEMCPY", "NCCL_SINGLE_RING_THRESHOLD",
	"NCCL_SOCKET_FAMILY", "NCCL_SOCKET_IFNAME", "NCCL_SOCKET_NTHREADS",
	"NCCL_SOCKET_RETRY_CNT", "NCCL_SOCKET_RETRY_SLEEP_MSEC", "NCCL_TOPO_DUMP_FILE",
	"NCCL_TOPO_FILE", "NCCL_TREE_THRESHOLD", "NCCL_TUNER_CONFIG_FILE", "NCCL_TUNER_PLUGIN",
	"NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK", "NCCL_WARN_ENABLE_DEBUG_INFO",
	"NCCL_WORK_ARGS_BYTES", "NCCL_WORK_FIFO_BYTES", "NCCL_WORK_FIFO_DEPTH",
};

/* libfabric: fi_efa(7), fi_shm(7) and fabric(7) (the core's FI_ names),
 * the EFA provider's fi_param_define calls (prov/efa/src/efa_env.c @
 * ofiwg/libfabric 37f360a6ee761fb498929475209e7d9b792393fc), and every
 * name `fi_info -e` of Debian 12's libfabric 1.17.0 prints for the core
 * and its providers (tcp, net, shm, verbs, rxm, rxd, mrail, sockets,
 * udp, psm, psm2), which tests/unit/test_envvars.c checks when fi_info
 * is installed. The removed EFA names stay listed: their notes say so. */
static const char *const libfabric[] = {
	"FI_AV_REMOVE_CLEANUP", "FI_EFA_ATOMRSP_POOL_SIZE", "FI_EFA_CQ_SIZE",
	"FI_EFA_EFA_CQ_READ_SIZE", "FI_EFA_ENABLE_SHM_TRANSFER", "FI_EFA_FORK_SAFE",
	"FI_EFA_IFACE", "FI_EFA_IMPLICIT_AV_SIZE", "FI_EFA_INTERNAL_RX_REFILL_THRESHOLD",
	"FI_EFA_INTER_MAX_GDRCOPY_MESSAGE_SIZE", "FI_EFA_INTER_MAX_MEDIUM_MESSAGE_SIZE",
	"FI_EFA_INTER_MIN_READ_MESSAGE_SIZE", "FI_EFA_INTER_MIN_READ_WRITE_SIZE",
	"FI_EFA_INTER_READ_SEGMENT_SIZE", "FI_EFA_INTRANODE_PROVIDER", "FI_EFA_MAX_MEMCPY_SIZE",
	"FI_EFA_MAX_TIMEOUT", "FI_EFA_MR_CACHE_ENABLE", "FI_EFA_MR_CACHE_MERGE_REGIONS",
	"FI_EFA_MR_MAX_CACHED_COUNT", "FI_EFA_MR_MAX_CACHED_SIZE", "FI_EFA_MTU_SIZE",
	"FI_EFA_OOO_POOL_CHUNK_SIZE", "FI_EFA_READCOPY_POOL_SIZE", "FI_EFA_RECVWIN_SIZE",
	"FI_EFA_RNR_BACKOFF_CAP", "FI_EFA_RNR_BACKOFF_INITIAL_WAIT_TIME", "FI_EFA_RNR_RETRY",
	"FI_EFA_RUNT_SIZE", "FI_EFA_RX_COPY_OOO", "FI_EFA_RX_COPY_UNEXP", "FI_EFA_RX_IOV_LIMIT",
	"FI_EFA_RX_SIZE", "FI_EFA_SET_CUDA_SYNC_MEMOPS", "FI_EFA_SHM_AV_SIZE",
	"FI_EFA_SHM_CQ_READ_SIZE", "FI_EFA_SHM_MAX_MEDIUM_SIZE", "FI_EFA_TIMEOUT_INTERVAL",
	"FI_EFA_TX_IOV_LIMIT", "FI_EFA_TX_MIN_CREDITS", "FI_EFA_TX_QUEUE_SIZE", "FI_EFA_TX_SIZE",
	"FI_EFA_UNEXP_POOL_CHUNK_SIZE", "FI_EFA_USE_DATA_PATH_DIRECT", "FI_EFA_USE_DEVICE_RDMA",
	"FI_EFA_USE_HUGE_PAGE", "FI_EFA_USE_SM2", "FI_EFA_USE_UNSOLICITED_WRITE_RECV",
	"FI_EFA_USE_ZCPY_RX", "FI_EFA_ZCPY_RX_SEED", "FI_FORK_UNSAFE", "FI_HMEM",
	"FI_HMEM_CUDA_ENABLE_XFER", "FI_HMEM_CUDA_USE_DMABUF", "FI_HMEM_CUDA_USE_GDRCOPY",
	"FI_HMEM_DISABLE_P2P", "FI_HOOK", "FI_LOG_INTERVAL", "FI_LOG_LEVEL", "FI_LOG_PROV",
	"FI_LOG_SUBSYS", "FI_MR_CACHE_MAX_COUNT", "FI_MR_CACHE_MAX_SIZE", "FI_MR_CACHE_MONITOR",
	"FI_MR_CUDA_CACHE_MONITOR_ENABLED", "FI_MR_ROCR_CACHE_MONITOR_ENABLED",
	"FI_MR_ZE_CACHE_MONITOR_ENABLED", "FI_NET_DISABLE_AUTO_PROGRESS", "FI_NET_IFACE",
	"FI_NET_IO_URING", "FI_NET_MAX_SAVED", "FI_NET_NODELAY", "FI_NET_PORT_HIGH_RANGE",
	"FI_NET_PORT_LOW_RANGE", "FI_NET_PREFETCH_RBUF_SIZE", "FI_NET_PROV_NAME", "FI_NET_RX_SIZE",
	"FI_NET_STAGING_SBUF_SIZE", "FI_NET_TRACE_MSG", "FI_NET_TX_SIZE", "FI_NET_ZEROCOPY_SIZE",
	"FI_OFI_MRAIL_ADDR", "FI_OFI_MRAIL_ADDR_STRC", "FI_OFI_MRAIL_CONFIG",
	"FI_OFI_RXD_MAX_PEERS", "FI_OFI_RXD_MAX_UNACKED", "FI_OFI_RXD_RETRY",
	"FI_OFI_RXD_SPIN_COUNT", "FI_OFI_RXM_BUFFER_SIZE", "FI_OFI_RXM_CM_PROGRESS_INTERVAL",
	"FI_OFI_RXM_COMP_PER_PROGRESS", "FI_OFI_RXM_CQ_EQ_FAIRNESS",
	"FI_OFI_RXM_DATA_AUTO_PROGRESS", "FI_OFI_RXM_DEF_TCP_WAIT_OBJ", "FI_OFI_RXM_DEF_WAIT_OBJ",
	"FI_OFI_RXM_EAGER_LIMIT", "FI_OFI_RXM_ENABLE_DIRECT_SEND", "FI_OFI_RXM_ENABLE_DYN_RBUF",
	"FI_OFI_RXM_ENABLE_PASSTHRU", "FI_OFI_RXM_MSG_RX_SIZE", "FI_OFI_RXM_MSG_TX_SIZE",
	"FI_OFI_RXM_RX_SIZE", "FI_OFI_RXM_SAR_LIMIT", "FI_OFI_RXM_TX_SIZE",
	"FI_OFI_RXM_USE_RNDV_WRITE", "FI_OFI_RXM_USE_SRX", "FI_PERF_CNTR", "FI_PROVIDER",
	"FI_PROVIDER_PATH", "FI_PSM2_CONN_TIMEOUT", "FI_PSM2_DELAY", "FI_PSM2_DISCONNECT",
	"FI_PSM2_INJECT_SIZE", "FI_PSM2_LAZY_CONN", "FI_PSM2_LOCK_LEVEL", "FI_PSM2_NAME_SERVER",
	"FI_PSM2_PROG_AFFINITY", "FI_PSM2_PROG_INTERVAL", "FI_PSM2_TAGGED_RMA",
	"FI_PSM2_TAG_LAYOUT", "FI_PSM2_TIMEOUT", "FI_PSM2_UUID", "FI_PSM_AM_MSG", "FI_PSM_DELAY",
	"FI_PSM_NAME_SERVER", "FI_PSM_PROG_AFFINITY", "FI_PSM_PROG_INTERVAL", "FI_PSM_PROG_THREAD",
	"FI_PSM_TAGGED_RMA", "FI_PSM_TIMEOUT", "FI_PSM_UUID", "FI_SHM_DISABLE_CMA",
	"FI_SHM_ENABLE_DSA_PAGE_TOUCH", "FI_SHM_RX_SIZE", "FI_SHM_SAR_THRESHOLD", "FI_SHM_TX_SIZE",
	"FI_SHM_USE_DSA_SAR", "FI_SHM_USE_XPMEM", "FI_SOCKETS_CONN_TIMEOUT",
	"FI_SOCKETS_DEF_AV_SZ", "FI_SOCKETS_DEF_CONN_MAP_SZ", "FI_SOCKETS_DEF_CQ_SZ",
	"FI_SOCKETS_DEF_EQ_SZ", "FI_SOCKETS_IFACE", "FI_SOCKETS_KEEPALIVE_ENABLE",
	"FI_SOCKETS_KEEPALIVE_INTVL", "FI_SOCKETS_KEEPALIVE_PROBES", "FI_SOCKETS_KEEPALIVE_TIME",
	"FI_SOCKETS_MAX_BUF_SZ", "FI_SOCKETS_MAX_CONN_RETRY", "FI_SOCKETS_PE_AFFINITY",
	"FI_SOCKETS_PE_WAITTIME", "FI_TCP_IFACE", "FI_TCP_NODELAY", "FI_TCP_PORT_HIGH_RANGE",
	"FI_TCP_PORT_LOW_RANGE", "FI_TCP_PREFETCH_RBUF_SIZE", "FI_TCP_RX_SIZE",
	"FI_TCP_STAGING_SBUF_SIZE", "FI_TCP_TX_SIZE", "FI_TCP_ZEROCOPY_SIZE", "FI_UDP_IFACE",
	"FI_UNIVERSE_SIZE", "FI_VERBS_CQREAD_BUNCH_SIZE", "FI_VERBS_DEVICE_NAME",
	"FI_VERBS_DGRAM_NAME_SERVER_PORT", "FI_VERBS_DGRAM_USE_NAME_SERVER", "FI_VERBS_GID_IDX",
	"FI_VERBS_IFACE", "FI_VERBS_INLINE_SIZE", "FI_VERBS_MIN_RNR_TIMER", "FI_VERBS_PREFER_XRC",
	"FI_VERBS_RX_IOV_LIMIT", "FI_VERBS_RX_SIZE", "FI_VERBS_TX_IOV_LIMIT", "FI_VERBS_TX_SIZE",
	"FI_VERBS_USE_ODP", "FI_VERBS_XRCD_FILENAME",
};

/* Neuron: the runtime configuration guide (NEURON_RT_:
 * aws-neuron/aws-neuron-sdk neuron-runtime/guides/configuration-guide.rst
 * @ 3afa0fdf40b9a7eb12d8d4b1ebfd924372465851, date-modified 2026-05-11,
 * the page the docs publish as nrt-configuration, formerly
 * nrt-configurable-parameters: its table and the per-component
 * NEURON_RT_LOG_LEVEL_<TDRV|NMGR|NRT> and NEURON_RT_LOG_LOCATION_ forms),
 * the compiler and its cache (neuron-caching), torch-neuronx's
 * environment variables and the Logical NeuronCore page.
 * NEURON_COMPILE_CACHE_DIR is not Neuron's: it is listed so that
 * SB2104, which says so, is the one finding. */
static const char *const neuron[] = {
	"NEURON_CC_FLAGS", "NEURON_COMPILE_CACHE_DIR", "NEURON_COMPILE_CACHE_URL",
	"NEURON_DUMP_HLO_SNAPSHOT", "NEURON_EXTRACT_GRAPHS_ONLY", "NEURON_FRAMEWORK_DEBUG",
	"NEURON_FUSE_SOFTMAX", "NEURON_LOGICAL_NC_CONFIG", "NEURON_NUM_RECENT_MODELS_TO_KEEP",
	"NEURON_PARALLEL_COMPILE_MAX_RETRIES", "NEURON_RT_ALLOW_LEGACY_NEFF",
	"NEURON_RT_ASYNC_EXEC_MAX_INFLIGHT_REQUESTS", "NEURON_RT_EXEC_TIMEOUT",
	"NEURON_RT_INSPECT_ENABLE", "NEURON_RT_INSPECT_OUTPUT_DIR", "NEURON_RT_IO_RING_CACHE_SIZE",
	"NEURON_RT_LOG_LEVEL", "NEURON_RT_LOG_LEVEL_NMGR", "NEURON_RT_LOG_LEVEL_NRT",
	"NEURON_RT_LOG_LEVEL_TDRV", "NEURON_RT_LOG_LOCATION", "NEURON_RT_LOG_LOCATION_NMGR",
	"NEURON_RT_LOG_LOCATION_NRT", "NEURON_RT_LOG_LOCATION_TDRV",
	"NEURON_RT_MULTI_INSTANCE_SHARED_WEIGHTS", "NEURON_RT_NUMERICAL_ERRORS_VERBOSITY",
	"NEURON_RT_NUM_CORES", "NEURON_RT_RESET_CORES", "NEURON_RT_ROOT_COMM_ID",
	"NEURON_RT_STOCHASTIC_ROUNDING_EN", "NEURON_RT_STOCHASTIC_ROUNDING_SEED",
	"NEURON_RT_VALIDATE_HASH", "NEURON_RT_VIRTUAL_CORE_SIZE", "NEURON_RT_VISIBLE_CORES",
	"NEURON_TRANSFER_WITH_STATIC_RING_OPS",
};

/* CUDA C++ Programming Guide, CUDA Environment Variables; CUDA_HOME and
 * CUDA_PATH as PyTorch's extension builder reads them. */
static const char *const cuda[] = {
	"CUDA_AUTO_BOOST", "CUDA_CACHE_DISABLE", "CUDA_CACHE_MAXSIZE", "CUDA_CACHE_PATH",
	"CUDA_COREDUMP_FILE", "CUDA_COREDUMP_GENERATION_FLAGS", "CUDA_COREDUMP_PIPE",
	"CUDA_COREDUMP_SHOW_PROGRESS", "CUDA_DEVICE_MAX_CONNECTIONS",
	"CUDA_DEVICE_MAX_COPY_CONNECTIONS", "CUDA_DEVICE_ORDER", "CUDA_DEVICE_WAITS_ON_EXCEPTION",
	"CUDA_DISABLE_PTX_JIT", "CUDA_ENABLE_COREDUMP_ON_EXCEPTION",
	"CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION", "CUDA_ENABLE_LIGHTWEIGHT_COREDUMP",
	"CUDA_ENABLE_USER_TRIGGERED_COREDUMP", "CUDA_FORCE_PTX_JIT",
	"CUDA_GRAPHS_USE_NODE_PRIORITY", "CUDA_HOME", "CUDA_LAUNCH_BLOCKING",
	"CUDA_MANAGED_FORCE_DEVICE_ALLOC", "CUDA_MODULE_DATA_LOADING", "CUDA_MODULE_LOADING",
	"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
	"CUDA_MPS_ENABLE_PER_CTX_DEVICE_MULTIPROCESSOR_PARTITIONING", "CUDA_MPS_LOG_DIRECTORY",
	"CUDA_MPS_PIPE_DIRECTORY", "CUDA_PATH", "CUDA_SCALE_LAUNCH_QUEUES", "CUDA_VISIBLE_DEVICES",
};

/* PyTorch: torch.distributed's and ProcessGroupNCCL's TORCH_ variables,
 * the hub and extension directories, and the compile logging switches. */
static const char *const torch[] = {
	"TORCH_COMPILE_DEBUG", "TORCH_COMPILE_DEBUG_DIR", "TORCH_COMPILE_DISABLE",
	"TORCH_CPP_LOG_LEVEL", "TORCH_CUDA_ARCH_LIST", "TORCH_CUDA_SANITIZER",
	"TORCH_DISABLE_ADDR2LINE", "TORCH_DISTRIBUTED_DEBUG", "TORCH_DIST_INIT_BARRIER",
	"TORCH_EXTENSIONS_DIR", "TORCH_FR_BUFFER_SIZE", "TORCH_FR_DUMP_TEMP_FILE",
	"TORCH_GLOO_LAZY_INIT", "TORCH_HOME", "TORCH_LOGS", "TORCH_LOGS_FORMAT", "TORCH_LOGS_OUT",
	"TORCH_NCCL_ABORT_IN_DESTROY_PG", "TORCH_NCCL_ASYNC_ERROR_HANDLING",
	"TORCH_NCCL_AVOID_RECORD_STREAMS", "TORCH_NCCL_BLOCKING_WAIT",
	"TORCH_NCCL_CUDA_EVENT_CACHE", "TORCH_NCCL_DEBUG_INFO_TEMP_FILE",
	"TORCH_NCCL_DESYNC_DEBUG", "TORCH_NCCL_DUMP_ON_TIMEOUT", "TORCH_NCCL_ENABLE_MONITORING",
	"TORCH_NCCL_ENABLE_TIMING", "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "TORCH_NCCL_HIGH_PRIORITY",
	"TORCH_NCCL_NAN_CHECK", "TORCH_NCCL_PROPAGATE_ERROR", "TORCH_NCCL_RETHROW_CUDA_ERRORS",
	"TORCH_NCCL_TRACE_BUFFER_SIZE", "TORCH_NCCL_TRACE_CPP_STACK",
	"TORCH_NCCL_USE_COMM_NONBLOCKING", "TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK",
	"TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC", "TORCH_SHOW_CPP_STACKTRACES", "TORCH_TRACE",
	"TORCH_USE_CUDA_DSA",
};

/* torchrun (torch.distributed.elastic): the names it gives each worker
 * and reads, as the python sources of PyTorch's elastic agent and
 * launcher hold them (torch/distributed/elastic/, torch/distributed/run.py
 * of PyTorch 1.13, which tests/unit/test_envvars.c checks when Debian's
 * python3-torch is installed). */
static const char *const torchelastic[] = {
	"TORCHELASTIC_ENABLE_FILE_TIMER", "TORCHELASTIC_ERROR_FILE", "TORCHELASTIC_ETCD_BINARY_PATH",
	"TORCHELASTIC_MAX_RESTARTS", "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_RUN_ID",
	"TORCHELASTIC_TIMER_FILE", "TORCHELASTIC_USE_AGENT_STORE",
};

/* glibc's malloc environment variables (the manual's Memory Allocation
 * Tunables, mallopt(3) and mtrace(3) for MALLOC_TRACE): note the
 * trailing underscores; MALLOC_CONF is jemalloc's, listed so that it is
 * not read as a misspelling. tests/unit/test_envvars.c checks the table
 * against the names the dynamic loader of the machine holds (glibc's
 * tunables' environment aliases). */
static const char *const glibc[] = {
	"MALLOC_ARENA_MAX", "MALLOC_ARENA_TEST", "MALLOC_CHECK_", "MALLOC_CONF",
	"MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_PERTURB_", "MALLOC_TOP_PAD_",
	"MALLOC_TRACE", "MALLOC_TRIM_THRESHOLD_",
};

/* Slurm's own names, from the man pages of Slurm 25.11.7 (the release in
 * ../shared/vendor, doc/man/man1/sbatch.1, srun.1, salloc.1): the OUTPUT
 * ENVIRONMENT VARIABLES sections, which Slurm sets in the job, first,
 * then the INPUT ENVIRONMENT VARIABLES the commands read from the
 * submitting environment. tests/unit/test_envvars.c checks the tables
 * against the man pages when the tarball is there. A het-job's
 * NAME_HET_GROUP_N forms of a set name are set too (sbatch(1),
 * "HETEROGENEOUS JOB SUPPORT"). */
static const char *const slurm_set[] = {
	"SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID",
	"SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
	"SLURM_CLUSTER_NAME", "SLURM_CONTAINER", "SLURM_CONTAINER_ID", "SLURM_CPUS_ON_NODE",
	"SLURM_CPUS_PER_GPU", "SLURM_CPUS_PER_TASK", "SLURM_CPU_BIND_LIST", "SLURM_CPU_BIND_TYPE",
	"SLURM_CPU_BIND_VERBOSE", "SLURM_CPU_FREQ_REQ", "SLURM_DISTRIBUTION",
	"SLURM_DIST_PLANESIZE", "SLURM_EXPORT_ENV", "SLURM_GPUS", "SLURM_GPUS_ON_NODE",
	"SLURM_GPUS_PER_NODE", "SLURM_GPUS_PER_SOCKET", "SLURM_GPU_BIND", "SLURM_GPU_FREQ",
	"SLURM_GTIDS", "SLURM_HET_SIZE", "SLURM_JOBID", "SLURM_JOB_ACCOUNT",
	"SLURM_JOB_CPUS_PER_NODE", "SLURM_JOB_DEPENDENCY", "SLURM_JOB_END_TIME", "SLURM_JOB_GPUS",
	"SLURM_JOB_ID", "SLURM_JOB_LICENSES", "SLURM_JOB_NAME", "SLURM_JOB_NODELIST",
	"SLURM_JOB_NODES", "SLURM_JOB_NUM_NODES", "SLURM_JOB_PARTITION", "SLURM_JOB_QOS",
	"SLURM_JOB_RESERVATION", "SLURM_JOB_SEGMENT_SIZE", "SLURM_JOB_START_TIME",
	"SLURM_LAUNCH_NODE_IPADDR", "SLURM_LOCALID", "SLURM_MEM_BIND", "SLURM_MEM_BIND_LIST",
	"SLURM_MEM_BIND_PREFER", "SLURM_MEM_BIND_TYPE", "SLURM_MEM_BIND_VERBOSE",
	"SLURM_MEM_PER_CPU", "SLURM_MEM_PER_GPU", "SLURM_MEM_PER_NODE", "SLURM_NETWORK",
	"SLURM_NNODES", "SLURM_NODEID", "SLURM_NODELIST", "SLURM_NPROCS", "SLURM_NTASKS",
	"SLURM_NTASKS_PER_CORE", "SLURM_NTASKS_PER_GPU", "SLURM_NTASKS_PER_NODE",
	"SLURM_NTASKS_PER_SOCKET", "SLURM_OOMKILLSTEP", "SLURM_OVERCOMMIT", "SLURM_PRIO_PROCESS",
	"SLURM_PROCID", "SLURM_PROFILE", "SLURM_RESTART_COUNT", "SLURM_SHARDS_ON_NODE",
	"SLURM_SRUN_COMM_HOST", "SLURM_SRUN_COMM_PORT", "SLURM_STEPID", "SLURM_STEP_GPUS",
	"SLURM_STEP_ID", "SLURM_STEP_LAUNCHER_PORT", "SLURM_STEP_NODELIST", "SLURM_STEP_NUM_NODES",
	"SLURM_STEP_NUM_TASKS", "SLURM_STEP_TASKS_PER_NODE", "SLURM_SUBMIT_DIR",
	"SLURM_SUBMIT_HOST", "SLURM_TASKS_PER_NODE", "SLURM_TASK_PID", "SLURM_THREADS_PER_CORE",
	"SLURM_TOPOLOGY_ADDR", "SLURM_TOPOLOGY_ADDR_PATTERN", "SLURM_TRES_PER_TASK", "SLURM_UMASK",
};
static const char *const slurm_input[] = {
	"SLURM_ACCOUNT", "SLURM_ACCTG_FREQ", "SLURM_BCAST", "SLURM_BCAST_EXCLUDE",
	"SLURM_BURST_BUFFER", "SLURM_CLUSTERS", "SLURM_COMPRESS", "SLURM_CONF", "SLURM_CONSTRAINT",
	"SLURM_CORE_SPEC", "SLURM_CPU_BIND", "SLURM_DEBUG", "SLURM_DEBUG_FLAGS",
	"SLURM_DELAY_BOOT", "SLURM_DEPENDENCY", "SLURM_DISABLE_STATUS", "SLURM_EPILOG",
	"SLURM_EXACT", "SLURM_EXCLUSIVE", "SLURM_EXIT_ERROR", "SLURM_EXIT_IMMEDIATE",
	"SLURM_GPUS_PER_TASK", "SLURM_GRES", "SLURM_GRES_FLAGS", "SLURM_HINT", "SLURM_IMMEDIATE",
	"SLURM_KILL_BAD_EXIT", "SLURM_LABELIO", "SLURM_MPI_TYPE", "SLURM_NO_KILL",
	"SLURM_OPEN_MODE", "SLURM_OVERLAP", "SLURM_PARTITION", "SLURM_PMI_KVS_NO_DUP_KEYS",
	"SLURM_POWER", "SLURM_PROLOG", "SLURM_QOS", "SLURM_REMOTE_CWD", "SLURM_REQ_SWITCH",
	"SLURM_RESERVATION", "SLURM_RESV_PORTS", "SLURM_SEND_LIBS", "SLURM_SIGNAL",
	"SLURM_SPREAD_JOB", "SLURM_SRUN_REDUCE_TASK_EXIT_MSG", "SLURM_STEP_GRES",
	"SLURM_STEP_KILLED_MSG_NODE_ID", "SLURM_TASK_EPILOG", "SLURM_TASK_PROLOG",
	"SLURM_TEST_EXEC", "SLURM_THREADS", "SLURM_THREAD_SPEC", "SLURM_TIMELIMIT",
	"SLURM_TRES_BIND", "SLURM_UNBUFFEREDIO", "SLURM_USE_MIN_NODES", "SLURM_WAIT",
	"SLURM_WAIT4SWITCH", "SLURM_WCKEY", "SLURM_WORKING_DIR",
};
static const char *const sbatch_set[] = {
	"SBATCH_MEM_BIND", "SBATCH_MEM_BIND_LIST", "SBATCH_MEM_BIND_PREFER",
	"SBATCH_MEM_BIND_TYPE", "SBATCH_MEM_BIND_VERBOSE", "SBATCH_THREADS_PER_CORE",
};
static const char *const sbatch_input[] = {
	"SBATCH_ACCOUNT", "SBATCH_ACCTG_FREQ", "SBATCH_ARRAY_INX", "SBATCH_BATCH",
	"SBATCH_CLUSTERS", "SBATCH_CONSTRAINT", "SBATCH_CONTAINER", "SBATCH_CONTAINER_ID",
	"SBATCH_CORE_SPEC", "SBATCH_CPUS_PER_GPU", "SBATCH_DEBUG", "SBATCH_DELAY_BOOT",
	"SBATCH_DISTRIBUTION", "SBATCH_ERROR", "SBATCH_EXCLUSIVE", "SBATCH_EXPORT",
	"SBATCH_GET_USER_ENV", "SBATCH_GPUS", "SBATCH_GPUS_PER_NODE", "SBATCH_GPUS_PER_TASK",
	"SBATCH_GPU_BIND", "SBATCH_GPU_FREQ", "SBATCH_GRES", "SBATCH_GRES_FLAGS", "SBATCH_HINT",
	"SBATCH_IGNORE_PBS", "SBATCH_INPUT", "SBATCH_JOB_NAME", "SBATCH_MEM_PER_CPU",
	"SBATCH_MEM_PER_GPU", "SBATCH_MEM_PER_NODE", "SBATCH_NETWORK", "SBATCH_NO_KILL",
	"SBATCH_NO_REQUEUE", "SBATCH_OPEN_MODE", "SBATCH_OUTPUT", "SBATCH_OVERCOMMIT",
	"SBATCH_PARTITION", "SBATCH_POWER", "SBATCH_PROFILE", "SBATCH_QOS", "SBATCH_REQUEUE",
	"SBATCH_REQ_SWITCH", "SBATCH_RESERVATION", "SBATCH_SEGMENT_SIZE", "SBATCH_SIGNAL",
	"SBATCH_SPREAD_JOB", "SBATCH_THREAD_SPEC", "SBATCH_TIMELIMIT", "SBATCH_TRES_BIND",
	"SBATCH_TRES_PER_TASK", "SBATCH_USE_MIN_NODES", "SBATCH_WAIT", "SBATCH_WAIT4SWITCH",
	"SBATCH_WAIT_ALL_NODES", "SBATCH_WCKEY",
};
static const char *const srun_set[] = {
	"SRUN_DEBUG",
};
static const char *const srun_input[] = {
	"SRUN_CONTAINER", "SRUN_CONTAINER_ID", "SRUN_ERROR", "SRUN_EXPORT_ENV", "SRUN_INPUT",
	"SRUN_OUTPUT", "SRUN_SEGMENT_SIZE",
};
static const char *const slurmd_set[] = {
	"SLURMD_NODENAME",
};
static const char *const slurmd_input[] = {
	"SLURMD_DEBUG",
};

/* The names whose status is not their table's: removed, aborting, or
 * read by no release, each with the source that says so. The EFA
 * provider refuses its retired names in efa_env_param_get
 * (ofiwg/libfabric prov/efa/src/efa_env.c @
 * 37f360a6ee761fb498929475209e7d9b792393fc: "env variable detected! The
 * use of this variable has been deprecated and as such execution cannot
 * proceed", then abort()). */
static const struct env_note libfabric_notes[] = {
	{ "FI_EFA_MTU_SIZE", ENV_ABORTS, "libfabric's EFA provider",
	  "libfabric's prov/efa/src/efa_env.c" },
	{ "FI_EFA_RX_IOV_LIMIT", ENV_ABORTS, "libfabric's EFA provider",
	  "libfabric's prov/efa/src/efa_env.c" },
	{ "FI_EFA_SET_CUDA_SYNC_MEMOPS", ENV_NOT_READ, "libfabric 1.20",
	  "libfabric fi_efa(7); efa_env.c lists it among the deprecated names it only logs" },
	{ "FI_EFA_SHM_MAX_MEDIUM_SIZE", ENV_NOT_READ, "libfabric 1.17",
	  "libfabric's prov/efa/src/efa_env.c, which lists it as deprecated" },
	{ "FI_EFA_TX_IOV_LIMIT", ENV_ABORTS, "libfabric's EFA provider",
	  "libfabric's prov/efa/src/efa_env.c" },
};

static const struct env_note neuron_notes[] = {
	{ "NEURON_COMPILE_CACHE_DIR", ENV_NEVER, "any Neuron release",
	  "Neuron persistent cache (neuron-caching.rst): NEURON_COMPILE_CACHE_URL, or --cache_dir in NEURON_CC_FLAGS" },
};

#define COUNT(t) (sizeof t / sizeof t[0])
#define FAMILY(prefix, title, source, t) { prefix, title, source, t, COUNT(t), NULL, 0, false, ENV_READ }
#define NOTED(prefix, title, source, t, notes) \
	{ prefix, title, source, t, COUNT(t), notes, COUNT(notes), false, ENV_READ }
#define SLURM(prefix, t, status) \
	{ prefix, "Slurm", "the man pages of Slurm 25.11.7 (sbatch(1), srun(1), salloc(1))", t, COUNT(t), \
	  NULL, 0, true, status }
static const struct env_family_def families[ENV__COUNT] = {
	[ENV_NCCL] = FAMILY("NCCL_", "NCCL", "NCCL's user guide, Environment Variables", nccl),
	[ENV_LIBFABRIC] = NOTED("FI_", "libfabric", "libfabric's fi_efa(7), fabric(7) and the EFA provider's efa_env.c",
				libfabric, libfabric_notes),
	[ENV_NEURON] = NOTED("NEURON_", "Neuron", "the Neuron runtime configuration guide (2026-05-11)", neuron, neuron_notes),
	[ENV_CUDA] = FAMILY("CUDA_", "CUDA", "the CUDA programming guide, CUDA Environment Variables, and CUDA-GDB's GPU core dump support", cuda),
	[ENV_TORCH] = FAMILY("TORCH_", "PyTorch", "PyTorch's environment variables", torch),
	[ENV_TORCHELASTIC] = FAMILY("TORCHELASTIC_", "torchrun", "torch.distributed.elastic's sources", torchelastic),
	[ENV_GLIBC] = FAMILY("MALLOC_", "glibc", "glibc's manual, Memory Allocation Tunables", glibc),
	[ENV_SLURM] = SLURM("SLURM_", slurm_set, ENV_SET),
	[ENV_SLURM_INPUT] = SLURM("SLURM_", slurm_input, ENV_INPUT),
	[ENV_SBATCH] = SLURM("SBATCH_", sbatch_set, ENV_SET),
	[ENV_SBATCH_INPUT] = SLURM("SBATCH_", sbatch_input, ENV_INPUT),
	[ENV_SRUN] = SLURM("SRUN_", srun_set, ENV_SET),
	[ENV_SRUN_INPUT] = SLURM("SRUN_", srun_input, ENV_INPUT),
	[ENV_SLURMD] = SLURM("SLURMD_", slurmd_set, ENV_SET),
	[ENV_SLURMD_INPUT] = SLURM("SLURMD_", slurmd_input, ENV_INPUT),
};

/* Read by the dynamic loader of every program started (ld.so(8)). */
static const char *const loader[] = { "LD_PRELOAD" };

const struct env_family_def *env_family(enum env_family f)
{
	return f < ENV__COUNT ? &families[f] : NULL;
}

static bool has_prefix(const char *name, const struct env_family_def *f)
{
	return !strncmp(name, f->prefix, strlen(f->prefix));
}

const struct env_family_def *env_family_of(const char *name)
{
	for (int f = 0; f < ENV__COUNT; f++)
		if (has_prefix(name, &families[f]))
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

/* The family whose table holds name, or NULL. */
static const struct env_family_def *listing(const char *name)
{
	for (int f = 0; f < ENV__COUNT; f++)
		if (has_prefix(name, &families[f]) && in_table(families[f].names, families[f].n, name))
			return &families[f];
	return NULL;
}

bool env_known(const char *name)
{
	return listing(name) != NULL;
}

enum env_status env_status(const char *name, const struct env_note **note)
{
	const struct env_family_def *f = listing(name);
	if (note)
		*note = NULL;
	if (!f)
		return ENV_UNLISTED;
	for (size_t i = 0; i < f->n_notes; i++)
		if (!strcmp(f->notes[i].name, name)) {
			if (note)
				*note = &f->notes[i];
			return f->notes[i].status;
		}
	return f->listed;
}

bool env_slurm_known(const char *name)
{
	const struct env_family_def *f = listing(name);
	if (f && f->slurm)
		return true;
	/* SLURM_JOB_ID_HET_GROUP_1: a component's own value of a set name */
	const char *het = strstr(name, "_HET_GROUP_");
	if (!het || !het[11] || strspn(het + 11, "0123456789") != strlen(het + 11))
		return false;
	char base[128];
	size_t n = (size_t)(het - name);
	if (n >= sizeof base)
		return false;
	memcpy(base, name, n);
	base[n] = '\0';
	f = listing(base);
	return f && f->slurm && f->listed == ENV_SET;
}

bool env_read_by_workers(const char *name)
{
	for (size_t i = 0; i < sizeof loader / sizeof loader[0]; i++)
		if (!strcmp(name, loader[i]))
			return true;
	/* Slurm's names are read by srun and set by Slurm, not by the
	 * programs a launcher starts */
	const struct env_family_def *f = listing(name);
	return f && !f->slurm;
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
