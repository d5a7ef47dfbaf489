#!/usr/bin/env bash
# Runs each built fuzzer for a while and prints one line per target; exits non-zero if any crashed.
# Usage (make fuzz calls it): Fuzz/run.sh <build dir> <seconds> <target>...
# New inputs go to <build dir>/corpus-<target>; the committed seeds in Fuzz/corpus/<target> are read only
# (libFuzzer writes to its first corpus directory alone). FUZZ_ARGS is passed on to libFuzzer.
set -u
dir=$1
seconds=$2
shift 2
mkdir -p "$dir/artifacts"
# libFuzzer reports a crash itself; the Swift runtime's backtracer would then wait on a terminal that is
# not there.
export SWIFT_BACKTRACE=enable=no

rows=()
crashed=()
for target in "$@"; do
    corpus="$dir/corpus-$target"
    log="$dir/$target.log"
    mkdir -p "$corpus"
    dict=()
    [ -f "Fuzz/dict/$target.dict" ] && dict=(-dict="Fuzz/dict/$target.dict")
    echo "fuzzing $target for ${seconds}s (log: $log)"
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    "$dir/bin/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$target-" "${dict[@]}" ${FUZZ_ARGS:-} "$corpus" "Fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | awk '{ print $2 "/" $4 }')
    corpus_size=$(find "$corpus" -type f | wc -l)
    if [ "$status" -eq 0 ]; then
        result="ok"
    else
        crashed+=("$target")
        artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
        reason=$(grep -m1 -oE 'Fatal error: .*|out-of-memory [^ ]+ [^ ]+|ERROR: [A-Za-z]+Sanitizer: [a-z-]+|deadly signal|timeout' "$log")
        result="CRASH ${artifact:-(no artifact)}: ${reason:-see $log}"
    fi
    rows+=("$(printf '%-22s %12s %8s %12s %7s  %s' "$target" "${executions:-?}" "${rate:-?}" "${coverage:-?}" "$corpus_size" "$result")")
done

echo
printf '%-22s %12s %8s %12s %7s  %s\n' target executions exec/s cov/ft corpus result
printf '%s\n' "${rows[@]}"
if [ "${#crashed[@]}" -gt 0 ]; then
    echo "crashed: ${crashed[*]} (reproduce: $dir/bin/<target> <artifact>)"
    exit 1
fi
