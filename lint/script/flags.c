/* The flag tables of the launchers the model reads (srun, mpirun,
 * torchrun, neuron_parallel_compile, python, shells and wrappers such as
 * time and env): what each flag is called and how many values it takes,
 * so that "srun -N 2 torchrun --nnodes 2 train.py" splits into its parts
 * without guessing. The srun rows are the 131 options srun 22.05.8
 * registers with getopt, the options later releases added (to 26.05;
 * which release added or removed each is lint/slurm/changes.c's), and
 * the pyxis container options the corpus uses; the rest follow each
 * tool's documented usage. */
#include "flags.h"

#include <string.h>

#define F(name, sh, arity) { name, sh, arity, NULL }
#define FA(name, sh, arity, canon) { name, sh, arity, canon }

static const struct flagdef srun_defs[] = {
	F("accel-bind", 0, A_ONE),
	F("account", 'A', A_ONE),
	F("acctg-freq", 0, A_ONE),
	F("bb", 0, A_ONE),
	F("bbf", 0, A_ONE),
	F("bcast", 0, A_OPT),
	F("bcast-exclude", 0, A_ONE),
	F("begin", 'b', A_ONE),
	F("chdir", 'D', A_ONE),
	F("cluster", 0, A_ONE),
	F("cluster-constraint", 0, A_ONE),
	F("clusters", 'M', A_ONE),
	F("comment", 0, A_ONE),
	F("compress", 0, A_OPT),
	F("constraint", 'C', A_ONE),
	F("container", 0, A_ONE),
	F("context", 0, A_ONE),
	F("contiguous", 0, A_NONE),
	F("core-spec", 'S', A_ONE),
	F("cores-per-socket", 0, A_ONE),
	F("cpu-bind", 0, A_ONE),
	F("cpu-freq", 0, A_ONE),
	F("cpus-per-gpu", 0, A_ONE),
	F("cpus-per-task", 'c', A_ONE),
	F("deadline", 0, A_ONE),
	F("debugger-test", 0, A_NONE),
	F("delay-boot", 0, A_ONE),
	F("dependency", 'd', A_ONE),
	F("disable-status", 'X', A_NONE),
	F("distribution", 'm', A_ONE),
	F("epilog", 0, A_ONE),
	F("error", 'e', A_ONE),
	F("exact", 0, A_NONE),
	F("exclude", 'x', A_ONE),
	F("exclusive", 0, A_OPT),
	F("export", 0, A_ONE),
	F("extra-node-info", 'B', A_ONE),
	F("gid", 0, A_ONE),
	F("gpu-bind", 0, A_ONE),
	F("gpu-freq", 0, A_ONE),
	F("gpus", 'G', A_ONE),
	F("gpus-per-node", 0, A_ONE),
	F("gpus-per-socket", 0, A_ONE),
	F("gpus-per-task", 0, A_ONE),
	F("gres", 0, A_ONE),
	F("gres-flags", 0, A_ONE),
	F("help", 'h', A_NONE),
	F("het-group", 0, A_ONE),
	F("hint", 0, A_ONE),
	F("hold", 'H', A_NONE),
	F("immediate", 'I', A_OPT),
	F("input", 'i', A_ONE),
	F("interactive", 0, A_NONE),
	F("job-name", 'J', A_ONE),
	F("jobid", 0, A_ONE),
	F("kill-on-bad-exit", 'K', A_OPT),
	F("label", 'l', A_NONE),
	F("licenses", 'L', A_ONE),
	F("mail-type", 0, A_ONE),
	F("mail-user", 0, A_ONE),
	F("mcs-label", 0, A_ONE),
	F("mem", 0, A_ONE),
	F("mem-bind", 0, A_ONE),
	F("mem-per-cpu", 0, A_ONE),
	F("mem-per-gpu", 0, A_ONE),
	F("mincpus", 0, A_ONE),
	F("mpi", 0, A_ONE),
	F("msg-timeout", 0, A_ONE),
	F("multi-prog", 0, A_NONE),
	F("network", 0, A_ONE),
	F("nice", 0, A_OPT),
	F("no-allocate", 'Z', A_NONE),
	F("no-kill", 'k', A_OPT),
	F("nodefile", 'F', A_ONE),
	F("nodelist", 'w', A_ONE),
	F("nodes", 'N', A_ONE),
	F("ntasks", 'n', A_ONE),
	F("ntasks-per-core", 0, A_ONE),
	F("ntasks-per-gpu", 0, A_ONE),
	F("ntasks-per-node", 0, A_ONE),
	F("ntasks-per-socket", 0, A_ONE),
	F("ntasks-per-tres", 0, A_ONE),
	F("open-mode", 0, A_ONE),
	F("output", 'o', A_ONE),
	F("overcommit", 'O', A_NONE),
	F("overlap", 0, A_OPT),
	F("oversubscribe", 's', A_NONE),
	F("pack-group", 0, A_ONE),
	F("partition", 'p', A_ONE),
	F("power", 0, A_ONE),
	F("prefer", 0, A_ONE),
	F("preserve-env", 'E', A_NONE),
	F("priority", 0, A_ONE),
	F("profile", 0, A_ONE),
	F("prolog", 0, A_ONE),
	F("propagate", 0, A_OPT),
	F("pty", 0, A_NONE),
	F("qos", 'q', A_ONE),
	F("quiet", 'Q', A_NONE),
	F("quit-on-interrupt", 0, A_NONE),
	F("reboot", 0, A_NONE),
	F("relative", 'r', A_ONE),
	F("reservation", 0, A_ONE),
	F("resv-ports", 0, A_OPT),
	F("send-libs", 0, A_OPT),
	F("signal", 0, A_ONE),
	F("slurmd-debug", 0, A_ONE),
	F("sockets-per-node", 0, A_ONE),
	F("spread-job", 0, A_NONE),
	F("switches", 0, A_ONE),
	F("task-epilog", 0, A_ONE),
	F("task-prolog", 0, A_ONE),
	FA("tasks-per-node", 0, A_ONE, "ntasks-per-node"),
	F("test-only", 0, A_NONE),
	F("thread-spec", 0, A_ONE),
	F("threads", 'T', A_ONE),
	F("threads-per-core", 0, A_ONE),
	F("time", 't', A_ONE),
	F("time-min", 0, A_ONE),
	F("tmp", 0, A_ONE),
	F("uid", 0, A_ONE),
	F("unbuffered", 'u', A_NONE),
	F("usage", 0, A_NONE),
	F("use-min-nodes", 0, A_NONE),
	F("verbose", 'v', A_NONE),
	F("version", 'V', A_NONE),
	F("wait", 'W', A_ONE),
	F("wckey", 0, A_ONE),
	F("whole", 0, A_NONE),
	F("x11", 0, A_OPT),
	/* added after 22.05 */
	F("async", 0, A_NONE),
	F("autocomplete", 0, A_ONE),
	F("consolidate-segments", 0, A_NONE),
	F("container-id", 0, A_ONE),
	F("external-launcher", 0, A_NONE),
	F("extra", 0, A_ONE),
	F("oom-kill-step", 0, A_OPT),
	F("resources", 0, A_ONE),
	F("segment", 0, A_ONE),
	F("spread-segments", 0, A_NONE),
	F("stepmgr", 0, A_NONE),
	F("treewidth", 0, A_ONE),
	F("tres-bind", 0, A_ONE),
	F("tres-per-task", 0, A_ONE),
	F("wait-for-children", 0, A_NONE),
	/* pyxis (NVIDIA's container plugin), as used on ParallelCluster */
	F("container-env", 0, A_ONE),
	F("container-image", 0, A_ONE),
	F("container-mount-home", 0, A_NONE),
	F("container-mounts", 0, A_ONE),
	F("container-name", 0, A_ONE),
	F("container-readonly", 0, A_NONE),
	F("container-remap-root", 0, A_NONE),
	F("container-save", 0, A_ONE),
	F("container-workdir", 0, A_ONE),
	F("container-writable", 0, A_NONE),
	F("container-entrypoint", 0, A_NONE),
	F("no-container-entrypoint", 0, A_NONE),
	F("no-container-mount-home", 0, A_NONE),
	F("no-container-remap-root", 0, A_NONE),
};

