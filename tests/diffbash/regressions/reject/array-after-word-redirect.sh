#!/bin/bash
x=1 >f a=(1)
