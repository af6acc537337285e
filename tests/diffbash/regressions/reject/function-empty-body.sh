#!/bin/bash
f() { }
