#!/usr/bin/env python3
import os
import socket

print(socket.gethostname(), os.environ.get("SLURM_PROCID"))
