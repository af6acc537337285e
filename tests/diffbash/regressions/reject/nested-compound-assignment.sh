#!/bin/bash
declare a=(b=(c))
