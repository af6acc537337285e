#!/bin/bash
while false; do <<'EOF'
case x in)
EOF
done
