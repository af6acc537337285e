#!/bin/bash
for i in 1; do a ||
done
