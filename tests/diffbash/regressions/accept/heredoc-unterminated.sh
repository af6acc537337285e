#!/bin/bash
cat <<EOF
the delimiter never comes
