"""Writes a tree of N batch scripts into DIR (default 500): the project's
own example scripts with variations, as a repository of many teams' jobs
looks. Each script starts from an example (the generated ones and the
broken one), gets its own job name, node count and time limit, and some
of the set-up a real script carries (modules, virtualenvs, NCCL and EFA
variables, functions, loops, tests, here-documents), so the sizes spread
from under 1 KB to over 5 KB. Seeded: the same tree every time."""
import glob
import os
import random
import re
import shutil
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
bases = sorted(glob.glob(os.path.join(root, "examples", "jobs", "out", "*.sbatch")))
bases.append(os.path.join(root, "examples", "broken", "train.sbatch"))
texts = []
for path in bases:
    with open(path) as f:
        # a pairing comment names a file beside the example, not here
        texts.append("".join(l for l in f if not l.startswith("# trainforge cluster=")))

SETUP = [
    "module purge\nmodule load cuda/12.4 nccl/2.21 openmpi/4.1\n",
    "source /fsx/envs/{team}/bin/activate\n",
    'export NCCL_DEBUG=${{NCCL_DEBUG:-WARN}}\nexport NCCL_SOCKET_IFNAME="^lo,docker"\n',
    "export FI_EFA_FORK_SAFE=1\nexport FI_PROVIDER=efa\n",
    'export HF_HOME=/fsx/cache/huggingface\nexport TRANSFORMERS_OFFLINE=1\n',
    'echo "job $SLURM_JOB_ID on $SLURM_JOB_NUM_NODES nodes: $SLURM_JOB_NODELIST"\n',
    'if [ -z "${{DATA_DIR:-}}" ]; then\n\tDATA_DIR=/fsx/data/{team}\nfi\nexport DATA_DIR\n',
    'for d in logs checkpoints profiles; do\n\tmkdir -p "/fsx/{team}/$d/$SLURM_JOB_ID"\ndone\n',
    'log() {{\n\tprintf \'%s %s\\n\' "$(date +%H:%M:%S)" "$*" >&2\n}}\nlog "starting {name}"\n',
    'cat >"/fsx/{team}/config-$SLURM_JOB_ID.json" <<EOF\n{{\n  "name": "{name}",\n'
    '  "nodes": {nodes},\n  "seed": {seed}\n}}\nEOF\n',
    'case "${{SLURM_JOB_PARTITION:-train}}" in\ntrain) PRIORITY=high ;;\n*) PRIORITY=low ;;\nesac\n'
    'export PRIORITY\n',
    'nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST")\nfor n in $nodes; do\n'
    '\techo "node: $n"\ndone\n',
    "trap 'echo \"job {name} ended with $?\" >&2' EXIT\n",
    'if [[ -f /fsx/{team}/STOP ]]; then\n\techo "stop file present" >&2\n\texit 0\nfi\n',
    'STEPS=$(( {nodes} * 1000 ))\nexport STEPS\n',
]

def vary(text, i, rng):
    team = "team%02d" % (i % 25)
    name = "job-%03d" % i
    nodes = rng.choice([1, 2, 4, 8, 16, 32, 64])
    text = re.sub(r"--job-name=\S+", "--job-name=" + name, text)
    text = re.sub(r"--time=\S+", "--time=%d:00:00" % rng.randint(1, 72), text)
    text = re.sub(r"--(n?nodes)=\d+", lambda m: "--%s=%d" % (m.group(1), nodes), text)
    # the set-up goes after the last #SBATCH line
    lines = text.splitlines(keepends=True)
    last = max(k for k, l in enumerate(lines) if l.startswith("#SBATCH"))
    blocks = rng.sample(SETUP, rng.randint(1, len(SETUP)))
    setup = "".join(b.format(team=team, name=name, nodes=nodes, seed=i) for b in blocks)
    return "".join(lines[: last + 1]) + setup + "".join(lines[last + 1 :]), team, name

rng = random.Random(1)
if os.path.isdir(out):
    shutil.rmtree(out)
total = 0
for i in range(count):
    text, team, name = vary(texts[i % len(texts)], i, rng)
    os.makedirs(os.path.join(out, team), exist_ok=True)
    with open(os.path.join(out, team, name + ".sbatch"), "w") as f:
        f.write(text)
    total += len(text)
print("%d scripts, %d bytes" % (count, total))
