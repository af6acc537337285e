#!/bin/bash
until [[ -n x ]]; do [[ -z y ]] || break; done
