#!/bin/bash
if true; then :; fi <<EOF
'
EOF
