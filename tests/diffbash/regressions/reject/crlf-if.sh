#!/bin/bash
if true; then
  echo hi
fi
