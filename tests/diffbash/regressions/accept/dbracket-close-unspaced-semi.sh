#!/bin/bash
if [[ -z ${A} ]]; then echo a; fi
while [[ -n $B ]]&& false; do :; done
