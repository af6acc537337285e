#!/bin/bash
echo $(( $(case a in a) echo 1;; esac) ))
