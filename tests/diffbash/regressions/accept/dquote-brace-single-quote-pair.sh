#!/bin/bash
echo "${x:-'}'}"
