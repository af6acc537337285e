#!/bin/bash
echo "$(S=(\'))"
