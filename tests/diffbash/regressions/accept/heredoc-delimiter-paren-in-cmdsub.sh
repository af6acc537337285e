#!/bin/bash
x=$(cat <<EOF
a
EOF)
echo after
