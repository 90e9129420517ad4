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
now() { date +%s.%N; }
total=$((PROGRAMS * CASES))
report() { awk -v what="$1" -v s="$2" -v e="$3" -v n="$total" \
    'BEGIN { printf "%-34s %7.2f s  %6.0f cases/s\n", what, e - s, n / (e - s) }'; }
for round in 1 2; do
    s=$(now)
    "$O" check cases --each 'class/*/' --jobs 2 -- ./run.sh >/dev/null
    e=$(now)
    report "one run, --each ($round)" "$s" "$e"
    s=$(now)
    for d in class/*/; do
        (cd "$d" && "$O" check ../../cases --jobs 2 -- ./run.sh >/dev/null)
    done
    e=$(now)
    report "$PROGRAMS separate runs ($round)" "$s" "$e"
done
