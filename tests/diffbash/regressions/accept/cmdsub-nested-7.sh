#!/bin/bash
x=$(echo $(echo $(echo $(echo $(echo $(echo $(echo a)))))))
