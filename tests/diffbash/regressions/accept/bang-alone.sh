#!/bin/bash
! ;
