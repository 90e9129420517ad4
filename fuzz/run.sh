#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, one after the other, with corpora
# seeded from the repository's fixtures. Needs cargo-fuzz (`cargo install cargo-fuzz`) and a C++
# compiler; RUSTC_BOOTSTRAP=1 lets the stable toolchain build with the sanitizer flags.
#
#   fuzz/run.sh 600                 # every target, 10 minutes each
#   fuzz/run.sh 60 protocol setup   # two targets, a minute each
#
# Corpora grow in fuzz/corpus/TARGET, crashes land in fuzz/artifacts/TARGET (both untracked);
# each target's status lines are printed as it ends. A target that fails (does not build, or
# finds a crash) has the end of its log printed; the others still run, and the script exits
# with status 1 naming the failed ones.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(protocol setup play_input ffo engine record nboard gtp samples weights)
fi
export RUSTC_BOOTSTRAP=1

seed() {
    local target=$1 dir=corpus/$1
    mkdir -p "$dir"
    case $target in
        protocol)
            for file in ../fixtures/protocol/full/*.in ../fixtures/protocol/simple/*.in; do
                local rules=$'\x00'
                [[ $file == */simple/* ]] && rules=$'\x01'
                { printf '%s' "$rules"; cat "$file"; } > "$dir/$(basename "$(dirname "$file")")-$(basename "$file")"
            done ;;
        setup)
            cp ../fixtures/protocol/full/*.in "$dir/" ;;
        ffo)
            local n=0
            while IFS= read -r line; do
                n=$((n + 1))
                printf '%s\n' "$line" > "$dir/line-$n"
            done < ../fixtures/ffo/ffo-40-59.txt ;;
        play_input)
            local n=0
            for text in d3 D3 3d c10 10c "3 4" hint undo new pass moves help quit q '?' p16 a1 zz 0; do
                n=$((n + 1))
                printf '\x77%s' "$text" > "$dir/typed-$n"
            done ;;
        record)
            for file in ../fixtures/records/*; do
                { printf '\x00'; cat "$file"; } > "$dir/$(basename "$file")"
            done ;;
        engine) ;;
        nboard)
            printf 'nboard 2\nset depth 4\nset game (;GM[Othello]PC[NBoard]SZ[8]RE[?]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)\nhint 3\ngo\nmove d3\nping 1\nset contempt 20\nlearn\nanalyze\nquit\n' > "$dir/session"
            printf 'set game (;GM[Othello]SZ[8]BO[8 -------------------------------------------------------------O*O *]B[PA];)\nmove PA\ngo\n' > "$dir/pass"
            printf 'set depth 0\nset depth 99\nmove z9\nhint x\nset game (;\n' > "$dir/errors" ;;
        gtp)
            printf 'protocol_version\n1 name\nlist_commands\nboardsize 6\nplay b c2\ngenmove w\nplay b pass\nundo\nshowboard\nfinal_score\ntime_settings 10 1 1\ntime_left b 5 1\nset_depth 61\nquit\n' > "$dir/session"
            printf 'boardsize 4\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nplay w pass\nplay b pass\nfinal_score\n' > "$dir/4x4" ;;
        samples)
            # The header, then the standard start as the one position of a game (first and last).
            printf 'OTHDAT01\x00\x00\x00\x10\x08\x00\x00\x00\x00\x00\x00\x08\x10\x00\x00\x00\x00\x06' > "$dir/one"
            printf '\x00\x00\x00\x10\x08\x00\x00\x00\x00\x00\x00\x08\x10\x00\x00\x00\xfe\x07' > "$dir/headerless" ;;
        weights)
            # Header and checksum added (flags 3); every weight zero: 25 full runs and one of 34945.
            { printf '\x03'; for _ in $(seq 25); do printf '\x00\x80\xff\xff'; done; printf '\x00\x80\x81\x88'; } > "$dir/zeros"
            printf '\x03\x05\x00\x00\x80' > "$dir/short" ;;
    esac
}

failed=()
for target in "${targets[@]}"; do
    seed "$target"
    echo "== $target: $seconds s"
    # The status is cargo fuzz's (a build that fails, a crash, a leak, a timeout); the filter
    # finding no line is no failure.
    status=0
    cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -print_final_stats=1 \
        2>&1 | tee "corpus/$target.log" \
        | { grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==|SUMMARY|Done)' || true; } \
        || status=$?
    if [ "$status" != 0 ]; then
        echo "== $target FAILED (exit status $status); the end of fuzz/corpus/$target.log:" >&2
        tail -n 30 "corpus/$target.log" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "failed: ${failed[*]} (inputs that crash are in fuzz/artifacts/TARGET)" >&2
    exit 1
fi
