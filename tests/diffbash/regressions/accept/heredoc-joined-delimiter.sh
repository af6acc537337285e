#!/bin/bash
cat <<EOF
a \
EOF
b
EOF
