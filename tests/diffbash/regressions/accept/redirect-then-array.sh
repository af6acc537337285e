#!/bin/bash
>f a=(1)
