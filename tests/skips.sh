#!/bin/sh
# SPDX-License-Identifier: MIT
# The summary at the end of `make test`: what was skipped and why.
#   $1  the skip directory of check-unit: one Criterion TAP report per test
#       binary (*.tap, "# SKIP reason" lines), notes.log from tests/testutil.h
#       (kind<TAB>what<TAB>test) and from the Makefile, arm64.log (check-arm64)
#   $2  the jdoc tool, to list the kernels compiled in but not runnable here
# Under CI=true a skip for a missing corpus is a failure: CI always has ../shared.
dir=$1
cli=$2
tmp=$dir/summary.tmp
: > "$tmp"

# Criterion skips: "ok - suite::test  # SKIP reason"
for t in "$dir"/*.tap; do
    [ -f "$t" ] || continue
    sed -n 's/^ok - \([^ ]*\) *# SKIP \(.*\)$/\1\t\2/p' "$t" | while IFS="$(printf '\t')" read -r test why; do
        case $why in
        *corpus*|*../shared*) printf 'corpus\t%s\t%s\n' "$test" "$why" ;;
        *kernel*) k=$(echo "$why" | sed -n 's/^kernel \([a-z0-9_]*\).*/\1/p'); printf 'kernel\t%s\t%s\n' "${k:-?}" "$test" ;;
        *) printf 'other\t%s\t%s\n' "$test" "$why" ;;
        esac
    done >> "$tmp"
done
# tests/testutil.h notes: "kernel<TAB>name<TAB>test", "corpus<TAB>what<TAB>test"
if [ -f "$dir/notes.log" ]; then
    while IFS="$(printf '\t')" read -r kind what test; do
        case $kind in
        kernel) printf 'kernel\t%s\t%s\n' "$what" "$test" ;;
        corpus) printf 'corpus\t%s\t%s\n' "$test" "$what" ;;
        tool) printf 'tool\t%s\t%s\n' "$what" "$test" ;;
        *) printf 'other\t%s\t%s\n' "$test" "$what" ;;
        esac
    done < "$dir/notes.log" >> "$tmp"
fi
# the arm64 program under qemu: "skip: ..." lines
if [ -f "$dir/arm64.log" ]; then
    sed -n 's/^skip: //p' "$dir/arm64.log" | while read -r why; do
        case $why in
        *kernel*) printf 'kernel\t%s\tarm64::check_kernels\n' "$(echo "$why" | sed -n 's/^kernel \([a-z0-9_]*\).*/\1/p')" ;;
        *) printf 'corpus\tarm64::check_kernels\t%s\n' "$why" ;;
        esac
    done >> "$tmp"
fi

echo "== skipped"
fail=0
if [ ! -s "$tmp" ]; then
    echo "no test skipped anything"
fi
n=$(grep '^corpus' "$tmp" | cut -f2 | sort -u | wc -l)
if [ "$n" -gt 0 ]; then
    echo "corpus absent (../shared/corpus, the shared test corpus CI provides): $n tests skipped or cut short:"
    grep '^corpus' "$tmp" | cut -f2 | sort -u | xargs -n 3 | sed 's/^/    /'
    if [ "${CI:-}" = true ]; then
        echo "FAIL: CI=true and the corpus is missing: CI must provide ../shared/corpus"
        fail=1
    fi
fi
for k in $(grep '^kernel' "$tmp" | cut -f2 | sort -u); do
    tests=$(grep "^kernel	$k	" "$tmp" | cut -f3 | sort -u)
    n=$(echo "$tests" | wc -l)
    some=$(echo "$tests" | head -3 | tr '\n' ' ' | sed 's/ $//; s/ /, /g')
    [ "$n" -gt 3 ] && some="$some and $((n - 3)) more"
    echo "kernel $k not supported by this CPU: left out by $n tests ($some)"

done
# kernels compiled in that nothing above named (a test without a kernel loop)
if [ -x "$cli" ]; then
    "$cli" --kernels | while read -r k state; do
        [ "$state" = unsupported ] || continue
        grep -q "^kernel	$k	" "$tmp" || echo "kernel $k compiled in, not supported by this CPU: untested here"
    done
fi
grep '^tool' "$tmp" | while IFS="$(printf '\t')" read -r kind what why; do
    echo "$what: not run ($why)"
done
grep '^other' "$tmp" | while IFS="$(printf '\t')" read -r kind test why; do
    echo "$test: skipped ($why)"
done
rm -f "$tmp"
exit $fail
