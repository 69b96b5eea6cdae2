#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation check (`make check-mutants`): apply each deliberate bug of
# tests/mutants/list.txt, one at a time, to a scratch copy of the tree (never
# to the tree itself), rebuild, run the tests the mutant names, and expect them
# to fail. Prints "N killed, M survived"; exits 1 on any survivor, on a mutant
# whose original text is not found exactly once in its file (the list must
# follow the code), on a mutant that does not build, and when the unmutated
# copy fails its own tests.
#
# usage: tests/mutants/run.sh [LIST] [NAME...]   (NAMEs: run only those mutants)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
list=${1:-$root/tests/mutants/list.txt}
[ $# -gt 0 ] && shift
only=("$@")
build=${BUILD:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
scratch=$build/mutants
tree=$scratch/tree
jobs=${MUTANT_JOBS:-2}

die() { echo "check-mutants: $*" >&2; exit 1; }
[ -f "$list" ] || die "no list $list"

# ---- the list: blocks of "key: value" lines, blank-line separated; the
# lines after a from: or to: line that start with no key continue its text
names=() files=() tests=() froms=() tos=() needs=()
n=-1
lineno=0
last=
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case $line in
    '#'*|'') last=; continue ;;
    'name: '*)  n=$((n + 1)); names[n]=${line#name: }; files[n]=; tests[n]=; froms[n]=; tos[n]=; needs[n]= ;;
    'file: '*)  [ $n -ge 0 ] || die "$list:$lineno: 'file:' before 'name:'"; files[n]=${line#file: } ;;
    'tests: '*) [ $n -ge 0 ] || die "$list:$lineno: 'tests:' before 'name:'"; tests[n]=${line#tests: } ;;
    'needs: '*) [ $n -ge 0 ] || die "$list:$lineno: 'needs:' before 'name:'"; needs[n]=${line#needs: } ;;
    'from: '*)  [ $n -ge 0 ] || die "$list:$lineno: 'from:' before 'name:'"; froms[n]=${line#from: } ;;
    'to: '*)    [ $n -ge 0 ] || die "$list:$lineno: 'to:' before 'name:'"; tos[n]=${line#to: } ;;
    'to:')      [ $n -ge 0 ] || die "$list:$lineno: 'to:' before 'name:'"; tos[n]= ;;
    *)  # a line that continues the text of the last from: or to:
        case $last in
        from) froms[n]+=$'\n'$line ;;
        to) tos[n]+=$'\n'$line ;;
        *) die "$list:$lineno: unknown line: $line" ;;
        esac
        continue ;;
    esac
    last=${line%%:*}
done < "$list"
total=$((n + 1))
[ $total -gt 0 ] || die "no mutants in $list"

