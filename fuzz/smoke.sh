#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make fuzz-smoke`: for each target, replay its committed regression inputs, then fuzz
# it for FUZZ_SECONDS from a seed corpus copied from ../shared/corpus (when present).
# Usage: fuzz/smoke.sh BUILD_DIR TARGET...   Exit status 1 when any target failed.
set -uo pipefail
out=$1
shift
secs=${FUZZ_SECONDS:-60}
shared=../shared/corpus
dict=fuzz/json.dict

# Largest input per target: big enough for 10,000-digit numbers and 64-byte
# block carries, small enough to keep executions fast.
max_len() {
    case $1 in
    fuzz_number | fuzz_string) echo 12000 ;;
    *) echo 16384 ;;
    esac
}

# Seed files from the shared corpus for a target (files up to 64 KiB).
seeds() {
    [ -d "$shared" ] || return 0
    local pat='*'
    case $1 in
    fuzz_number) pat='*number*' ;;
    fuzz_string) pat='*string*' ;;
    esac
    find "$shared/standard" "$shared/docker" "$shared/conformance" -type f -name "$pat" -size -65k 2>/dev/null |
        grep -v 'PROVENANCE' | sort
}

# What failed, in a few lines for the end of the run (CI shows only its tail): the
# first report line and, when the crash input minimizes to a few hundred bytes, the
# input in base64.
brief() { # target log art
    grep -m1 -E 'check failed|ERROR: |runtime error|deadly signal|out-of-memory|leak' "$2" | cut -c1-300
    grep -m1 -A1 'check failed' "$2" | tail -n 1 | cut -c1-400
    local crash
    crash=$(find "$3" -maxdepth 1 -type f ! -name 'minimized-*' | head -n 1)
    [ -n "$crash" ] || return 0
    "$out/$1" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$3minimized-input" "$crash" >/dev/null 2>&1
    [ -s "$3minimized-input" ] && crash=$3minimized-input
    echo "input ($(wc -c <"$crash") bytes, $crash)"
    [ "$(wc -c <"$crash")" -le 600 ] && base64 -w0 "$crash" && echo
    return 0
}

failed=0
summary=()
details=()
for t in "$@"; do
    bin=$out/$t
    corpus=$out/corpus/$t
    art=$out/artifacts/$t/
    log=$out/logs/$t.log
    mkdir -p "$corpus" "$art" "$out/logs"
    status=ok

    # 1. regression inputs: each must run clean
    mapfile -t regs < <(find "fuzz/regressions/$t" -type f 2>/dev/null | sort)
    if ((${#regs[@]})); then
        if ! "$bin" -rss_limit_mb=2048 "${regs[@]}" >"$log.regress" 2>&1; then
            echo "== $t: a regression input fails:"
            tail -40 "$log.regress"
            status="REGRESSION FAILED"
            details+=("== $t:" "$(grep -m1 -E 'check failed|ERROR: |runtime error' "$log.regress" | cut -c1-300)")
        fi
    fi

    # 2. seeds (copies, so the shared tree stays untouched) and the regression inputs
    seeds "$t" | while read -r f; do
        dst=$corpus/seed-$(echo "$f" | tr '/' '_')
        [ -e "$dst" ] || { cp "$f" "$dst" && chmod u+w "$dst"; }
    done
    for f in "${regs[@]}"; do cp "$f" "$corpus/regress-$(basename "$f")" 2>/dev/null && chmod u+w "$corpus/regress-$(basename "$f")"; done

    # 3. fuzz
    runs=0
    if [ "$status" = ok ]; then
        "$bin" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=30 -rss_limit_mb=2048 \
            -dict="$dict" -artifact_prefix="$art" -print_final_stats=1 "$corpus" >"$log" 2>&1
        rc=$?
        runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | awk '{print $2}')
        runs=${runs:-0}
        if [ $rc != 0 ]; then
            echo "== $t: fuzzing failed (exit $rc); the input is in $art:"
            grep -v '^#' "$log" | tail -60
            status="CRASH (exit $rc)"
            details+=("== $t:" "$(brief "$t" "$log" "$art")")
        fi
    fi
    [ "$status" = ok ] || failed=$((failed + 1))
    if [ "$status" = "REGRESSION FAILED" ]; then
        line=$(printf '%-14s %10s, %s regression inputs: %s' "$t" "not fuzzed" "${#regs[@]}" "$status")
    else
        line=$(printf '%-14s %10s runs in %ss, %s regression inputs: %s' "$t" "$runs" "$secs" "${#regs[@]}" "$status")
    fi
    echo "$line"
    summary+=("$line")
done

echo "== fuzz-smoke summary (logs in $out/logs)"
printf '%s\n' "${summary[@]}"
((${#details[@]})) && printf '%s\n' "${details[@]}"
echo "fuzz-smoke: $(($# - failed)) passed, $failed failed"
[ $failed = 0 ]
