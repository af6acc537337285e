#!/bin/bash
cat <(S=(\;))
