/* Batch script rules (SB, and shellcheck's SC codes), one line a case,
 * one test per area of rules.def. SB3xxx cases pair the script with a
 * cluster config of the same run, the way `trainforge lint cluster.yaml
 * job.sbatch` pairs them. tests/unit/rules_verify.h says how a case runs. */
#include "rules_verify.h"

/* A batch script: #SBATCH lines, then the body after `set -euo pipefail`. */
#define SCRIPT(directives, body) "#!/bin/bash\n" directives "set -euo pipefail\n" body
#define NODES(n) "#SBATCH --nodes=" #n "\n#SBATCH --ntasks-per-node=1\n"
#define HEAD_IP "head_ip=$(hostname -I | awk '{print $1}')\n"
#define RDZV " --rdzv_id=\"$SLURM_JOB_ID\" --rdzv_backend=c10d --rdzv_endpoint=\"$head_ip:29500\""
/* torchrun on two nodes of eight processes each, started by srun. */
#define LAUNCH(args) HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV " /fsx/train.py" args "\n"
#define JOB(directives, body) SCRIPT(NODES(2) directives, body)
#define CLEAN JOB("", LAUNCH(""))
/* A Neuron job on two trn2 nodes with the EFA variables it needs. */
#define EFA_VARS "export FI_PROVIDER=efa\nexport FI_EFA_USE_DEVICE_RDMA=1\n"
#define NEURON(env)                                                                        \
	JOB("", EFA_VARS env HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=32" RDZV \
	    " /fsx/train.py\n")
/* An elastic job of two to four nodes; flags for sbatch, srun, torchrun. */
#define ELASTIC(sbatch, srun, torchrun)                                                  \
	SCRIPT(NODES(4) sbatch, HEAD_IP "srun" srun " torchrun --nnodes=2:4" torchrun    \
	       " --nproc_per_node=8" RDZV " /fsx/train.py\n")
#define CLUSTER VERIFY_CLUSTER_HEAD VERIFY_QUEUE
#define TRN2_TARGET "export NEURON_CC_FLAGS=\"--target=trn2\"\n"
/* A cluster of one Trainium queue on os. */
#define TRN_CLUSTER(os, type)                                                                  \
	VERIFY_CLUSTER_HEAD_IMAGE("{Os: " os "}")                                              \
	"    - Name: train\n"                                                                  \
	"      Networking: {SubnetIds: [subnet-0fedcba9876543210], PlacementGroup: {Enabled: true}}\n" \
	"      ComputeResources:\n"                                                            \
	"        - {Name: trn, InstanceType: " type ", MaxCount: 4, Efa: {Enabled: true}}\n"

static void sb_text(void **state)
{
	(void)state;
	verify(R_SB0001, SCRIPT(NODES(2) "echo starting\n#SBATCH --time=2-00:00:00\n", LAUNCH("")));
	verify_not(R_SB0001, SCRIPT(NODES(2) "#SBATCH --time=2-00:00:00\n", LAUNCH("")));
	verify(R_SB0002, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8 \\\n"
					 "    --rdzv_backend=c10d\n    --rdzv_endpoint=\"$head_ip:29500\" \\\n"
					 "    /fsx/train.py\n"));
	verify_not(R_SB0002, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8 \\\n"
					     "    --rdzv_backend=c10d \\\n    --rdzv_endpoint=\"$head_ip:29500\" \\\n"
					     "    /fsx/train.py\n"));
	/* U+2013, an en dash from a web page, in front of a flag */
	verify(R_SB0004, JOB("", LAUNCH(" \xe2\x80\x93-epochs 3")));
	verify_not(R_SB0004, JOB("", LAUNCH(" --epochs 3")));
	/* and in an #SBATCH line, which sbatch reads */
	verify(R_SB0004, JOB("#SBATCH --job-name=tr\xe2\x80\x93" "ain\n", LAUNCH("")));
	verify(R_SB0005, JOB("", "echo \"never closed\n" LAUNCH("")));
	verify_not(R_SB0005, JOB("", "echo \"closed\"\n" LAUNCH("")));
	/* in an array the escaped space is a word; in quotes the backslash stays */
	verify(R_SB0003, JOB("", "ARGS=(--lr 1 \\ # note\n --wd 0)\n" LAUNCH(" \"${ARGS[@]}\"")));
	verify(R_SB0003, JOB("", "ARGS=\"--lr 1 \\  \n --wd 0\"\n" LAUNCH(" $ARGS")));
	verify_not(R_SB0003, JOB("", "ARGS=\"--lr 1 \\\n --wd 0\"\n" LAUNCH(" $ARGS")));
}

static void sb_hygiene(void **state)
{
	(void)state;
	verify(R_SB0010, "\n" SCRIPT(NODES(2), LAUNCH("")));
	verify(R_SB0010, "# launch\n" SCRIPT(NODES(2), LAUNCH("")));
	verify_not(R_SB0010, CLEAN);
	verify(R_SB0011, "#!/bin/sh\n" NODES(2) "source /fsx/env.sh\n" LAUNCH(""));
	verify_not(R_SB0011, "#!/bin/sh\n" NODES(2) ". /fsx/env.sh\n" LAUNCH(""));
	/* sh is bash on Amazon Linux */
	verify_pair_not(R_SB0011, CLUSTER, "#!/bin/sh\n" NODES(2) "#SBATCH --partition=train\nsource /fsx/env.sh\n" LAUNCH(""));
	verify(R_SB0012, JOB("", "mkdir -p \"$OUT\"\nOUT=/fsx/out\n" LAUNCH("")));
	verify_not(R_SB0012, JOB("", "OUT=/fsx/out\nmkdir -p \"$OUT\"\n" LAUNCH("")));
	verify_not(R_SB0012, JOB("", "export PATH=/opt/bin:$PATH\nexport PATH=/opt/x:$PATH\n" LAUNCH("")));
}

static void sb_options(void **state)
{
	(void)state;
	verify(R_SB1001, JOB("#SBATCH --gpu-per-node=8\n", LAUNCH("")));
	verify_not(R_SB1001, JOB("#SBATCH --gpus-per-node=8\n", LAUNCH("")));
	verify(R_SB1002, JOB("#SBATCH --time=48h\n", LAUNCH("")));
	verify_not(R_SB1002, JOB("#SBATCH --time=2-00:00:00\n", LAUNCH("")));
	/* a suppression on its own line covers the #SBATCH line below it */
	verify_not(R_SB1002, JOB("# trainforge disable=SB1002 # site format\n#SBATCH --time=48h\n",
				 LAUNCH("")));
}

