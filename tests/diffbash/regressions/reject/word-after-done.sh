#!/bin/bash
for i in 1; do :; done x
