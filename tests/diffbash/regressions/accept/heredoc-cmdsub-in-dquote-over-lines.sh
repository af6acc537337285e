#!/bin/bash
echo "$(cat <<C)]
body
C
" rest
