#!/bin/bash
# runs on every node: the rank comes from Slurm
set -euo pipefail
export FI_PROVIDER=efa
export FI_EFA_USE_DEVICE_RDMA=1
export NEURON_COMPILE_CACHE_URL=/fsx/ubuntu/neuron_cache
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export NEURON_RT_ROOT_COMM_ID="$MASTER_ADDR:46820"
torchrun --nnodes="$SLURM_NNODES" --node_rank="$SLURM_NODEID" --nproc_per_node=32 \
    --master_addr="$MASTER_ADDR" --master_port=41000 /fsx/ubuntu/job/train_bert.py
