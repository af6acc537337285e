#!/bin/bash
&
