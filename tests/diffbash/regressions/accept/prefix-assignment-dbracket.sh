#!/bin/bash
if true; then C= [[ x ]]; fi
