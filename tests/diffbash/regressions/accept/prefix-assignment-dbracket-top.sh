#!/bin/bash
C= [[ x ]]
