#!/bin/bash
echo $(S=(\'))
