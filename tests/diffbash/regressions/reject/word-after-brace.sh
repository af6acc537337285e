#!/bin/bash
{ :; } x
