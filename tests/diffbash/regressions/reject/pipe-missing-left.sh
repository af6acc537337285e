#!/bin/bash
| a
