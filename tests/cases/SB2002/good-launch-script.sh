#!/bin/bash
# run.sh: the cluster's submit wrapper starts this on each of the 4
# nodes it books, with NODE_RANK and MASTER_ADDR set
set -euo pipefail
GPUS=8
NNODES=4
TP=8
PP=4

torchrun --nnodes "$NNODES" --nproc_per_node "$GPUS" --node_rank "$NODE_RANK" \
    --master_addr "$MASTER_ADDR" --master_port 29500 \
    /fsx/Megatron-LM/pretrain_gpt.py \
    --tensor-model-parallel-size "$TP" --pipeline-model-parallel-size "$PP" \
    --num-layers 48 --hidden-size 6144 --num-attention-heads 48 \
    --micro-batch-size 1 --global-batch-size 512
