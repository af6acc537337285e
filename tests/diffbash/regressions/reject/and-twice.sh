#!/bin/bash
a && && b
