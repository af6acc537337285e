#!/bin/bash
time { :; }
