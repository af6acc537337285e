#!/bin/bash
>f x=1 a=(1)
