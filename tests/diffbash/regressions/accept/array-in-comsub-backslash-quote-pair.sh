#!/bin/bash
x=$(S=(''\''))
