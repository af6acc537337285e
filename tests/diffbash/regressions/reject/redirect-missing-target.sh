#!/bin/bash
echo >