static void sb_launch(void **state)
{
	(void)state;
	verify(R_SB2001, JOB("", "python /fsx/train.py\n"));
	verify_not(R_SB2001, CLEAN);
	verify(R_SB2002, "#!/bin/bash\n#SBATCH --nodes=2\ntorchrun train.py\n");
	verify(R_SB2002, JOB("", HEAD_IP "torchrun --nnodes=2 --nproc_per_node=8" RDZV " /fsx/train.py\n"));
	verify_not(R_SB2002, CLEAN);
	verify(R_SB2005, JOB("", "srun torchrun --nnodes=2 --nproc_per_node=8 /fsx/train.py\n"));
	verify_not(R_SB2005, CLEAN);
	verify(R_SB2008, JOB("", "export MASTER_PORT=$RANDOM\n" LAUNCH("")));
	verify_not(R_SB2008, JOB("", "export MASTER_PORT=$((29500 + SLURM_JOB_ID % 1000))\n" LAUNCH("")));
}

static void sb_order(void **state)
{
	(void)state;
	verify(R_SB2010, JOB("", "for n in $(scontrol show hostnames \"$SLURM_JOB_NODELIST\"); do\n"
			     "  ssh \"$n\" torchrun --nnodes=2 --nproc_per_node=8 --master_addr=h /fsx/train.py\ndone\n"));
	verify_not(R_SB2010, JOB("", "for n in $(scontrol show hostnames \"$SLURM_JOB_NODELIST\"); do\n"
				 "  ssh \"$n\" torchrun --nnodes=2 --nproc_per_node=8 --master_addr=h /fsx/train.py &\n"
				 "done\nwait\n"));
	/* the job ends with the script: a launch left in the background */
	verify(R_SB2014, JOB("", LAUNCH(" &") "echo started\n"));
	verify_not(R_SB2014, JOB("", LAUNCH(" &") "echo started\nwait\n"));
	verify_not(R_SB2014, JOB("", "srun --overlap hostname &\n" LAUNCH("")));
	verify_not(R_SB2014, CLEAN);
}

static void sb_env(void **state)
{
	(void)state;
	verify(R_SB2101, JOB("", "export NEURON_COMPILE_CACHE_URL=/fsx/neuron-cache\n" HEAD_IP
			     "srun torchrun --nnodes=2 --nproc_per_node=32" RDZV " /fsx/train.py\n"));
	verify_not(R_SB2101, NEURON("export NEURON_COMPILE_CACHE_URL=/fsx/neuron-cache\n"));
	verify(R_SB2104, NEURON("export NEURON_COMPILE_CACHE_DIR=/fsx/neuron-cache\n"));
	verify_not(R_SB2104, NEURON("export NEURON_COMPILE_CACHE_URL=/fsx/neuron-cache\n"));
	verify(R_SB2105, NEURON("export NEURON_COMPILE_CACHE_URL=/var/tmp/neuron-compile-cache\n"));
	verify_not(R_SB2105, NEURON("export NEURON_COMPILE_CACHE_URL=s3://bucket/neuron-cache\n"));
	/* a near miss of a name libfabric reads; the script's own names are not knobs */
	verify(R_SB2103, JOB("", "export FI_EFA_USE_DEVICE_RDAM=1\n" LAUNCH("")));
	verify_not(R_SB2103, JOB("", "export FI_EFA_USE_DEVICE_RDMA=1\nexport NCCL_HOME=/opt/nccl\n" LAUNCH("")));
	verify(R_SB2106, JOB("", "export NCCL_DEBUG_SUBSYS=ALL\n" LAUNCH("")));
	verify_not(R_SB2106, JOB("", "export NCCL_DEBUG_SUBSYS=INIT,NET\n" LAUNCH("")));
	/* the socket knobs only matter off EFA */
	verify(R_SB2106, JOB("", "export FI_PROVIDER=efa\nexport NCCL_NSOCKS_PERTHREAD=4\n" LAUNCH("")));
	verify_not(R_SB2106, JOB("", "export NCCL_NSOCKS_PERTHREAD=4\n" LAUNCH("")));
	/* --target=trn2 tells the default the runtime falls back to */
	verify(R_SB2107, NEURON("export NEURON_CC_FLAGS=\"--target=trn2 -lnc=1\"\n"));
	verify_not(R_SB2107, NEURON("export NEURON_CC_FLAGS=\"--target=trn2 -lnc=1\"\n"
				    "export NEURON_LOGICAL_NC_CONFIG=1\n"));
	verify(R_SB2124, NEURON("export NEURON_COMPILE_CACHE_URL=\"/fsx/cache/$HOSTNAME\"\n"));
	verify_not(R_SB2124, NEURON("export NEURON_COMPILE_CACHE_URL=\"/fsx/cache/$USER\"\n"));
	verify(R_SB2125, NEURON("export MASTER_PORT=41000\nexport NEURON_RT_ROOT_COMM_ID=localhost:41000\n"));
	verify_not(R_SB2125, NEURON("export MASTER_PORT=41000\nexport NEURON_RT_ROOT_COMM_ID=localhost:41001\n"));
}

static void sb_reach(void **state)
{
	(void)state;
	verify(R_SB2120, JOB("", "NCCL_DEBUG=INFO\n" LAUNCH("")));
	verify_not(R_SB2120, JOB("", "NCCL_DEBUG=INFO\nexport NCCL_DEBUG\n" LAUNCH("")));
	verify_not(R_SB2120, JOB("", "set -a\nNCCL_DEBUG=INFO\n" LAUNCH("")));
	/* exported after the launcher is too late */
	verify(R_SB2120, JOB("", "NCCL_DEBUG=INFO\n" LAUNCH("") "export NCCL_DEBUG\n"));
	verify_not(R_SB2120, JOB("", "GPUS=8\n" LAUNCH("")));
	verify_pair(R_SB2121, CLUSTER, JOB("#SBATCH --partition=train\n", "export NCCL_P2P_DISABLE=1\n" LAUNCH("")));
	verify_pair_not(R_SB2121, CLUSTER, JOB("#SBATCH --partition=train\n", "export NCCL_P2P_DISABLE=0\n" LAUNCH("")));
	/* without the instance, NVLink is not known */
	verify_not(R_SB2121, JOB("", "export NCCL_P2P_DISABLE=1\n" LAUNCH("")));
	verify(R_SB2122, JOB("", "export CUDA_VISIBLE_DEVICES=0,1\n" LAUNCH("")));
	verify_not(R_SB2122, JOB("", "export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n" LAUNCH("")));
	/* never exported, it does not reach the workers (SB2120 says so) */
	verify_not(R_SB2122, JOB("", "CUDA_VISIBLE_DEVICES=0,1\n" LAUNCH("")));
	/* only Amazon Linux 2 needs it; Trainium2 runs no release that has it */
	verify(R_SB2111, NEURON(TRN2_TARGET "export FI_EFA_FORK_SAFE=1\n"));
	verify_pair(R_SB2111, TRN_CLUSTER("ubuntu2204", "trn1.32xlarge"), NEURON("export FI_EFA_FORK_SAFE=1\n"));
	verify_pair_not(R_SB2111, TRN_CLUSTER("alinux2", "trn1.32xlarge"), NEURON("export FI_EFA_FORK_SAFE=1\n"));
	verify_not(R_SB2111, NEURON("export FI_EFA_FORK_SAFE=1\n"));
}

