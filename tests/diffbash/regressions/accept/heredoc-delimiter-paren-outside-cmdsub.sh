#!/bin/bash
cat <<EOF
a
EOF)
