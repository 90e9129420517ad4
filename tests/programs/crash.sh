#!/bin/sh
# Wrong on purpose: prints the first 5 lines, complains on standard error and exits with status 3.
"$@" | head -n 5
echo "boom: something broke" >&2
exit 3
