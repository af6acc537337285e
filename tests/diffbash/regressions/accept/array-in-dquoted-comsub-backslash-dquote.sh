#!/bin/bash
echo "$(S=(\"))"
