#!/bin/bash
echo "${x:-'}"
