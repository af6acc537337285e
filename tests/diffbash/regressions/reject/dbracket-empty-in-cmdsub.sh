#!/bin/bash
x=$([[ ]])
