#!/bin/bash
{ [[ -n x ]] }
