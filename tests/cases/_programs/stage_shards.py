import sys

print("staging", sys.argv[1:])