/* Open MPI and MPICH/Hydra spellings; single-dash long names included. */
static const struct flagdef mpirun_defs[] = {
	FA("n", 0, A_ONE, "np"), FA("np", 0, A_ONE, NULL), FA("c", 0, A_ONE, "np"),
	FA("N", 0, A_ONE, "npernode"), FA("npernode", 0, A_ONE, NULL), FA("ppn", 0, A_ONE, "npernode"),
	FA("npersocket", 0, A_ONE, NULL), FA("H", 0, A_ONE, "host"), FA("host", 0, A_ONE, NULL),
	FA("hosts", 0, A_ONE, "host"), FA("hostfile", 0, A_ONE, NULL),
	FA("machinefile", 0, A_ONE, "hostfile"), FA("f", 0, A_ONE, "hostfile"), F("map-by", 0, A_ONE), F("bind-to", 0, A_ONE),
	F("rank-by", 0, A_ONE), F("x", 0, A_ONE), F("prefix", 0, A_ONE),
	F("wdir", 0, A_ONE), F("wd", 0, A_ONE), F("output-filename", 0, A_ONE),
	F("bootstrap", 0, A_ONE), F("launcher", 0, A_ONE), F("genvlist", 0, A_ONE),
	F("mca", 0, A_TWO), F("gmca", 0, A_TWO), F("genv", 0, A_TWO), F("env", 0, A_TWO),
	F("oversubscribe", 0, A_NONE), F("allow-run-as-root", 0, A_NONE),
	F("report-bindings", 0, A_NONE), F("tag-output", 0, A_NONE),
	F("timestamp-output", 0, A_NONE), F("display-map", 0, A_NONE),
	F("v", 0, A_NONE), F("verbose", 0, A_NONE), F("q", 0, A_NONE),
	F("quiet", 0, A_NONE), F("noprefix", 0, A_NONE), F("genvall", 0, A_NONE),
	F("use-hwthread-cpus", 0, A_NONE), F("prepend-rank", 0, A_NONE),
	F("l", 0, A_NONE),
};

