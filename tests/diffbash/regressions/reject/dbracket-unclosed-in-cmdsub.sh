#!/bin/bash
x=$([[ -n c )
