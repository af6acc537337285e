#!/bin/bash
coproc {
