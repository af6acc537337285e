#!/bin/bash
{ in; }
