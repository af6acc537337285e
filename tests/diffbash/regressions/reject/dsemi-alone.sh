#!/bin/bash
;;