/* torch.distributed.run (torchrun) and torch.distributed.launch. */
static const struct flagdef torchrun_defs[] = {
	F("nnodes", 0, A_ONE), F("nproc-per-node", 0, A_ONE), F("node-rank", 0, A_ONE),
	F("master-addr", 0, A_ONE), F("master-port", 0, A_ONE), F("local-addr", 0, A_ONE),
	F("rdzv-backend", 0, A_ONE), F("rdzv-endpoint", 0, A_ONE), F("rdzv-id", 0, A_ONE),
	F("rdzv-conf", 0, A_ONE), F("standalone", 0, A_NONE), F("max-restarts", 0, A_ONE),
	F("monitor-interval", 0, A_ONE), F("start-method", 0, A_ONE), F("role", 0, A_ONE),
	F("module", 'm', A_NONE), F("no-python", 0, A_NONE), F("run-path", 0, A_NONE),
	F("log-dir", 0, A_ONE), F("redirects", 'r', A_ONE), F("tee", 't', A_ONE),
	F("local-ranks-filter", 0, A_ONE), F("logs-specs", 0, A_ONE),
	F("use-env", 0, A_NONE), F("numa-binding", 0, A_ONE),
	F("event-log-handler", 0, A_ONE), F("signals-to-handle", 0, A_ONE),
	F("virtual-local-rank", 0, A_NONE), F("omp-num-threads", 0, A_ONE),
};

/* accelerate launch (accelerate/commands/launch.py, launch_command_parser;
 * hyphens and underscores alike). Its rank, node-count and rendezvous
 * flags carry torchrun's names, which they are passed on as;
 * --num_processes counts the processes of all machines. */
