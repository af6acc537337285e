#!/bin/bash
echo $(S=(a\))
