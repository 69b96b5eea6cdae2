#!/bin/sh
# SPDX-License-Identifier: MIT
# run_oj_fast.sh PATH/TO/test_fast.rb: runs Oj's own test suite for Oj::Doc
# against jdoc, with Oj::Doc and Oj::ParseError aliased to jdoc's classes,
# once in strict mode (Jdoc::Doc) and once in oj_compat mode (Jdoc::OjDoc),
# and prints the counts of each run. The test file's folder must hold Oj's
# test helper.rb; `make ruby` must have built the extension. Exit status: 0
# when both runs ran (whatever they counted), 2 on a usage error.
set -u
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 PATH/TO/test_fast.rb" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
lib="$here/../lib"
test_file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
status=0
for mode in strict oj_compat; do
    out=$(${RUBY:-ruby} -I"$lib" -e '
        require "oj"
        require "jdoc"
        mode, file = ARGV
        Oj.send(:remove_const, :Doc)
        Oj.const_set(:Doc, mode == "strict" ? Jdoc::Doc : Jdoc::OjDoc)
        Oj.send(:remove_const, :ParseError)
        Oj.const_set(:ParseError, Jdoc::ParseError)
        ARGV.clear
        load file
    ' "$mode" "$test_file" 2>&1)
    counts=$(printf '%s\n' "$out" | grep -E '^[0-9]+ runs, ' | tail -1)
    if [ -z "$counts" ]; then
        printf '%s\n' "$out" >&2
        echo "$mode: the run did not finish" >&2
        status=1
        continue
    fi
    runs=$(echo "$counts" | sed 's/ runs.*//')
    failed=$(echo "$counts" | sed -E 's/.* ([0-9]+) failures, ([0-9]+) errors.*/\1 \2/' | awk '{ print $1 + $2 }')
    printf '%s\n' "$out" | grep -E '^ +[0-9]+\) (Failure|Error):' -A1 | grep -E '^DocTest#' | sed "s/^/$mode: not passed: /"
    printf '%-9s %d of %d passed (%s)\n' "$mode:" $((runs - failed)) "$runs" "$counts"
done
exit $status
