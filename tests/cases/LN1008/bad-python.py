"""Writes a batch script for each run and submits it."""
import subprocess

TEMPLATE = """#!/bin/bash
#SBATCH --nodes={nodes}
#SBATCH --ntasks-per-node=1
srun torchrun --nnodes={nodes} train.py
"""

subprocess.run(["sbatch"], input=TEMPLATE.format(nodes=2), text=True, check=True)
