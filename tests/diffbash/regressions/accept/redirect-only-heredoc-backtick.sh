#!/bin/bash
<<EOF
`
EOF
