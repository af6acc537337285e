#!/bin/bash
time ( : )
