#!/bin/bash
{ [[ -n x ]]||:; }
