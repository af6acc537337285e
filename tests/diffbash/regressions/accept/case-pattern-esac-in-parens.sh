#!/bin/bash
case x in (esac) ;; esac
