#!/bin/bash
echo $((())
