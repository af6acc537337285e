#!/bin/bash
f() [[ -n x ]]
