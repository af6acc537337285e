#!/bin/bash
time
