#!/bin/bash
(a) b
