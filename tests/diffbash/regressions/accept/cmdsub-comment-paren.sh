#!/bin/bash
echo $(a # )
)
