#!/bin/bash
cat 0<(ls)
