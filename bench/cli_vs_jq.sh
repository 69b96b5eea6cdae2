#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench-jq`: the CLI against jq on a large Docker list. Generates a
# /containers/json of N containers (default 600000, about 1 GB) with
# gen_docker, then times, each once, on the same CPU: jdoc -r FILE '$[*].Id',
# jq -r '.[].Id' FILE, and jq's parse alone (jq empty FILE); checks that jdoc
# and jq print the same lines and prints the ratios. Needs jq; says so and
# exits 0 without it. Usage: bench/cli_vs_jq.sh BUILD_DIR [N] [CPU]
set -euo pipefail
build=${1:?usage: cli_vs_jq.sh BUILD_DIR [N] [CPU]}
n=${2:-600000}
cpu=${3:-1}
if ! command -v jq >/dev/null; then
    echo "bench-jq: jq is not installed (apt-get install -y jq): not run"
    exit 0
fi
pin=""
if taskset -c "$cpu" true 2>/dev/null; then pin="taskset -c $cpu"; fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/jdoc-bench-jq.XXXXXX")
trap 'rm -rf "$dir"' EXIT
f=$dir/list.json
"$build/gen_docker" list "$n" >"$f"
bytes=$(stat -c %s "$f")
echo "bench-jq: $n containers, $bytes bytes; $(jq --version); each timed once, ${pin:-not pinned}"

# wall seconds and peak RSS (KiB) of a command, its output to a file
run() {
    local out=$1; shift
    /usr/bin/time -f "%e %M" -o "$dir/time" $pin "$@" >"$out"
    cat "$dir/time"
}
read -r tj rj < <(run "$dir/jdoc.txt" "$build/jdoc" -r "$f" '$[*].Id')
read -r tq rq < <(run "$dir/jq.txt" jq -r '.[].Id' "$f")
read -r tp rp < <(run /dev/null jq empty "$f")
if ! cmp -s "$dir/jdoc.txt" "$dir/jq.txt"; then
    echo "bench-jq: jdoc and jq printed different Ids" >&2
    exit 1
fi
printf '%-34s %8s s %8s MB\n' "jdoc -r FILE '\$[*].Id'" "$tj" "$((rj / 1024))"
printf '%-34s %8s s %8s MB\n' "jq -r '.[].Id' FILE" "$tq" "$((rq / 1024))"
printf '%-34s %8s s %8s MB\n' "jq empty FILE (the parse alone)" "$tp" "$((rp / 1024))"
awk -v j="$tj" -v q="$tq" -v p="$tp" 'BEGIN {
    printf "jq time / jdoc time: %.1fx (the same query), %.1fx (jq parse alone)\n", q / j, p / j
    printf "goal cli-jq  jdoc all Ids faster than jq parses  %s\n", (j < p ? "MET" : "NOT MET") }'
