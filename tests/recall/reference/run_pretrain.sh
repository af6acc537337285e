#!/bin/bash
# The reference scenario's batch script as its account describes it,
# rewritten: look-alike hyphens made ASCII, and every torchrun line
# continued except the one before the script name.
# trainforge cluster=cluster.yaml
#SBATCH --job-name=moe-176b
#SBATCH --partition=train
#SBATCH --nodes=64
#SBATCH --ntasks-per-node=32
#SBATCH --time=20-00:00:00
#SBATCH --output=/shared/logs/%x-%j.out

module load neuron/2.20
export NEURON_RT_NUM_CORES=32
export NCCL_DEBUG=INFO
export FI_PROVIDER=efa
export FI_EFA_USE_DEVICE_RDMA=1
MASTER_ADDR=$(scontrol show hostname | head -n 1)

torchrun --nproc_per_node=32 --nnodes=$SLURM_NNODES \
    --node_rank=$SLURM_NODEID --master_addr=$MASTER_ADDR --master_port=8888
    train_moe.py --model-size 176B --batch-size 2 --grad-accum 32 \
    --data-parallel-size 16 --pipeline-model-parallel-size 4 \
    --checkpoint-dir s3://moe-training/checkpoints
