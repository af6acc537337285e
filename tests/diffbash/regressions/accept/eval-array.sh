#!/bin/bash
eval a=(x)
