#!/bin/bash
for i in 1; do [[ -n x ]]; done
