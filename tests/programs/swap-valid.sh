#!/bin/sh
# Wrong on purpose: says INVALID for every VALID move and VALID for every INVALID one.
"$@" | sed -e 's/^VALID$/@/' -e 's/^INVALID$/VALID/' -e 's/^@$/INVALID/'
