#!/bin/bash
x=$(time { :; })
