#!/bin/bash
( )
