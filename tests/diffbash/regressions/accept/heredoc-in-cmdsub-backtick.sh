#!/bin/bash
x=$(cat <<EOF
`
EOF
)