static void sb_neuron(void **state)
{
	(void)state;
	verify(R_SB2109, NEURON(TRN2_TARGET "pip install neuronx-cc==2.14.227.0\n"));
	verify(R_SB2109, NEURON(TRN2_TARGET "pip3 install -U 'torch-neuronx==2.1.2.2.2.0'\n"));
	verify(R_SB2109, NEURON(TRN2_TARGET "module load neuron/2.19.1\n"));
	verify(R_SB2109, NEURON("export NEURON_CC_FLAGS=\"--target trn3\"\n"
				"pip install neuronx-cc==2.18.121.0\n"));
	verify_pair(R_SB2109, TRN_CLUSTER("ubuntu2204", "trn2.48xlarge"),
		    NEURON("pip install neuronx_distributed==0.8.0\n"));
	verify_not(R_SB2109, NEURON(TRN2_TARGET "pip install neuronx-cc==2.16.345.0\n"));
	/* versions the tables do not list, and pins without an instance */
	verify_not(R_SB2109, NEURON(TRN2_TARGET "pip install neuronx-cc==2.15.128.0\n"));
	verify_not(R_SB2109, NEURON(TRN2_TARGET "pip install neuronx-cc>=2.14\n"));
	verify_not(R_SB2109, NEURON("pip install neuronx-cc==2.14.227.0\n"));
	verify_not(R_SB2109, NEURON(TRN2_TARGET "echo pip install neuronx-cc==2.14.227.0 module\n"));
	verify(R_SB2110, NEURON("pip install torch-neuronx==2.9.0.2.15.32035\nexport XLA_USE_BF16=1\n"));
	verify_not(R_SB2110, NEURON("pip install torch-neuronx==2.5.1.2.6.0\nexport XLA_USE_BF16=1\n"));
	verify_not(R_SB2110, NEURON("pip install torch-neuronx==2.9.0.2.15.32035\nunset XLA_USE_BF16\n"));
	verify(R_SB2112, NEURON("IMG=public.ecr.aws/neuron/pytorch-training-neuronx:2.9.0-neuronx-py312-sdk2.30.0-ubuntu22.04\n"));
	verify_not(R_SB2112, NEURON("IMG=public.ecr.aws/neuron/pytorch-training-neuronx:2.9.0-neuronx-py312-sdk2.30.0-ubuntu24.04\n"));
}

static void sb_layout(void **state)
{
	(void)state;
	verify(R_SB2201, JOB("", LAUNCH(" --tensor-model-parallel-size 8 --pipeline-model-parallel-size 3")));
	verify_not(R_SB2201, JOB("", LAUNCH(" --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2")));
}

static void sb_elastic(void **state)
{
	(void)state;
	verify(R_SB2208, ELASTIC("", "", " --max-restarts=8"));
	verify_not(R_SB2208, ELASTIC("#SBATCH --no-kill\n", " --no-kill", " --max-restarts=8"));
	verify(R_SB2209, ELASTIC("#SBATCH --no-kill\n", " --no-kill", ""));
	verify_not(R_SB2209, ELASTIC("#SBATCH --no-kill\n", " --no-kill", " --max-restarts=8"));
}

/* Jobs that lose nodes. A spot queue to pair with, and a Megatron line
 * of TP 8 x PP 2 on two to four nodes of eight, which 3 nodes break. */
#define SPOT_CLUSTER                                                                        \
	VERIFY_CLUSTER_HEAD                                                                    \
	"    - Name: spot\n"                                                                   \
	"      CapacityType: SPOT\n"                                                           \
	"      Networking: {SubnetIds: [subnet-0fedcba9876543210], PlacementGroup: {Enabled: true}}\n" \
	"      ComputeResources:\n"                                                            \
	"        - {Name: p5, InstanceType: p5.48xlarge, MaxCount: 4, Efa: {Enabled: true}}\n"
#define MEGATRON(args) " /fsx/Megatron-LM/pretrain_gpt.py --tensor-model-parallel-size 8" args
#define SAVES " --save /fsx/ckpt --load /fsx/ckpt --save-interval 500"
#define ON_SPOT(directives, args) \
	JOB("#SBATCH --partition=spot\n" directives, HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV MEGATRON(args) "\n")

static void sb_survival(void **state)
{
	(void)state;
	verify_pair(R_SB2701, SPOT_CLUSTER, ON_SPOT("", ""));
	verify_pair(R_SB2701, SPOT_CLUSTER, ON_SPOT("", " --save /fsx/ckpt --save-interval 500"));
	verify_pair_not(R_SB2701, SPOT_CLUSTER, ON_SPOT("", SAVES));
	verify_pair_not(R_SB2701, CLUSTER, JOB("#SBATCH --partition=train\n", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV MEGATRON("") "\n"));
	verify(R_SB2702, ON_SPOT("#SBATCH --signal=USR1@600\n", SAVES " --exit-signal-handler"));
	verify(R_SB2702, ON_SPOT("#SBATCH --signal=SIGTERM@600\n", SAVES));
	verify(R_SB2702, ON_SPOT("", SAVES " --exit-signal-handler") "scancel --signal=USR2 \"$SLURM_JOB_ID\"\n");
	verify_not(R_SB2702, ON_SPOT("#SBATCH --signal=USR1@600\n", SAVES " --exit-signal-handler --exit-signal SIGUSR1"));
	verify_not(R_SB2702, ON_SPOT("#SBATCH --signal=B:USR1@600\n", SAVES " --exit-signal-handler"));
	verify_not(R_SB2702, ON_SPOT("", SAVES " --exit-signal-handler") "kill -USR2 \"$pid\"\n"); /* no watcher */
	verify(R_SB2703, SCRIPT(NODES(4) "#SBATCH --no-kill\n", HEAD_IP "srun --no-kill torchrun --nnodes=2:4 --max-restarts=8 --nproc_per_node=8" RDZV
					MEGATRON(" --pipeline-model-parallel-size 2") "\n"));
	verify_not(R_SB2703, SCRIPT(NODES(4) "#SBATCH --no-kill\n", HEAD_IP "srun --no-kill torchrun --nnodes=2:4 --max-restarts=8 --nproc_per_node=8" RDZV
					    MEGATRON("") "\n"));
	verify_not(R_SB2703, SCRIPT(NODES(4) "#SBATCH --no-kill\n", HEAD_IP "srun --no-kill torchrun --nnodes=2:4 --nproc_per_node=8" RDZV
					    MEGATRON(" --pipeline-model-parallel-size 2") "\n"));
}