static const struct flagdef accelerate_defs[] = {
	F("help", 'h', A_NONE), F("config-file", 0, A_ONE), F("quiet", 'q', A_NONE),
	F("cpu", 0, A_NONE), F("multi-gpu", 0, A_NONE), F("tpu", 0, A_NONE), F("ipex", 0, A_NONE),
	F("mixed-precision", 0, A_ONE), F("num-processes", 0, A_ONE),
	FA("num-machines", 0, A_ONE, "nnodes"), F("num-cpu-threads-per-process", 0, A_ONE),
	F("enable-cpu-affinity", 0, A_NONE), F("dynamo-backend", 0, A_ONE),
	F("dynamo-mode", 0, A_ONE), F("dynamo-use-fullgraph", 0, A_NONE),
	F("dynamo-use-dynamic", 0, A_NONE), F("use-deepspeed", 0, A_NONE), F("use-fsdp", 0, A_NONE),
	F("use-megatron-lm", 0, A_NONE), F("use-xpu", 0, A_NONE), F("gpu-ids", 0, A_ONE),
	F("same-network", 0, A_NONE), FA("machine-rank", 0, A_ONE, "node-rank"),
	FA("main-process-ip", 0, A_ONE, "master-addr"),
	FA("main-process-port", 0, A_ONE, "master-port"), F("tee", 't', A_ONE),
	F("log-dir", 0, A_ONE), F("role", 0, A_ONE), F("rdzv-backend", 0, A_ONE),
	F("rdzv-conf", 0, A_ONE), F("max-restarts", 0, A_ONE), F("monitor-interval", 0, A_ONE),
	F("module", 'm', A_NONE), F("no-python", 0, A_NONE), F("tpu-cluster", 0, A_NONE),
	F("no-tpu-cluster", 0, A_NONE), F("tpu-use-sudo", 0, A_NONE), F("vm", 0, A_ONE),
	F("env", 0, A_ONE), F("main-training-function", 0, A_ONE), F("downcast-bf16", 0, A_NONE),
	F("deepspeed-config-file", 0, A_ONE), F("zero-stage", 0, A_ONE),
	F("offload-optimizer-device", 0, A_ONE), F("offload-param-device", 0, A_ONE),
	F("offload-optimizer-nvme-path", 0, A_ONE), F("offload-param-nvme-path", 0, A_ONE),
	F("gradient-accumulation-steps", 0, A_ONE), F("gradient-clipping", 0, A_ONE),
	F("zero3-init-flag", 0, A_ONE), F("zero3-save-16bit-model", 0, A_ONE),
	F("deepspeed-hostfile", 0, A_ONE), F("deepspeed-exclusion-filter", 0, A_ONE),
	F("deepspeed-inclusion-filter", 0, A_ONE), F("deepspeed-multinode-launcher", 0, A_ONE),
	F("deepspeed-moe-layer-cls-names", 0, A_ONE), F("fsdp-offload-params", 0, A_ONE),
	F("fsdp-min-num-params", 0, A_ONE), F("fsdp-sharding-strategy", 0, A_ONE),
	F("fsdp-auto-wrap-policy", 0, A_ONE), F("fsdp-transformer-layer-cls-to-wrap", 0, A_ONE),
	F("fsdp-backward-prefetch-policy", 0, A_ONE), F("fsdp-backward-prefetch", 0, A_ONE),
	F("fsdp-state-dict-type", 0, A_ONE), F("fsdp-forward-prefetch", 0, A_ONE),
	F("fsdp-use-orig-params", 0, A_ONE), F("fsdp-cpu-ram-efficient-loading", 0, A_ONE),
	F("fsdp-sync-module-states", 0, A_ONE), F("fsdp-activation-checkpointing", 0, A_ONE),
	F("fsdp-version", 0, A_ONE), F("megatron-lm-tp-degree", 0, A_ONE),
	F("megatron-lm-pp-degree", 0, A_ONE), F("megatron-lm-num-micro-batches", 0, A_ONE),
	F("megatron-lm-sequence-parallelism", 0, A_ONE),
	F("megatron-lm-recompute-activations", 0, A_ONE),
	F("megatron-lm-use-distributed-optimizer", 0, A_ONE),
	F("megatron-lm-gradient-clipping", 0, A_ONE), F("fp8-backend", 0, A_ONE),
	F("fp8-use-autocast-during-eval", 0, A_NONE), F("fp8-margin", 0, A_ONE),
	F("fp8-interval", 0, A_ONE), F("fp8-format", 0, A_ONE), F("fp8-amax-history-len", 0, A_ONE),
	F("fp8-amax-compute-algo", 0, A_ONE), F("fp8-override-linear-precision", 0, A_ONE),
	F("fp8-opt-level", 0, A_ONE), F("aws-access-key-id", 0, A_ONE),
	F("aws-secret-access-key", 0, A_ONE), F("debug", 0, A_NONE),
	F("mpirun-hostfile", 0, A_ONE), F("mpirun-ccl", 0, A_ONE),
};

