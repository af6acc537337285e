#!/bin/bash
time case a in a) ;; esac
