#!/bin/bash
if true; then :; fi c
