#!/bin/bash
# The exact solver's thread scaling on a many-core machine, within a time budget: FFO #40-#49 on
# 1, 2, 4, 8 and N threads; #40-#59 on N threads; then one thread on #50-#59, the ten positions
# as single one-thread processes side by side (ten cores; in a row they take about 20 minutes),
# with #40-#49 on one thread looped beside them to show what running together costs (its last
# run is waited for, so the budget can be overrun by one #40-#49 on one thread). Each run's
# table, counts (`--verbose`) and CPU time go to LOG; a line a run to standard output. A run cut
# by the budget says so. FFO names another file of FFO lines.
#
#   cargo build --release && bash benches/solve-threads.sh [OTHELLO] [N] [BUDGET_S] [LOG]
set -u
O=$(realpath "${1:-target/release/othello}")
N=${2:-$(nproc)}
END=$(($(date +%s) + ${3:-600}))
L=${4:-solve-threads.log}
F=${FFO:-$(dirname "$0")/../fixtures/ffo/ffo-40-59.txt}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TIMEFORMAT='%R s wall, %U s user, %S s sys'
grep -E '^4[0-9] ' "$F" >"$W/f40"
grep -vE '^#' "$F" >"$W/f4059"
{ nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|L2|L3'; uptime; } >>"$L" 2>&1

# solve NAME THREADS FILE: one run within the budget left.
solve() {
    local left=$((END - $(date +%s)))
    if [ "$left" -lt 5 ]; then
        echo "$1: not run, the budget is spent"
        return
    fi
    echo "== $1: --threads $2 (at most ${left} s)" >>"$L"
    { time timeout "$left" "$O" solve --empties-to-winner --verbose --threads "$2" "$3"; } >>"$L" 2>&1
    echo "$1: $(grep -E '^[0-9]+ positions|^threads' "$L" | tail -2 | tr '\n' ' ')$(grep ' s wall' "$L" | tail -1)"
}

for t in 1 2 4 8; do
    if [ "$t" -lt "$N" ]; then
        solve "#40-#49, threads $t" "$t" "$W/f40"
    fi
done
solve "#40-#49, threads $N" "$N" "$W/f40"
solve "#40-#59, threads $N" "$N" "$W/f4059"

left=$((END - $(date +%s)))
if [ "$left" -lt 5 ]; then
    echo "one thread on #50-#59: not run, the budget is spent"
    exit 0
fi
echo "== one thread, #50-#59 side by side (at most ${left} s)" >>"$L"
pids=()
for i in 50 51 52 53 54 55 56 57 58 59; do
    grep -E "^$i " "$F" >"$W/p$i"
    ( { time timeout "$left" "$O" solve --empties-to-winner --threads 1 "$W/p$i"; } >"$W/o$i" 2>&1 ) &
    pids+=($!)
done
running() {
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done
    return 1
}
(
    while running; do
        { time "$O" solve --empties-to-winner --threads 1 "$W/f40" | tail -1; } 2>&1 | tr '\n' ' '
        echo
    done >"$W/beside"
) &
beside=$!
wait "${pids[@]}"
wait "$beside" # its last run, at most one more #40-#49
for i in 50 51 52 53 54 55 56 57 58 59; do
    { grep -E "^#$i| s wall" "$W/o$i" | tr '\n' ' '; echo; } | tee -a "$L"
done
echo "-- #40-#49 on one thread beside them:" | tee -a "$L"
tee -a "$L" <"$W/beside"
