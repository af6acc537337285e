#!/bin/bash
x=$(cat <<EOF) rest
body )
EOF
echo after