/* The deepspeed runner (deepspeed/launcher/runner.py, parse_args): with
 * a hostfile it starts every node itself (pdsh by default). */
static const struct flagdef deepspeed_defs[] = {
	F("hostfile", 'H', A_ONE), F("include", 'i', A_ONE), F("exclude", 'e', A_ONE),
	FA("num-nodes", 0, A_ONE, "nnodes"), F("min-elastic-nodes", 0, A_ONE),
	F("max-elastic-nodes", 0, A_ONE), FA("num-gpus", 0, A_ONE, "nproc-per-node"),
	FA("num-accelerators", 0, A_ONE, "nproc-per-node"), F("master-port", 0, A_ONE),
	F("master-addr", 0, A_ONE), F("launcher", 0, A_ONE), F("launcher-args", 0, A_ONE),
	F("module", 0, A_NONE), F("no-python", 0, A_NONE), F("no-local-rank", 0, A_NONE),
	F("no-ssh-check", 0, A_NONE), F("no-ssh", 0, A_NONE), F("force-multi", 0, A_NONE),
	F("save-pid", 0, A_NONE), F("enable-each-rank-log", 0, A_ONE), F("autotuning", 0, A_ONE),
	F("elastic-training", 0, A_NONE), F("bind-cores-to-rank", 0, A_NONE),
	F("bind-core-list", 0, A_ONE), F("ssh-port", 0, A_ONE), F("help", 'h', A_NONE),
};

/* OpenSSH's ssh(1): the letters that take an argument, and those that
 * do not. */
static const struct flagdef ssh_defs[] = {
	F("B", 'B', A_ONE), F("b", 'b', A_ONE), F("c", 'c', A_ONE), F("D", 'D', A_ONE),
	F("E", 'E', A_ONE), F("e", 'e', A_ONE), F("F", 'F', A_ONE), F("I", 'I', A_ONE),
	F("i", 'i', A_ONE), F("J", 'J', A_ONE), F("L", 'L', A_ONE), F("l", 'l', A_ONE),
	F("m", 'm', A_ONE), F("O", 'O', A_ONE), F("o", 'o', A_ONE), F("p", 'p', A_ONE),
	F("Q", 'Q', A_ONE), F("R", 'R', A_ONE), F("S", 'S', A_ONE), F("W", 'W', A_ONE),
	F("w", 'w', A_ONE), F("4", '4', A_NONE), F("6", '6', A_NONE), F("A", 'A', A_NONE),
	F("a", 'a', A_NONE), F("C", 'C', A_NONE), F("f", 'f', A_NONE), F("G", 'G', A_NONE),
	F("g", 'g', A_NONE), F("K", 'K', A_NONE), F("k", 'k', A_NONE), F("M", 'M', A_NONE),
	F("N", 'N', A_NONE), F("n", 'n', A_NONE), F("q", 'q', A_NONE), F("s", 's', A_NONE),
	F("T", 'T', A_NONE), F("t", 't', A_NONE), F("V", 'V', A_NONE), F("v", 'v', A_NONE),
	F("X", 'X', A_NONE), F("x", 'x', A_NONE), F("Y", 'Y', A_NONE), F("y", 'y', A_NONE),
};

/* pdsh(1): -w HOSTS runs the command on all of them at once. */
static const struct flagdef pdsh_defs[] = {
	FA("w", 'w', A_ONE, "hosts"), F("x", 'x', A_ONE), F("R", 'R', A_ONE), F("l", 'l', A_ONE),
	F("t", 't', A_ONE), F("u", 'u', A_ONE), F("f", 'f', A_ONE), F("g", 'g', A_ONE),
	F("X", 'X', A_ONE), F("e", 'e', A_ONE), F("m", 'm', A_ONE), F("N", 'N', A_NONE),
	F("b", 'b', A_NONE), F("S", 'S', A_NONE), F("k", 'k', A_NONE), F("q", 'q', A_NONE),
	F("a", 'a', A_NONE), F("A", 'A', A_NONE), F("d", 'd', A_NONE), F("s", 's', A_NONE),
	F("L", 'L', A_NONE), F("V", 'V', A_NONE), F("h", 'h', A_NONE),
};

