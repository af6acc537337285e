#!/bin/bash
coproc { :; }
