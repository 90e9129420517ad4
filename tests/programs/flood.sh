#!/bin/sh
# Wrong on purpose: prints the right transcript, then an endless stream of "y" lines.
"$@"
yes
