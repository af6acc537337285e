# the node count of the run; the parallel sizes come from the file beside
export NNODES=4
source "$(dirname "${BASH_SOURCE[0]}")/parallel.sh"
