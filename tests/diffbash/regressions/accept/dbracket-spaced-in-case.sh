#!/bin/bash
case a in a) [[ -n x ]] && :;; esac
