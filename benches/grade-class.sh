#!/bin/sh
# Grading a class, measured: 30 programs x 300 cases in one `othello check --each` run against
# the same 30 programs checked by 30 separate `othello check` runs, both with --jobs 2, back to
# back, twice (A B A B). Each program is a submission directory whose run.sh execs othello
# itself, so every case passes and the figures are the checker's and process start-up's.
#
#   cargo build --release && sh benches/grade-class.sh [OTHELLO] [PROGRAMS] [CASES]
set -eu
O=$(realpath "${1:-target/release/othello}")
PROGRAMS=${2:-30}
CASES=${3:-300}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$O" gen --out "$W/cases" --count "$CASES" --seed 1 >/dev/null
i=1
while [ "$i" -le "$PROGRAMS" ]; do
    d=$(printf '%s/class/s%02d' "$W" "$i")
    mkdir -p "$d"
    printf '#!/bin/sh\nexec %s\n' "$O" >"$d/run.sh"
    chmod +x "$d/run.sh"
    i=$((i + 1))
done
cd "$W"
total=$((PROGRAMS * CASES))
# Wall-clock and CPU seconds (user + system, the checker's and every program's) of a command.
measure() {
    what=$1
    shift
    /usr/bin/time -f '%e %U %S' -o "$W/time" "$@" >/dev/null
    awk -v what="$what" -v n="$total" '{ printf "%-24s %7.2f s wall %6.0f cases/s  %6.2f s CPU %6.0f cases per CPU-s\n", what, $1, n / $1, $2 + $3, n / ($2 + $3) }' "$W/time"
}
export O
for round in 1 2; do
    measure "one run, --each ($round)" "$O" check cases --each 'class/*/' --jobs 2 -- ./run.sh
    measure "$PROGRAMS separate runs ($round)" sh -c 'for d in class/*/; do
        (cd "$d" && "$O" check ../../cases --jobs 2 -- ./run.sh) || exit 1
    done'
done