static const struct flagdef npc_defs[] = {
	F("num-parallel", 0, A_ONE), F("command", 0, A_ONE), F("cache-dir", 0, A_ONE),
};

#define SET(defs, sh, sdl) { defs, sizeof defs / sizeof defs[0], sh, sdl }

const struct flagset sbf_srun = SET(srun_defs, true, false);
const struct flagset sbf_mpirun = SET(mpirun_defs, false, true);
const struct flagset sbf_torchrun = SET(torchrun_defs, true, false);
const struct flagset sbf_npc = SET(npc_defs, false, false);
const struct flagset sbf_accelerate = SET(accelerate_defs, true, false);
const struct flagset sbf_deepspeed = SET(deepspeed_defs, true, false);
const struct flagset sbf_ssh = SET(ssh_defs, true, false);
const struct flagset sbf_pdsh = SET(pdsh_defs, true, false);
const struct flagset sbf_none = { NULL, 0, false, false };

/* ---- wrappers ---- */

static const struct flagdef time_defs[] = {
	F("p", 'p', A_NONE), F("portability", 0, A_NONE), F("v", 'v', A_NONE),
	F("verbose", 0, A_NONE), F("a", 'a', A_NONE), F("append", 0, A_NONE),
	F("q", 'q', A_NONE), F("quiet", 0, A_NONE), F("f", 'f', A_ONE),
	F("format", 0, A_ONE), F("o", 'o', A_ONE), F("output", 0, A_ONE),
};
static const struct flagdef env_defs[] = {
	F("i", 'i', A_NONE), F("ignore-environment", 0, A_NONE), F("0", '0', A_NONE),
	F("u", 'u', A_ONE), F("unset", 0, A_ONE), F("C", 'C', A_ONE), F("chdir", 0, A_ONE),
	F("v", 'v', A_NONE),
};
static const struct flagdef exec_defs[] = {
	F("c", 'c', A_NONE), F("l", 'l', A_NONE), F("a", 'a', A_ONE),
};
static const struct flagdef command_defs[] = {
	F("p", 'p', A_NONE), F("v", 'v', A_NONE), F("V", 'V', A_NONE),
};
static const struct flagdef nice_defs[] = { F("n", 'n', A_ONE), F("adjustment", 0, A_ONE) };
static const struct flagdef timeout_defs[] = {
	F("s", 's', A_ONE), F("signal", 0, A_ONE), F("k", 'k', A_ONE),
	F("kill-after", 0, A_ONE), F("preserve-status", 0, A_NONE),
	F("foreground", 0, A_NONE), F("v", 'v', A_NONE), F("verbose", 0, A_NONE),
};
static const struct flagdef stdbuf_defs[] = {
	F("i", 'i', A_ONE), F("o", 'o', A_ONE), F("e", 'e', A_ONE),
	F("input", 0, A_ONE), F("output", 0, A_ONE), F("error", 0, A_ONE),
};
static const struct flagdef numactl_defs[] = {
	F("N", 'N', A_ONE), F("cpunodebind", 0, A_ONE), F("m", 'm', A_ONE),
	F("membind", 0, A_ONE), F("C", 'C', A_ONE), F("physcpubind", 0, A_ONE),
	F("p", 'p', A_ONE), F("preferred", 0, A_ONE), F("i", 'i', A_ONE),
	F("interleave", 0, A_ONE), F("l", 'l', A_NONE), F("localalloc", 0, A_NONE),
	F("a", 'a', A_NONE), F("all", 0, A_NONE),
};
static const struct flagdef taskset_defs[] = {
	F("a", 'a', A_NONE), F("all-tasks", 0, A_NONE), F("c", 'c', A_NONE),
	F("cpu-list", 0, A_NONE),
};
static const struct flagdef sudo_defs[] = {
	F("u", 'u', A_ONE), F("user", 0, A_ONE), F("g", 'g', A_ONE), F("group", 0, A_ONE),
	F("E", 'E', A_NONE), F("preserve-env", 0, A_OPT), F("H", 'H', A_NONE),
	F("n", 'n', A_NONE), F("i", 'i', A_NONE), F("s", 's', A_NONE),
};

