#!/bin/bash
( e )
