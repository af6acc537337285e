#!/bin/bash
for (()); do :; done
