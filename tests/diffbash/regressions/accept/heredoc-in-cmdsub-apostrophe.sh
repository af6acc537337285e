#!/bin/bash
x=$(cat <<EOF
it's
EOF
)
