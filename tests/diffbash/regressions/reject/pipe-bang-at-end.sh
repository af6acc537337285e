#!/bin/bash
a | !