# How often `from` occurs in file (perl: exact bytes, no patterns).
count() { FROM=$2 perl -0777 -ne 'my $f = $ENV{FROM}; my $c = 0; my $i = 0;
    while (($i = index($_, $f, $i)) >= 0) { $c++; $i += length $f } print $c' "$1"; }
# Replace the one occurrence of FROM with TO in file $1.
apply() { FROM=$2 TO=$3 perl -0777 -i -pe 'my $i = index($_, $ENV{FROM});
    substr($_, $i, length $ENV{FROM}) = $ENV{TO} if $i >= 0' "$1"; }

bad=0
declare -A seen
for ((i = 0; i < total; i++)); do
    nm=${names[i]}
    [ -n "${seen[$nm]:-}" ] && { echo "check-mutants: duplicate name $nm"; bad=1; }
    seen[$nm]=1
    [ -n "${files[i]}" ] && [ -n "${froms[i]}" ] && [ -n "${tests[i]}" ] ||
        { echo "check-mutants: $nm: needs file, tests and from"; bad=1; continue; }
    [ "${froms[i]}" != "${tos[i]}" ] || { echo "check-mutants: $nm: 'to' equals 'from'"; bad=1; }
    f=$root/${files[i]}
    [ -f "$f" ] || { echo "check-mutants: $nm: no file ${files[i]}"; bad=1; continue; }
    c=$(count "$f" "${froms[i]}")
    if [ "$c" != 1 ]; then
        echo "check-mutants: $nm: original text found $c times in ${files[i]} (must be exactly once): ${froms[i]}"
        bad=1
    fi
done
[ $bad = 0 ] || die "the mutant list does not match the code"

selected() {
    [ ${#only[@]} = 0 ] && return 0
    local o
    for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
    return 1
}

# ---- the scratch copy -----------------------------------------------------
rm -rf "$tree"
mkdir -p "$tree"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$tree"
else
    (cd "$root" && tar --exclude=./build --exclude='./build*' -cf - .) | tar -xf - -C "$tree"
fi
# the tests read the corpus as ../shared from the tree's root
rm -f "$scratch/shared"
[ -d "$root/../shared" ] && ln -s "$(cd "$root/../shared" && pwd)" "$scratch/shared"

has_arm64() { command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1; }

# Make targets and commands of a `tests:` list. test_x[FILTER] runs test_x
# with --filter FILTER; `cli` is the CLI suite, `arm64` the arm64 kernels under qemu.
targets_of() {
    local t out=()
    for t in $1; do
        case $t in
        cli) out+=(build/jdoc build/gen_docker) ;;
        arm64) ;;
        *) out+=("build/tests/${t%%\[*}") ;;
        esac
    done
    echo "${out[@]}"
}
run_tests() {   # $1: the tests list; returns 0 when all pass
    local t bin filt
    for t in $1; do
        case $t in
        cli) make -s --no-print-directory check-cli >/dev/null 2>&1 || return 1 ;;
        arm64) make -s --no-print-directory check-arm64 >/dev/null 2>&1 || return 1 ;;
        *)
            bin=${t%%\[*}
            if [ "$bin" != "$t" ]; then
                filt=${t#*\[}; filt=${filt%\]}
                timeout 300 "build/tests/$bin" --jobs 2 --filter "$filt" >/dev/null 2>&1 || return 1
            else
                timeout 300 "build/tests/$bin" --jobs 2 >/dev/null 2>&1 || return 1
            fi
            ;;
        esac
    done
    return 0
}
needs_ok() {    # $1: a kernel name or "arm64"; the reason on stdout when not met
    case $1 in
    '') return 0 ;;
    arm64) has_arm64 && return 0; echo "aarch64-linux-gnu-gcc or qemu-aarch64 not installed"; return 1 ;;
    *) build/jdoc --kernels | grep -qx "$1 supported" && return 0; echo "kernel $1 not supported by this CPU"; return 1 ;;
    esac
}

cd "$tree" || die "no scratch tree"
start=$(date +%s)
alltargets=()
alltests=""
for ((i = 0; i < total; i++)); do
    selected "${names[i]}" || continue
    alltargets+=($(targets_of "${tests[i]}"))
    alltests+=" ${tests[i]}"
done
echo "check-mutants: building the unmutated copy in $tree"
make -s --no-print-directory -j"$jobs" build/libjdoc.a build/jdoc $(printf '%s\n' "${alltargets[@]}" | sort -u) >"$scratch/build.log" 2>&1 ||
    { cat "$scratch/build.log"; die "the unmutated copy does not build"; }
# the unmutated copy must pass what the mutants will run
base=$(printf '%s\n' $alltests | sort -u | tr '\n' ' ')
if ! needs_ok arm64 >/dev/null; then base=$(printf '%s\n' $base | grep -vx arm64 | tr '\n' ' '); fi
run_tests "$base" || die "the unmutated copy fails its tests ($base): fix the tree first"

killed=0 survived=0 notrun=0 broken=0
survivors=()
for ((i = 0; i < total; i++)); do
    nm=${names[i]}
    selected "$nm" || continue
    if ! why=$(needs_ok "${needs[i]}"); then
        echo "not run   $nm: $why"
        notrun=$((notrun + 1))
        continue
    fi
    f=${files[i]}
    cp -p "$f" "$scratch/orig"
    apply "$f" "${froms[i]}" "${tos[i]}"
    if cmp -s "$f" "$scratch/orig"; then
        echo "BROKEN    $nm: not applied"
        broken=$((broken + 1))
    elif ! make -s --no-print-directory -j"$jobs" build/libjdoc.a $(targets_of "${tests[i]}") >"$scratch/build.log" 2>&1; then
        echo "BROKEN    $nm: does not build (see a mutant that compiles)"
        sed -n 1,5p "$scratch/build.log"
        broken=$((broken + 1))
    elif run_tests "${tests[i]}"; then
        echo "SURVIVED  $nm ($f; tests: ${tests[i]})"
        survived=$((survived + 1))
        survivors+=("$nm")
    else
        echo "killed    $nm"
        killed=$((killed + 1))
    fi
    cp "$scratch/orig" "$f"    # a new mtime: make rebuilds it for the next mutant
    touch "$f"
done
echo "check-mutants: $killed killed, $survived survived, $notrun not run here, $broken broken ($(( $(date +%s) - start )) s)"
[ $survived = 0 ] && [ $broken = 0 ]
