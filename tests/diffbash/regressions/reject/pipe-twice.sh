#!/bin/bash
a | | b
