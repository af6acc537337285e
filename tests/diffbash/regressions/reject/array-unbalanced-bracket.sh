#!/bin/bash
a=([)
