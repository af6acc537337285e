#!/bin/bash
# launch.sh: the batch wrapper exports NNODES, GPUS_PER_NODE and TP
# before it starts this on every node
set -euo pipefail
torchrun --nnodes "$NNODES" --nproc_per_node "$GPUS_PER_NODE" \
    --rdzv_backend c10d --rdzv_endpoint "$MASTER_ADDR:29500" --rdzv_id "$SLURM_JOB_ID" \
    /fsx/Megatron-LM/pretrain_gpt.py \
    --tensor-model-parallel-size "$TP" --pipeline-model-parallel-size 1 \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --micro-batch-size 2 --global-batch-size 128
