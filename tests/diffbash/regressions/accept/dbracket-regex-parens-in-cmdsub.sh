#!/bin/bash
x=$([[ x =~ ( a|b ) ]])
