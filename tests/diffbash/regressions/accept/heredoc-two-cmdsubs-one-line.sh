#!/bin/bash
x=$(cat <<EOF) $(cat <<F)
1
EOF
2
F
echo ok
