#!/bin/bash
a=($(cat <<'EOF'
)(
EOF
))
