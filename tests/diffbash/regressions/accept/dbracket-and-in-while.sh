#!/bin/bash
while true; do [[ -n x ]]&&break; done