static void sb_program(void **state)
{
	(void)state;
	/* Megatron's loader appends .bin and .idx itself; values in variables count */
	verify(R_SB2304, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/Megatron-LM/pretrain_gpt.py --data-path /fsx/data/c4_text_document.bin\n"));
	verify(R_SB2304, JOB("", "DATA=\"1.0 /fsx/data/c4_text_document.idx\"\n" HEAD_IP
			     "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/Megatron-LM/pretrain_gpt.py --data-path $DATA --split 99,1,0\n"));
	verify_not(R_SB2304, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/Megatron-LM/pretrain_gpt.py --data-path /fsx/data/c4_text_document\n"));
	/* another program's --data-path is its own business */
	verify_not(R_SB2304, JOB("", LAUNCH(" --data-path /fsx/data/shard.bin")));
	/* Megatron's flags written as a string over lines, as its users do */
	verify(R_SB2301, JOB("", "GPT_ARGS=\" \\\n    --num-layers 24 \\\n    --log_interval 10 \\\n    \"\n" HEAD_IP
			     "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/Megatron-LM/pretrain_gpt.py $GPT_ARGS\n"));
	verify_not(R_SB2301, JOB("", "GPT_ARGS=\" \\\n    --num-layers 24 \\\n    --log-interval 10 \\\n    \"\n" HEAD_IP
				 "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/Megatron-LM/pretrain_gpt.py $GPT_ARGS\n"));
	/* python without a script (python --version) starts no program file */
	verify_not(R_SB2301, JOB("", "python --version\n" LAUNCH("")));
	/* no program file beside the script: nothing to hold the flags to */
	verify_not(R_SB2301, JOB("", LAUNCH(" --no-such-flag")));
}

/* The framework the launcher starts, at the target's version. */
static void sb_framework(void **state)
{
	(void)state;
	verify(R_SB2401, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/Megatron-LM/pretrain_gpt.py --use-quantum-attention\n"));
	verify_not(R_SB2401, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/Megatron-LM/pretrain_gpt.py --use-flash-attn\n"));
	/* Megatron-DeepSpeed is another command line */
	verify_not(R_SB2401, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/Megatron-LM/pretrain_gpt.py --deepspeed --zero-stage 1\n"));
	verify(R_SB2401, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/torchtitan/torchtitan/train.py --training.stepz 10\n"));
	/* a section trainforge does not hold in full is left alone */
	verify_not(R_SB2401, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/torchtitan/torchtitan/train.py --optimizer.lr 3e-4\n"));
	verify(R_SB2402, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
			     " /fsx/Megatron-LM/pretrain_gpt.py --num-experts 8 --moe-ffn-hidden-size 1024\n"));
	verify_not(R_SB2402, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV
				 " /fsx/Megatron-LM/pretrain_gpt.py --num-experts 8 --moe-router-topk 1 --moe-ffn-hidden-size 1024\n"));
	verify(R_SB2403, JOB("", "export NEURON_COMPILE_CACHE_URL=/fsx/cache\n" HEAD_IP
			     "srun torchrun --nnodes=2 --nproc_per_node=64" RDZV " /fsx/Megatron-LM/pretrain_gpt.py\n"));
	verify_not(R_SB2403, JOB("", "export NEURON_COMPILE_CACHE_URL=/fsx/cache\n" HEAD_IP
				 "srun torchrun --nnodes=2 --nproc_per_node=64" RDZV " /fsx/torchtitan/torchtitan/train.py\n"));
}

static void sb_cluster(void **state)
{
	(void)state;
	verify_pair(R_SB3001, CLUSTER, JOB("#SBATCH --partition=gpu\n", LAUNCH("")));
	verify_pair_not(R_SB3001, CLUSTER, JOB("#SBATCH --partition=train\n", LAUNCH("")));
	verify_pair(R_SB3002, CLUSTER, SCRIPT(NODES(8) "#SBATCH --partition=train\n",
					      HEAD_IP "srun torchrun --nnodes=8 --nproc_per_node=8" RDZV
					      " /fsx/train.py\n"));
	verify_pair_not(R_SB3002, CLUSTER, JOB("#SBATCH --partition=train\n", LAUNCH("")));
	/* a script that names a cluster config which is not there */
	verify(R_SB3005, "#!/bin/bash\n# trainforge cluster=no-such-cluster.yaml\n" NODES(2) LAUNCH(""));
	verify_not(R_SB3005, CLEAN);
}

/* The forms real scripts take, for the rules of issue "The real mistakes
 * lint still misses": each line is a shape found in public batch scripts,
 * written anew. */
#define P5_CLUSTER CLUSTER
#define TRN2_CLUSTER TRN_CLUSTER("ubuntu2204", "trn2.48xlarge")
#define TRN1_CLUSTER TRN_CLUSTER("alinux2", "trn1.32xlarge")
#define ON_QUEUE "#SBATCH --partition=train\n"
#define NEURON_N(nproc, env)                                                               \
	JOB(ON_QUEUE, EFA_VARS env HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=" nproc RDZV \
	    " /fsx/train.py\n")

static void sb_sizes(void **state)
{
	(void)state;
	verify(R_SB2601, JOB("", "if [ $NODES -le 4 ]; then TP=4; else TP=8; fi\n" LAUNCH(" --tp $TP")));
	verify(R_SB2601, JOB("", "if [[ ${NUM_NODES} -gt 1 ]]; then PP=2; else PP=1; fi\n" LAUNCH(" --pp-size $PP")));
	verify(R_SB2601, JOB("", "DP=$((64/TP))\n" LAUNCH(" --dp-size $DP")));
	verify(R_SB2601, JOB("", "GPUS=$((NNODES * 8))\nsrun --ntasks=$GPUS python /fsx/train.py\n"));
	verify(R_SB2601, JOB("", "TOTAL_GPUS=$((NODES * GPUS_PER_NODE))\nGPUS_PER_NODE=8\nWORLD=$TOTAL_GPUS\n"
			     "srun --ntasks=$WORLD python /fsx/train.py\n"));
	verify(R_SB2601, JOB("", LAUNCH(" --pp $PP_SIZE")));
	/* a flag the framework tables know is SB2012's or SB2501's */
	verify_not(R_SB2601, JOB("", LAUNCH(" --pipeline_parallel_size $PP_SIZE")));
	/* Slurm's counts, a guard, a file sourced before, or a value set in the script */
	verify_not(R_SB2601, JOB("", "WORLD_SIZE=$(($SLURM_NNODES * 8))\nsrun --ntasks=$WORLD_SIZE python /fsx/train.py\n"));
	verify_not(R_SB2601, JOB("", "if [ \"${NODES:-2}\" -le 4 ]; then TP=4; else TP=8; fi\n" LAUNCH(" --tp $TP")));
	verify_not(R_SB2601, JOB("", "source ./config.sh\nDP=$((64/TP))\n" LAUNCH(" --dp-size $DP")));
	verify_not(R_SB2601, JOB("", "TP=2\nDP=$((64/TP))\n" LAUNCH(" --dp-size $DP")));
	/* a test that picks no size */
	verify_not(R_SB2601, JOB("", "if [ $CLEAR_CACHES -eq 1 ]; then sync; fi\n" LAUNCH("")));
}

static void sb_rendezvous(void **state)
{
	(void)state;
	verify(R_SB2602, "#!/bin/bash\nexport MASTER_ADDR=$(hostname)\nsbatch --export=ALL train.sbatch\n");
	verify(R_SB2602, "#!/bin/bash\nMASTER_ADDR=`hostname -i`\nsalloc -N 2 srun torchrun --nnodes=2 --master_addr=$MASTER_ADDR /fsx/train.py\n");
	verify(R_SB2602, "#!/bin/bash\nMASTER_ADDR=$(hostname)\nsrun -N 2 torchrun --nnodes=2 --nproc_per_node=8 --master_addr=$MASTER_ADDR --master_port=29500 /fsx/train.py\n");
	verify(R_SB2602, "#!/bin/bash\nexport RANK=$SLURM_PROCID\nexport MASTER_ADDR=$HOSTNAME\npython /fsx/train.py\n");
	verify(R_SB2602, "#!/bin/bash\nNODE_RANK=${SLURM_NODEID}\nexport MASTER_ADDR=${HOSTNAME}\npython /fsx/train.py\n");
	verify_not(R_SB2602, "#!/bin/bash\nexport RANK=$SLURM_PROCID\nexport MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\npython /fsx/train.py\n");
	verify_not(R_SB2602, JOB("", "export MASTER_ADDR=$(hostname)\n" LAUNCH("")));
	verify_not(R_SB2602, "#!/bin/bash\n#SBATCH --nodes=1\nexport RANK=$SLURM_PROCID\nexport MASTER_ADDR=$HOSTNAME\nsrun python /fsx/train.py\n");
	/* a rank-0 branch writes its own name for the others to read */
	verify_not(R_SB2602, "#!/bin/bash\nexport RANK=$SLURM_PROCID\nif [ \"$RANK\" = 0 ]; then MASTER_ADDR=$(hostname); fi\npython /fsx/train.py\n");

	verify(R_SB2603, JOB("", "srun -N1 -w \"$h0\" torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=h0:1 /fsx/train.py\n"
			     "srun -N1 -w \"$h1\" torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=h0:1 /fsx/train.py\n"));
	verify(R_SB2603, JOB("", "for n in $(scontrol show hostnames); do\n  srun --nodes=1 -w $n torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=h0:1 /fsx/train.py\ndone\n"));
	verify(R_SB2603, JOB("", "srun --nodes=1 --ntasks=1 -w \"$head_node\" ray start --head --node-ip-address=\"$ip\" --port=6379 --block\n"
			     "srun --nodes=1 --ntasks=1 -w \"$n1\" ray start --address \"$ip:6379\" --block &\npython /fsx/driver.py\n"));
	verify(R_SB2603, JOB("", "srun -N1 -n1 -w $SLURMD_NODENAME ray start --head --port=6379 --block\nray_sync\n"
			     "srun -x $SLURMD_NODENAME -N1 ray start --address h:6379 --block &\n"));
	verify(R_SB2603, JOB("", "for i in 0 1; do\n  srun --nodes=1 --ntasks=1 -w \"${nodes[$i]}\" ray start --address \"$ip\" --block\ndone\n"));
	verify_not(R_SB2603, JOB("", "srun --nodes=1 --ntasks=1 -w \"$head_node\" ray start --head --port=6379 --block &\nsleep 10\n"
				 "srun --nodes=1 --ntasks=1 -w \"$n1\" ray start --address \"$ip:6379\" --block &\nsleep 5\npython /fsx/driver.py\n"));
	verify_not(R_SB2603, CLEAN);
	/* the first part in the background, the last in the foreground: both run at once */
	verify_not(R_SB2603, JOB("", "srun -N1 -w h0 torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=h0:1 /fsx/train.py &\n"
				 "srun -N1 -w h1 torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=h0:1 /fsx/train.py\nwait\n"));

	/* SB2011 in the forms real scripts take, a warning on several nodes */
	verify(R_SB2011, JOB("", "head_node_ip=$(srun --nodes=1 --ntasks=1 -w \"$head_node\" hostname --ip-address)\n"
			     "srun torchrun --nnodes 2 --nproc_per_node 8 --rdzv_id $RANDOM --rdzv_backend c10d --rdzv_endpoint $head_node_ip:29500 /fsx/train.py\n"));
	verify(R_SB2011, JOB("", "head_node_ip=$(srun --nodes=1 --ntasks=1 -w \"$head_node\" hostname --ip-address)\n"
			     "srun --nodes=1 --ntasks=1 -w \"$head_node\" ray start --head --node-ip-address=\"$head_node_ip\" --port=6379 --block &\n"));
	verify(R_SB2011, JOB("", "export RAY_HEAD_IP=`hostname -i`\nsrun -N1 ray start --address $RAY_HEAD_IP:6379 --block &\n"));
	verify(R_SB2011, JOB("", "export MASTER_ADDR=$(python -c 'import socket; print(socket.gethostbyname(socket.gethostname()))')\n" LAUNCH("")));
	verify(R_SB2011, JOB("", "MASTER_ADDR=$(getent hosts $(hostname) | awk '{print $1}')\n" LAUNCH("")));
	verify_not(R_SB2011, JOB("", "head_node_ip=$(srun --nodes=1 --ntasks=1 -w \"$head_node\" hostname -I | awk '{print $1}')\n"
				 "srun --nodes=1 -w \"$head_node\" ray start --head --node-ip-address=\"$head_node_ip\" --block &\n"));
}

static void sb_direct(void **state)
{
	(void)state;
	verify_not(R_SB2604, JOB("", "srun --kill-on-bad-exit=1 run_trainer.sh\n"));
	verify_not(R_SB2604, JOB("", "srun ./run_clm.sh MIXED wikitext-103-raw-v1\n"));
	verify_not(R_SB2604, JOB("", "srun /lustre/train.sh\n"));
	verify(R_SB2604, JOB("", "srun train.py --epochs 3\n"));
	verify(R_SB2604, JOB("", "mpirun -np 16 ./bench.py\n"));
	verify(R_SB2604, JOB("", "srun --mpi=pmix /fsx/scripts/launch.pl\n"));
	verify_not(R_SB2604, JOB("", "srun python3 train.py blocks\n"));
	verify_not(R_SB2604, JOB("", "srun bash ./run_clm.sh MIXED\n"));
	verify_not(R_SB2604, JOB("", "srun --container-image=$IMAGE ./run_and_time.sh\n"));
	verify_not(R_SB2604, JOB("", "srun --ntasks-per-node=1 hostname\n"));

	verify(R_SB2605, JOB("", "head_ip=$(srun -N1 -n1 -w \"$h\" hostname -I | awk '{print $1}')\npython /fsx/train.py --master $head_ip\n"));
	verify(R_SB2605, JOB("", "srun nvidia-smi\npython3 /fsx/train.py\n"));
	verify(R_SB2605, JOB("", "srun --ntasks-per-node=1 mkdir -p /tmp/run\npython -u /fsx/train.py --nodes 2\n"));
	verify(R_SB2605, JOB("", "srun -l hostname\nsrun -l env\npython main.py\n"));
	verify(R_SB2605, JOB("", "nodes=$(srun hostname | sort -u)\npython /fsx/launch_all.py $nodes\n"));
	verify_not(R_SB2605, JOB("", "srun hostname\nsrun python /fsx/train.py\n"));
	verify_not(R_SB2605, "#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\npython /fsx/train.py\n");
	verify_not(R_SB2605, JOB("", "srun hostname\npython -c 'print(1)'\n" LAUNCH("")));
}

static void sb_fabric(void **state)
{
	(void)state;
	verify(R_SB2606, JOB("", "export FI_PROVIDER=eth\n" LAUNCH("")));
	verify(R_SB2606, JOB("", "export FI_PROVIDER=\"ena\"\n" LAUNCH("")));
	verify(R_SB2606, JOB("", "export FI_PROVIDER=efa0\n" LAUNCH("")));
	verify(R_SB2606, JOB("", "export FI_PROVIDER=ib\n" LAUNCH("")));
	verify(R_SB2606, JOB("", "FI_PROVIDER=EFA,infiniband srun hostname\n" LAUNCH("")));
	verify_not(R_SB2606, JOB("", "export FI_PROVIDER=efa\n" LAUNCH("")));
	verify_not(R_SB2606, JOB("", "export FI_PROVIDER=\"tcp;ofi_rxm\"\n" LAUNCH("")));
	verify_not(R_SB2606, JOB("", "export FI_PROVIDER=^psm3,verbs\n" LAUNCH("")));

	verify(R_SB2607, JOB("", "export LD_LIBRARY_PATH=/usr/local/cuda/lib64\n" LAUNCH("")));
	verify(R_SB2607, JOB("", "export LD_LIBRARY_PATH=$HOME/nccl/build/lib:/usr/local/cuda/lib64\n" LAUNCH("")));
	verify(R_SB2607, JOB("", "LD_LIBRARY_PATH=/opt/aws-ofi-nccl/lib:/opt/amazon/efa/lib\nexport LD_LIBRARY_PATH\n" LAUNCH("")));
	verify(R_SB2607, JOB("", "export LD_LIBRARY_PATH=\"$CONDA_PREFIX/lib\"\n" LAUNCH("")));
	verify(R_SB2607, JOB("", "LD_LIBRARY_PATH=/opt/nccl/lib srun hostname\n" LAUNCH("")));
	verify_not(R_SB2607, JOB("", "export LD_LIBRARY_PATH=/usr/local/cuda-12.1/lib64:$LD_LIBRARY_PATH\n" LAUNCH("")));
	verify_not(R_SB2607, JOB("", "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64\n" LAUNCH("")));
	verify_not(R_SB2607, JOB("", "export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:${LD_LIBRARY_PATH}\n" LAUNCH("")));

	verify(R_SB2608, JOB("", "export\nNCCL_DEBUG=INFO\n" LAUNCH("")));
	verify(R_SB2608, JOB("", "export\nFI_PROVIDER=efa\nFI_EFA_USE_DEVICE_RDMA=1\n" LAUNCH("")));
	verify(R_SB2608, JOB("", "  export\n  OMP_NUM_THREADS=1\n" LAUNCH("")));
	verify(R_SB2608, JOB("", "export\nCUDA_DEVICE_MAX_CONNECTIONS=1\nNCCL_ASYNC_ERROR_HANDLING=1\n" LAUNCH("")));
	verify(R_SB2608, JOB("", "export\nNCCL_SOCKET_IFNAME=^docker0,lo\n" LAUNCH("")));
	verify_not(R_SB2608, JOB("", "export NCCL_DEBUG=INFO\n" LAUNCH("")));
	verify_not(R_SB2608, JOB("", "export | grep NCCL\nNCCL_DEBUG=INFO\n" LAUNCH("")));
	verify_not(R_SB2608, JOB("", "export\necho done\n" LAUNCH("")));

	verify(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1\nexport NCCL_ALGO=Ring\n" LAUNCH("")));
	verify(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1\nexport NCCL_ALGO=Ring,Tree\n" LAUNCH("")));
	verify(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1\nexport NCCL_ALGO=^NVLS\n" LAUNCH("")));
	verify(R_SB2609, JOB("", "export NCCL_ALGO=tree\nexport NCCL_NVLS_ENABLE=2\n" LAUNCH("")));
	verify(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1 NCCL_ALGO=\"allreduce:ring,tree\"\n" LAUNCH("")));
	verify_not(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=0\nexport NCCL_ALGO=Ring\n" LAUNCH("")));
	verify_not(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1\nexport NCCL_ALGO=NVLS,Ring\n" LAUNCH("")));
	verify_not(R_SB2609, JOB("", "export NCCL_NVLS_ENABLE=1\n" LAUNCH("")));

	verify(R_SB2610, JOB("", "trap \"echo recieved SIGUSR1;\" SIGUSR1;\n" LAUNCH("")));
	verify(R_SB2610, JOB("#SBATCH --signal=USR1@60\n", "trap 'requeue' USR1\n" LAUNCH("")));
	verify(R_SB2610, JOB("##SBATCH --signal=B:USR1@60\n", "trap 'trap_handler USR1' USR1\n" LAUNCH("")));
	verify(R_SB2610, JOB("", "job_requeue() { scontrol requeue \"$SLURM_JOBID\"; }\ntrap job_requeue USR1\n" LAUNCH("")));
	verify(R_SB2610, JOB("#SBATCH --signal=B:USR2@120\n", "trap 'save' USR1\n" LAUNCH("")));
	verify(R_SB2610, JOB("", "trap 'kill -USR1 $pid' 12\n" LAUNCH("")));
	verify_not(R_SB2610, JOB("#SBATCH --signal=B:USR1@120\n", "trap 'your_cleanup_function' USR1\n" LAUNCH("")));
	verify_not(R_SB2610, JOB("#SBATCH --signal=B:SIGUSR1@15\n", "trap 'sig_handler_USR1' SIGUSR1\n" LAUNCH("")));
	verify_not(R_SB2610, JOB("", "trap cleanup_pyxis TERM EXIT\n" LAUNCH("")));
	verify_not(R_SB2610, JOB("", "trap job_epilogue EXIT SIGTERM SIGINT\n" LAUNCH("")));
}

static void sb_neuron_cores(void **state)
{
	(void)state;
	verify_pair(R_SB2611, TRN2_CLUSTER, NEURON_N("32", "export NEURON_RT_NUM_CORES=32\n"));
	verify_pair(R_SB2611, TRN2_CLUSTER, NEURON_N("64", "export NEURON_RT_NUM_CORES=2\n"));
	verify_pair(R_SB2611, TRN1_CLUSTER, NEURON_N("32", "export NEURON_RT_VISIBLE_CORES=0-15\n"));
	verify_pair(R_SB2611, TRN1_CLUSTER, NEURON_N("4", "export NEURON_RT_VISIBLE_CORES=0,1\n"));
	verify_pair(R_SB2611, TRN1_CLUSTER, NEURON_N("32", "export NEURON_RT_VISIBLE_CORES=0-63\n"));
	verify_pair_not(R_SB2611, TRN2_CLUSTER, NEURON_N("64", ""));
	verify_pair_not(R_SB2611, TRN1_CLUSTER, NEURON_N("32", "export NEURON_RT_VISIBLE_CORES=0-31\n"));
	verify_pair_not(R_SB2611, TRN1_CLUSTER, NEURON_N("16", "export NEURON_RT_NUM_CORES=2\n"));

	verify_pair(R_SB2612, TRN2_CLUSTER, NEURON_N("32", ""));
	verify_pair(R_SB2612, TRN1_CLUSTER, NEURON_N("2", ""));
	verify_pair(R_SB2612, TRN1_CLUSTER, NEURON_N("8", ""));
	verify_pair(R_SB2612, TRN1_CLUSTER, NEURON_N("16", ""));
	verify_pair(R_SB2612, TRN2_CLUSTER, NEURON_N("16", "export NEURON_RT_NUM_CORES=2\n"));
	verify_pair_not(R_SB2612, TRN1_CLUSTER, NEURON_N("32", ""));
	verify_pair_not(R_SB2612, TRN1_CLUSTER, NEURON_N("16", "export NEURON_RT_NUM_CORES=2\n"));
	/* 128 at LNC 1 is SB2123's */
	verify_pair_not(R_SB2612, TRN2_CLUSTER, NEURON_N("64", ""));

	verify_pair(R_SB2613, TRN2_CLUSTER, NEURON_N("64", "export NCCL_DEBUG=INFO\n"));
	verify_pair(R_SB2613, TRN1_CLUSTER, NEURON_N("32", "export NCCL_SOCKET_IFNAME=ens5\n"));
	verify_pair(R_SB2613, TRN1_CLUSTER, NEURON_N("32", "export NCCL_PROTO=simple\n"));
	verify_pair(R_SB2613, TRN1_CLUSTER, NEURON_N("32", "NCCL_DEBUG=WARN srun hostname\n"));
	verify_pair(R_SB2613, TRN2_CLUSTER, NEURON_N("64", "export NCCL_ASYNC_ERROR_HANDLING=1\n"));
	verify_pair_not(R_SB2613, TRN2_CLUSTER, NEURON_N("64", "export NEURON_RT_LOG_LEVEL=INFO\nexport CCOM_SOCKET_IFNAME=eth0\n"));
	verify_pair_not(R_SB2613, P5_CLUSTER, JOB(ON_QUEUE, "export NCCL_DEBUG=INFO\n" LAUNCH("")));
	/* unpaired: the instance is not known */
	verify_not(R_SB2613, JOB("", "export NEURON_CC_FLAGS=--target=trn2\nexport NCCL_DEBUG=INFO\n" LAUNCH("")));

	verify_pair(R_SB2614, TRN2_CLUSTER, NEURON_N("64", "module load neuron/2.20\n"));
	verify_pair(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module load cuda/12.1\n" LAUNCH("")));
	verify_pair(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module load nccl/2.18\n" LAUNCH("")));
	verify_pair(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module add anaconda3\n" LAUNCH("")));
	verify_pair(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module load git-lfs\n" LAUNCH("")));
	verify_pair_not(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module load openmpi/4.1.5\nmodule load intelmpi\n" LAUNCH("")));
	verify_pair_not(R_SB2614, P5_CLUSTER, JOB(ON_QUEUE, "module use /fsx/modulefiles\nmodule load cuda/12.1\n" LAUNCH("")));
	verify_pair_not(R_SB2614, VERIFY_CLUSTER_HEAD_IMAGE("{Os: alinux2023, CustomAmi: ami-0123456789abcdef0}") VERIFY_QUEUE,
			JOB(ON_QUEUE, "module load cuda/12.1\n" LAUNCH("")));
	verify_not(R_SB2614, JOB("", "module load cuda/11.4.3\n" LAUNCH("")));
}

static void sb_world(void **state)
{
	(void)state;
	verify(R_SB2615, JOB("", LAUNCH(" --dp 4 --tp 8")));
	verify(R_SB2615, JOB("", LAUNCH(" --data-parallel-degree 16 --pipeline-parallel-degree 4")));
	verify(R_SB2615, JOB("", LAUNCH(" --tp_size 1 --pp_size 2 --dp_size 4")));
	verify(R_SB2615, JOB("", LAUNCH(" --tensor-parallel 3")));
	verify(R_SB2615, JOB("", LAUNCH(" --pipeline_parallel_degree=5")));
	verify(R_SB2615, JOB("", LAUNCH(" --model-parallel-size 32")));
	verify_not(R_SB2615, JOB("", LAUNCH(" --dp 2 --tp 8")));
	verify_not(R_SB2615, JOB("", LAUNCH(" --tp_size 2 --pp_size 2")));
	/* a size from an expansion that cannot be read */
	verify_not(R_SB2615, JOB("", LAUNCH(" --tp \"$TP\" --dp 3")));
	/* Megatron's flags are layout.c's (SB2201) */
	verify_not(R_SB2615, JOB("", LAUNCH(" --tensor-model-parallel-size 3")));
}

static void sb_continuation(void **state)
{
	(void)state;
	verify(R_SB2616, JOB("", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV "\n  /fsx/train.py --lr 1\n"));
	verify(R_SB2616, JOB("", "torchrun --nproc_per_node=32 --nnodes=$SLURM_NNODES \\\n    --node_rank=$SLURM_NODEID --master_addr=$MASTER_ADDR --master_port=8888\n    train_moe.py --model-size 176B \\\n    --batch-size 2\n"));
	verify(R_SB2616, JOB("", "srun --ntasks-per-node=1 --cpus-per-task=16\n  bash /fsx/job/run.sh\n"));
	verify(R_SB2616, JOB("", "deepspeed --num_gpus 8 --num_nodes 2 --hostfile hosts\n  train.py --deepspeed ds.json\n"));
	verify(R_SB2616, JOB("", "mpirun -np 16 --map-by ppr:8:node\n  python /fsx/bench.py\n"));
	verify(R_SB2616, JOB("", "python -m torch.distributed.run --nnodes=2 --nproc_per_node=8\n  /fsx/train.py\n"));
	/* the program from a variable the script sets */
	verify(R_SB2616, JOB("", "TRAIN_SCRIPT=/fsx/train.py\n" HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=8" RDZV "\n  \"$TRAIN_SCRIPT\" --lr 1\n"));
	verify_not(R_SB2616, JOB("", LAUNCH(" --lr 1")));
	verify_not(R_SB2616, JOB("", "srun hostname\npython /fsx/report.py\n" LAUNCH("")));
	verify_not(R_SB2616, JOB("", "torchrun --nproc_per_node=8 -m mypkg.train\npython /fsx/report.py\n"));
}

static void sb_paired(void **state)
{
	(void)state;
	verify_pair(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --output=/shared/logs/%x-%j.out\n", LAUNCH("")));
	verify_pair(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --error=/data/slurm/%j.err\n", LAUNCH("")));
	verify_pair(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH -o /lustre/logs/%x.out\n", LAUNCH("")));
	verify_pair(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --output=/checkpoint/jgu/slurm_logs/slurm-%A.out\n", LAUNCH("")));
	verify_pair(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --output=/efs/out/%j.log\n", LAUNCH("")));
	verify_pair_not(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --output=/home/ubuntu/logs/%x.out\n", LAUNCH("")));
	verify_pair_not(R_SB3201, CLUSTER, JOB(ON_QUEUE "#SBATCH --output=logs/%x-%j.out\n", LAUNCH("")));
	verify_pair_not(R_SB3201, VERIFY_CLUSTER_HEAD VERIFY_QUEUE "SharedStorage:\n  - {Name: fsx, StorageType: FsxLustre, MountDir: /shared/fsx, FsxLustreSettings: {StorageCapacity: 1200}}\n",
			JOB(ON_QUEUE "#SBATCH --output=/shared/fsx/logs/%x.out\n", LAUNCH("")));
	verify_not(R_SB3201, JOB("#SBATCH --output=/shared/logs/%x-%j.out\n", LAUNCH("")));

	verify_pair(R_SB3202, CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:16\n", LAUNCH("")));
	verify_pair(R_SB3202, CLUSTER, JOB(ON_QUEUE "#SBATCH --gpus-per-node=h100:9\n", LAUNCH("")));
	verify_pair(R_SB3202, CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:4\n", LAUNCH("")));
	verify_pair(R_SB3202, TRN1_CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:1\n", LAUNCH("")));
	verify_pair(R_SB3202, CLUSTER, SCRIPT("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=16\n" ON_QUEUE, "srun python -u /fsx/train.py --launcher=slurm\n"));
	verify_pair_not(R_SB3202, CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:8\n", LAUNCH("")));
	verify_pair_not(R_SB3202, CLUSTER, SCRIPT("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n" ON_QUEUE "#SBATCH --gres=gpu:8\n", "srun python -u /fsx/train.py --launcher=slurm\n"));

	verify_pair(R_SB3203, CLUSTER, JOB(ON_QUEUE, HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=4" RDZV " /fsx/train.py\n"));
	verify_pair(R_SB3203, CLUSTER, SCRIPT("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n" ON_QUEUE, "srun python /fsx/train.py\n"));
	verify_pair(R_SB3203, CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:8\n", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=1" RDZV " /fsx/train.py\n"));
	verify_pair_not(R_SB3203, CLUSTER, CLEAN);
	verify_pair_not(R_SB3203, CLUSTER, JOB(ON_QUEUE "#SBATCH --gres=gpu:4\n", HEAD_IP "srun torchrun --nnodes=2 --nproc_per_node=4" RDZV " /fsx/train.py\n"));
}

static void sc_shellcheck(void **state)
{
	(void)state;
	if (!verify_on_path("shellcheck"))
		verify_skip_area(AREA_SC_SHELLCHECK, "shellcheck is not installed (tools/deps.sh installs it)");
	verify_sc(2086, SCRIPT("#SBATCH --nodes=1\n", "rm -rf $dir/*\n"));
	verify_sc_not(2086, SCRIPT("#SBATCH --nodes=1\n", "dir=/fsx/run\nrm -rf \"${dir:?}\"/*\n"));
	verify_sc(2154, SCRIPT("#SBATCH --nodes=1\n", "echo \"$UNSET_x\"\n"));
	verify_sc_not(2154, SCRIPT("#SBATCH --nodes=1\n# shellcheck disable=SC2154\n", "echo \"$UNSET_x\"\n"));
}

static void every_area_has_cases(void **state)
{
	(void)state;
	verify_areas_covered();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sb_text),
		cmocka_unit_test(sb_hygiene),
		cmocka_unit_test(sb_options),
		cmocka_unit_test(sb_launch),
		cmocka_unit_test(sb_order),
		cmocka_unit_test(sb_env),
		cmocka_unit_test(sb_reach),
		cmocka_unit_test(sb_neuron),
		cmocka_unit_test(sb_layout),
		cmocka_unit_test(sb_elastic),
		cmocka_unit_test(sb_survival),
		cmocka_unit_test(sb_program),
		cmocka_unit_test(sb_framework),
		cmocka_unit_test(sb_cluster),
		cmocka_unit_test(sb_sizes),
		cmocka_unit_test(sb_rendezvous),
		cmocka_unit_test(sb_direct),
		cmocka_unit_test(sb_fabric),
		cmocka_unit_test(sb_neuron_cores),
		cmocka_unit_test(sb_world),
		cmocka_unit_test(sb_continuation),
		cmocka_unit_test(sb_paired),
		cmocka_unit_test(sc_shellcheck),
		cmocka_unit_test(every_area_has_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
