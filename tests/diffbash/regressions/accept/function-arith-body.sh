#!/bin/bash
f() (( x++ ))
