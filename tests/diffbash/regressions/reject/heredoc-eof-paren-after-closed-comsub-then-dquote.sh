#!/bin/bash
($(<<X)"
X)"
