#!/bin/bash
S[ #'
