#!/bin/bash
echo ${x:-$((1+$(S=(\'))))}
