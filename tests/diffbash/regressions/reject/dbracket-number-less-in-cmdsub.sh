#!/bin/bash
x=$([[ 1<2 ]])
