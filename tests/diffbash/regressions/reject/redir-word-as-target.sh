#!/bin/bash
> {fd}>""
