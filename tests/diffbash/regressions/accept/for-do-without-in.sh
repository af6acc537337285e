#!/bin/bash
for x do :; done
