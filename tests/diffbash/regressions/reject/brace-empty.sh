#!/bin/bash
{ }
