#!/bin/bash
case a in a) ; esac
