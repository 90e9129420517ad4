#!/bin/sh
# Wrong on purpose: prints the first 3 lines, then waits for ever (in a child process that
# holds standard output open, as a stuck helper would).
"$@" | head -n 3
sleep 600
