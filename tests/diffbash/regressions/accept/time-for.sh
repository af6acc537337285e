#!/bin/bash
time for i in 1; do :; done
