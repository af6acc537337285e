#!/bin/bash
echo $((1+$(S=(\'))))
