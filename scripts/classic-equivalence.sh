#!/usr/bin/env bash
# Classic 9×9 must never change: capture a binary's outputs on the first N
# cbg-000 puzzles (paths with W and sfin, SE ratings, the filter, B ratings)
# into DIR, then `diff -r` two captures. With `cg`, count instructions of the
# four benchmark runs under callgrind instead (stable to 0.1%; wall time on
# this machine is not).
#
#   scripts/classic-equivalence.sh capture BIN DIR [N]   (N defaults to 300)
#   scripts/classic-equivalence.sh cg BIN TAG            (first 100 puzzles)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
data="${RULEDOKU_DATA:-$here/../shared/data}"
mode="$1"; bin="$2"
case "$mode" in
capture)
    dir="$3"; n="${4:-300}"
    mkdir -p "$dir"
    head -n "$n" "$data/cbg-000/puzzles.txt" > "$dir/input.txt"
    run() { local name="$1"; shift
        "$bin" "$@" "$dir/input.txt" > "$dir/$name.out" 2> "$dir/$name.err" || echo "exit $?" >> "$dir/$name.err"; }
    run solve-sfin solve --rules sfin --no-time
    run solve-w solve --rules w --no-time
    run rate-w rate --rules w --no-time
    run rate-b rate --rules b --no-time
    run rate-gw rate --rules gw --no-time
    run rate-se rate --se --no-time
    run solve-se solve --se --no-time
    run filter filter
    run filter-slow filter --slow
    # The filter's summary line carries a throughput figure: keep it out of diffs.
    sed -i -E 's/[0-9.]+ puzzles\/s(econd)?/RATE/g; s/[0-9.]+ ?s\b/TIME/g' "$dir"/filter*.err
    ;;
cg)
    tag="$3"; out="/tmp/cg-$tag"; mkdir -p "$out"
    head -n 100 "$data/cbg-000/puzzles.txt" > "$out/input.txt"
    for set in sfin w se filter; do
        case "$set" in
        se) args=(rate --se --no-time) ;;
        filter) args=(filter) ;;
        *) args=(rate --rules "$set" --no-time) ;;
        esac
        valgrind --tool=callgrind --callgrind-out-file="$out/$set.cg" \
            "$bin" "${args[@]}" "$out/input.txt" > /dev/null 2> "$out/$set.log"
        printf '%s %s\n' "$set" "$(grep -E '^(summary|totals):' "$out/$set.cg" | head -1 | awk '{print $2}')"
    done
    ;;
*) echo "usage: $0 capture BIN DIR [N] | cg BIN TAG" >&2; exit 2 ;;
esac
