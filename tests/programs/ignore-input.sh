#!/bin/sh
# Wrong on purpose: prints the banner and exits without reading its input.
echo FULL
