#!/bin/bash
echo hi
export A=1
