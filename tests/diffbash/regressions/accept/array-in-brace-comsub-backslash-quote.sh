#!/bin/bash
echo ${x:-$(S=(\'))}
