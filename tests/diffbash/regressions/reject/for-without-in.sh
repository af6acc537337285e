#!/bin/bash
for t i; do :; done
