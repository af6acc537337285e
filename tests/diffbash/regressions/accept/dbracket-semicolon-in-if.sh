#!/bin/bash
if true; then [[ -n x ]]; fi
