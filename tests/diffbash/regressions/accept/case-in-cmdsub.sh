#!/bin/bash
x=$(case $1 in a) echo;; esac)
