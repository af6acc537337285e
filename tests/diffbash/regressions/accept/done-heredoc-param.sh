#!/bin/bash
while false; do :; done <<EOF
${
EOF
