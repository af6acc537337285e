#!/bin/bash
x=$([[ a
== b ]])
