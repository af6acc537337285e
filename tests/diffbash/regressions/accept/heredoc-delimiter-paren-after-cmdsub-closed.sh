#!/bin/bash
${$(<<C)
'
C)}
