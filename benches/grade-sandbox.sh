#!/bin/sh
# What containment costs a case: 100 programs x 100 cases in one `othello check --each` run with
# cgroups and PID namespaces (where the host gives them), with cgroups only
# (OTHELLO_NO_PID_NAMESPACE=1), and contained by process group only (OTHELLO_NO_CGROUPS=1), back
# to back, twice (A B C A B C), --jobs 2. Two kinds
# of program: run.sh that execs othello (every case passes), and run.sh that execs cat (no
# work of its own: what is left is the checker's, the containment's and process start-up).
#
#   cargo build --release && sh benches/grade-sandbox.sh [OTHELLO] [PROGRAMS] [CASES]
set -eu
O=$(realpath "${1:-target/release/othello}")
PROGRAMS=${2:-100}
CASES=${3:-100}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$O" gen --out "$W/cases" --count "$CASES" --seed 1 >/dev/null
for kind in othello cat; do
    i=1
    while [ "$i" -le "$PROGRAMS" ]; do
        d=$(printf '%s/%s/s%03d' "$W" "$kind" "$i")
        mkdir -p "$d"
        if [ "$kind" = othello ]; then
            printf '#!/bin/sh\nexec %s\n' "$O" >"$d/run.sh"
        else
            printf '#!/bin/sh\nexec cat\n' >"$d/run.sh"
        fi
        chmod +x "$d/run.sh"
        i=$((i + 1))
    done
done
cd "$W"
total=$((PROGRAMS * CASES))
# Wall-clock and CPU seconds (user + system, the checker's and every program's) of a command.
measure() {
    what=$1
    shift
    /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >/dev/null || true
    tail -n 1 "$W/time" >"$W/time.last"
    awk -v what="$what" -v n="$total" '{ printf "%-34s %7.2f s wall %6.0f cases/s  %6.2f s CPU  %5.2f ms CPU a case\n", what, $1, n / $1, $2 + $3, 1000 * ($2 + $3) / n }' "$W/time.last"
}
for kind in othello cat; do
    for round in 1 2; do
        measure "$kind, cgroup + namespace ($round)" "$O" check cases --each "$kind/*/" \
            --jobs 2 -- ./run.sh
        measure "$kind, cgroup ($round)" env OTHELLO_NO_PID_NAMESPACE=1 \
            "$O" check cases --each "$kind/*/" --jobs 2 -- ./run.sh
        measure "$kind, process groups ($round)" env OTHELLO_NO_CGROUPS=1 \
            "$O" check cases --each "$kind/*/" --jobs 2 -- ./run.sh 2>/dev/null
    done
done
