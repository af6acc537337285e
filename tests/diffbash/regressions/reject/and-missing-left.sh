#!/bin/bash
&& a
