#!/bin/bash
echo a=(1)
