#!/bin/bash
for x in a; { :; }
