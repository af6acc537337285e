#!/bin/bash
for ((a;b;c;d)); do :; done
