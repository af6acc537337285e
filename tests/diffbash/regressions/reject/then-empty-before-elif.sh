#!/bin/bash
if true; then elif true; then :; fi
