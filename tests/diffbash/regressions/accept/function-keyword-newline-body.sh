#!/bin/bash
function f
{ :; }
