#!/bin/bash
{ [[ -n x ]] || :; }
