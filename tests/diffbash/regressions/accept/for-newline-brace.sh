#!/bin/bash
for x
{ :; }
