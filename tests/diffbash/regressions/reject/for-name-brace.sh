#!/bin/bash
for x { :; }
