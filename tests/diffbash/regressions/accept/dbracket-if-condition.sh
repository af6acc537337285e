#!/bin/bash
if [[ -n x ]]; then :; fi
