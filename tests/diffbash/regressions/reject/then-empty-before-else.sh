#!/bin/bash
if true; then else :; fi