static const struct wrapdef wrappers[] = {
	{ "command", SET(command_defs, true, false), 0, false, "vV" },
	{ "env", SET(env_defs, true, false), 0, true, NULL },
	{ "exec", SET(exec_defs, true, false), 0, false, NULL },
	{ "nice", SET(nice_defs, true, false), 0, false, NULL },
	{ "nohup", { NULL, 0, false, false }, 0, false, NULL },
	{ "numactl", SET(numactl_defs, true, false), 0, false, NULL },
	{ "stdbuf", SET(stdbuf_defs, true, false), 0, false, NULL },
	{ "sudo", SET(sudo_defs, true, false), 0, false, NULL },
	{ "taskset", SET(taskset_defs, true, false), 1, false, NULL },
	{ "time", SET(time_defs, true, false), 0, false, NULL },
	{ "timeout", SET(timeout_defs, true, false), 1, false, NULL },
};

static const struct { const char *name; enum pclass pc; } programs[] = {
	{ "srun", PC_SRUN },
	{ "mpirun", PC_MPIRUN }, { "mpiexec", PC_MPIRUN }, { "orterun", PC_MPIRUN },
	{ "mpirun.openmpi", PC_MPIRUN }, { "mpiexec.hydra", PC_MPIRUN },
	{ "mpirun.mpich", PC_MPIRUN }, { "mpiexec.openmpi", PC_MPIRUN },
	{ "torchrun", PC_TORCHRUN },
	{ "neuron_parallel_compile", PC_NPC },
	{ "deepspeed", PC_DEEPSPEED }, { "accelerate", PC_ACCELERATE },
	{ "accelerate-launch", PC_ACCELERATE }, { "composer", PC_LAUNCHER },
	{ "horovodrun", PC_LAUNCHER }, { "nccom-test", PC_LAUNCHER },
	{ "ssh", PC_SSH }, { "pdsh", PC_PDSH },
	{ "bash", PC_SHELL }, { "sh", PC_SHELL }, { "dash", PC_SHELL }, { "zsh", PC_SHELL },
	{ "ksh", PC_SHELL },
};

void sbf_normalize(const char *name, size_t len, char *out, size_t cap)
{
	while (len && *name == '-')
		name++, len--;
	size_t n = len < cap - 1 ? len : cap - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = name[i] == '_' ? '-' : name[i];
	out[n] = '\0';
}

const struct flagdef *sbf_long(const struct flagset *fs, const char *norm)
{
	/* Table names are written normalized already. */
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->defs[i].name, norm) == 0)
			return &fs->defs[i];
	return NULL;
}

const struct flagdef *sbf_short(const struct flagset *fs, char c)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->defs[i].sh == c)
			return &fs->defs[i];
	return NULL;
}

const char *sbf_basename(const char *value)
{
	const char *slash = strrchr(value, '/');
	return slash ? slash + 1 : value;
}

static bool is_python(const char *b)
{
	if (strncmp(b, "python", 6) != 0)
		return false;
	for (const char *c = b + 6; *c; c++)
		if (!((*c >= '0' && *c <= '9') || *c == '.'))
			return false;
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

enum pclass sbf_classify(const char *value, const struct wrapdef **wrap)
{
	*wrap = NULL;
	if (!value || !*value)
		return PC_OTHER;
	const char *b = sbf_basename(value);
	for (size_t i = 0; i < sizeof wrappers / sizeof wrappers[0]; i++)
		if (strcmp(b, wrappers[i].name) == 0) {
			*wrap = &wrappers[i];
			return PC_WRAPPER;
		}
	for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
		if (strcmp(b, programs[i].name) == 0)
			return programs[i].pc;
	if (is_python(b))
		return PC_PYTHON;
	if (ends_with(b, ".sh") || ends_with(b, ".bash"))
		return PC_SCRIPT;
	return PC_OTHER;
}
