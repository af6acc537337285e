#!/bin/bash
a &&
