#!/bin/bash
time a=(1)
