#!/usr/bin/env bash
# Keeps what fuzzing found: for each target, the inputs of <build dir>/corpus-<target> that reach coverage
# the committed corpus Fuzz/corpus/<target> does not are added to it, minimised by libFuzzer's
# -set_cover_merge=1 (a small set of inputs that together reach every new feature: about half the files
# -merge=1 keeps, for the same features), so the repository never gains the whole grown corpus.
# Committed files are not touched or renamed (make-seeds.py's names stay).
# Usage (make fuzz-merge calls it): Fuzz/merge.sh <build dir> <target>...
set -euo pipefail
dir=$1
shift
export SWIFT_BACKTRACE=enable=no

files() { find "$1" -type f | wc -l; }
kilobytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s / 1024 }'; }

printf '%-22s %9s %14s %14s\n' target found "kept before" "kept after"
for target in "$@"; do
    kept="Fuzz/corpus/$target"
    found="$dir/corpus-$target"
    mkdir -p "$found"
    before="$(files "$kept") / $(kilobytes "$kept") KB"
    "$dir/bin/$target" -set_cover_merge=1 -timeout=10 "$kept" "$found" >"$dir/$target.merge.log" 2>&1 || {
        echo "merge of $target failed: see $dir/$target.merge.log" >&2
        exit 1
    }
    printf '%-22s %9s %14s %14s\n' "$target" "$(files "$found")" "$before" "$(files "$kept") / $(kilobytes "$kept") KB"
done
