#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of the jdoc tool: every exit status and option, output formats,
# streams, odd files. Usage: tests/cli/run.sh [build/jdoc] [build/gen_docker]
set -u

JDOC=${1:-build/jdoc}
GEN=${2:-build/gen_docker}
for b in "$JDOC" "$GEN"; do
    [ -x "$b" ] || { echo "run.sh: $b: not built"; exit 2; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/jdoc-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
rc=0

# run ARGS...: run jdoc with stdin from $IN (default /dev/null); sets rc, $T/out, $T/err
run() { "$JDOC" "$@" <"${IN:-/dev/null}" >"$T/out" 2>"$T/err"; rc=$?; }

bad() {
    fail=$((fail + 1))
    echo "FAIL: $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -20 | sed 's/^/    /'
}

# expect NAME RC STDOUT [STDERR_REGEX]: check the last run (STDOUT exact, trailing newlines included)
expect() {
    local name=$1 want_rc=$2 want_out=$3 err_re=${4:-} got
    got=$(cat "$T/out"; printf x)
    got=${got%x}
    if [ "$rc" != "$want_rc" ]; then
        bad "$name" "exit $rc, want $want_rc; stderr: $(head -c 600 "$T/err")"
    elif [ "$got" != "$want_out" ]; then
        bad "$name" "stdout: $(printf '%q' "$got" | head -c 1000)
want:   $(printf '%q' "$want_out" | head -c 1000)"
    elif [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$T/err"; then
        bad "$name" "stderr does not match /$err_re/: $(head -c 600 "$T/err")"
    else
        pass=$((pass + 1))
    fi
}

# check NAME 'SHELL CONDITION': a plain assertion, evaluated here
check() {
    if eval "$2"; then pass=$((pass + 1)); else bad "$1" "failed: $2; exit $rc; stderr: $(head -c 300 "$T/err")"; fi
}

quiet_err() { [ ! -s "$T/err" ]; }

D=$T/doc.json
printf '{"a":[1,2,{"b":"x"}],"s":"h\\u00e9\\"q","n":null,"t":true,"f":false,"i":-42,"u":18446744073709551615,"d":2.5,"e":{},"z":[],"a/b":"slash","m~n":"tilde","big":1e400}' >"$D"

# ---- paths, exit 0 and 3 ----
run "$D" /a/3/b;                 expect "oj path" 0 $'"x"\n'
run "$D" /a/3/b /a/1 /nope /a;   expect "several paths, one missing" 3 $'"x"\n1\n\n[1,2,{"b":"x"}]\n' "^jdoc: $D: /nope: not found$"
run "$D" /a/4;                   expect "index out of range" 3 $'\n' "/a/4: not found"
run "$D" /a/0;                   expect "oj index 0 is no index" 3 $'\n'
run "$D" /a/1/x;                 expect "through a scalar" 3 $'\n'
run "$D" /a/3/../1;              expect "oj .." 0 $'1\n'
run "$D" a/2;                    expect "oj relative = from the root" 0 $'2\n'
run "$D" /;                      expect "oj root is compact" 0 "$(cat "$D")"$'\n'
run "$D" '/a\/b';                expect "oj escaped slash" 0 $'"slash"\n'
run -p "$D" /a/0 /a/2/b /a/3;    expect "pointer 0-based" 3 $'1\n"x"\n\n'
run -p "$D" /a~1b /m~0n;         expect "pointer ~1 ~0" 0 $'"slash"\n"tilde"\n'
run -p "$D" "";                  expect "pointer root" 0 "$(cat "$D")"$'\n'
run -p "$D" /a/-;                expect "pointer - never found" 3 $'\n'
run --pointer "$D" /a/01;        expect "pointer leading zero" 3 $'\n'
run "$D" /s /i /u /d /n /t /e /z; expect "scalars as in the source" 0 $'"h\\u00e9\\"q"\n-42\n18446744073709551615\n2.5\nnull\ntrue\n{}\n[]\n'
run "$D" /a -r;                  expect "options after operands" 0 $'[1,2,{"b":"x"}]\n'
run -- "$D" /a;                  expect "-- ends options" 0 $'[1,2,{"b":"x"}]\n'

# ---- malformed paths: exit 2, nothing printed ----
run -p "$D" a;                   expect "pointer without /" 2 "" "a: malformed path"
run -p "$D" /a '/~2' /zz;        expect "bad ~ escape" 2 "" "/~2: malformed path"

# ---- --raw, --type ----
run -r "$D" /s /a /i /n;         expect "raw" 0 $'h\u00e9"q\n[1,2,{"b":"x"}]\n-42\nnull\n'
run -pr "$D" /s /a/2/b;          expect "bundled short flags" 0 $'h\u00e9"q\nx\n'
run --raw --pointer "$D" /a/2/b; expect "long flags" 0 $'x\n'
run -t "$D" /n /t /i /u /d /s /a /e /big; expect "type names" 0 $'null\nbool\nint\nuint\ndouble\nstring\narray\nobject\ndouble\n'
run -t "$D" /nope;               expect "type of nothing" 3 $'\n'
printf '["\\u0000x\\ud83d\\udc33"]' >"$T/nul.json"
"$JDOC" -r "$T/nul.json" /1 | od -An -c | tr -s ' ' >"$T/od"
check "raw keeps NUL, joins surrogates" 'grep -q "\\\\0 x 360 237 220 263 \\\\n" "$T/od"'

# ---- --canonical ----
printf '[0,-0,-0.0,1.0,1.5,1e22,1E+22,100,1e2,0.1,1e-7,1.5e-8,5e-324,2.2250738585072014e-308,1.7976931348623157e308,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,123456789012345678901234567890,0.30000000000000004,1e16,9007199254740993,9007199254740993.0,1e15,1e-400,123.456e-2,-1.5e-7,2.4703282292062328e-324,0.000001,1234567.125]' >"$T/nums.json"
run --canonical "$T/nums.json" /;
expect "canonical numbers" 0 '[0,0,-0.0,1.0,1.5,1e+22,1e+22,100,100.0,0.1,0.0000001,1.5e-8,5e-324,2.2250738585072014e-308,1.7976931348623157e+308,18446744073709551615,1.8446744073709552e+19,-9223372036854775808,-9.223372036854776e+18,1.2345678901234568e+29,0.30000000000000004,1e+16,9007199254740993,9007199254740992.0,1000000000000000.0,0.0,1.23456,-0.00000015,5e-324,0.000001,1234567.125]'$'\n'
check "canonical numbers: no warning" 'quiet_err'
printf '{"x":[1e400,-1e400,1]}' >"$T/huge.json"
run --canonical "$T/huge.json" /x;  expect "beyond double range: source text, warning, exit 0" 0 $'[1e400,-1e400,1]\n' "/x: number beyond double range"
run --canonical "$T/huge.json" /x/1;         expect "1e400 alone" 0 $'1e400\n' "beyond double range"
printf '{"k\\u0065y":"\\u0000\\u001F\\/\\b\\f\\n\\r\\t\\"\\\\\\u007f\\u00e9\xc3\xa9\\ud83d\\udc33","a":{"b":[true,false,null,{}]},"a":2}' >"$T/str.json"
run --canonical "$T/str.json";
expect "canonical strings and keys, duplicates kept" 0 '{"key":"\u0000\u001f/\b\f\n\r\t\"\\'$'\x7f\xc3\xa9\xc3\xa9\xf0\x9f\x90\xb3''","a":{"b":[true,false,null,{}]},"a":2}'$'\n'
run "$T/str.json" /a;            expect "duplicate key: the first" 0 $'{"b":[true,false,null,{}]}\n'
printf '["\\ud800",01,tru,"ok"]' >"$T/badval.json"
run --canonical "$T/badval.json" /1 /4;   expect "canonical lone surrogate" 1 $'\n"ok"\n' "badval.json:1:3 \(byte 2\): /1: bad escape"
run --canonical "$T/badval.json" /;       expect "canonical of a container with a bad value" 1 $'\n' "bad escape in string"
run "$T/badval.json" /2 /3 /4;   expect "not-JSON scalars are errors" 1 $'\n\n"ok"\n' "/2: malformed number"
run -t "$T/badval.json" /3;      expect "type of a bad literal" 1 $'\n' "/3: not a JSON value"
run -r "$T/badval.json" /1;      expect "raw lone surrogate" 1 $'\n' "bad escape"

# ---- pretty-print (no paths) ----
printf ' {"a" : [1, {"b":null,"c":[ ]}, "x\\u00e9"] ,"e":{ },"n":-0.50e1}\n' >"$T/p.json"
run "$T/p.json"
expect "pretty-print" 0 '{
  "a": [
    1,
    {
      "b": null,
      "c": []
    },
    "x\u00e9"
  ],
  "e": {},
  "n": -0.50e1
}
'
printf '{"we\\"ird\\\\":{"\\\\":1}}' >"$T/keys.json"
run "$T/keys.json";              expect "pretty keys as in the source" 0 $'{\n  "we\\"ird\\\\": {\n    "\\\\": 1\n  }\n}\n'
printf '  "str"  ' >"$T/root.json"
run "$T/root.json";              expect "pretty root scalar" 0 $'"str"\n'
run "$T/badval.json";            expect "pretty validates first" 1 "" "bad escape in string"
run --canonical "$T/p.json";              expect "canonical of the whole document" 0 $'{"a":[1,{"b":null,"c":[]},"x\xc3\xa9"],"e":{},"n":-5.0}\n'
run -t "$T/p.json";              expect "type of the whole document" 0 $'object\n'

# ---- --validate, invalid JSON: exit 1 with FILE:LINE:COLUMN (byte N) ----
run --validate "$D";             expect "validate ok" 0 ""
printf '{"a":1,}' >"$T/v1.json"
run --validate "$T/v1.json";     expect "validate trailing comma" 1 "" "^jdoc: $T/v1.json:1:8 \(byte 7\): trailing comma$"
printf '{\n  "a": 01\n}' >"$T/v2.json"
run --validate "$T/v2.json";     expect "validate line:column" 1 "" ":2:9 \(byte 10\): malformed number"
run --validate "$T/v2.json" /b;  expect "validate before answering" 1 ""
run "$T/v2.json" /b;             expect "lazy without --validate" 3 $'\n'
printf '[1,2' >"$T/open.json"
run "$T/open.json" /1;           expect "unclosed bracket" 1 "" ":1:5 \(byte 4\): unclosed '\['"
printf '{"a":1} {"a":2}' >"$T/two.json"
run "$T/two.json" /a;            expect "two documents without --ndjson" 1 "" "text after the root value"
printf '["\xff"]' >"$T/utf8.json"
run "$T/utf8.json";              expect "invalid UTF-8" 1 "" "\(byte 2\): invalid UTF-8"
printf '{"a":tru}' >"$T/lit.json"
run "$T/lit.json" /a /zz;        expect "1 wins over 3" 1 $'\n\n' "/zz: not found"
printf '{\n "a": tru,\n  "b": [1,,2]\n}' >"$T/back.json"
run "$T/back.json" /b/3 /a /b/3; expect "error places out of order" 1 $'\n\n\n'
check "error places out of order: lines" '[ "$(grep -o ":[0-9]*:[0-9]* (byte [0-9]*)" "$T/err" | tr "\n" " ")" = ":3:8 (byte 20) :2:7 (byte 8) :3:8 (byte 20) " ]'
printf '{"a":[1,,2],"b":3}' >"$T/lazy.json"
run "$T/lazy.json" /b /a/3;      expect "malformation on the way" 1 $'3\n\n' "/a/3: malformed container"

# ---- odd inputs ----
: >"$T/empty.json"
run "$T/empty.json";             expect "0-byte file" 1 "" ":1:1 \(byte 0\): no value: empty input"
printf ' \n\t ' >"$T/ws.json"
run "$T/ws.json" /a;             expect "whitespace only" 1 "" "no value"
run "$T";                        expect "a directory" 2 "" "Is a directory"
run "$T/missing.json";           expect "no such file" 2 "" "No such file or directory"
printf '{}' >"$T/noperm.json"
chmod 000 "$T/noperm.json"
if [ -r "$T/noperm.json" ]; then
    pass=$((pass + 1))   # root reads anything: nothing to test
else
    run "$T/noperm.json";        expect "permission denied" 2 "" "Permission denied"
fi
IN=$D run - /a/1;                expect "stdin" 0 $'1\n'
IN=$T/empty.json run -;          expect "empty stdin" 1 "" "<stdin>:1:1 \(byte 0\): no value"
printf '{"a":[true]}' | "$JDOC" - >"$T/out" 2>"$T/err"; rc=$?
expect "stdin from a pipe, pretty" 0 $'{\n  "a": [\n    true\n  ]\n}\n'
"$JDOC" "$T/p.json" /a/1 >/dev/full 2>"$T/err"; rc=$?
check "write error: exit 2" '[ "$rc" = 2 ]'
check "write error: message" 'grep -q "write error" "$T/err"'
"$GEN" list 3000 >"$T/big.json"
"$JDOC" "$T/big.json" 2>"$T/err" | head -c 100 >/dev/null; rc=${PIPESTATUS[0]}
check "closed pipe: killed by SIGPIPE, as jq" '[ "$rc" = $((128 + $(kill -l PIPE))) ]'
check "closed pipe: silent" 'quiet_err'

# page boundary: inputs of exactly 4096 and 8192 bytes, mapped with nothing after them
mkpage() { # mkpage FILE SIZE PREFIX FILLCHAR SUFFIX
    local fill=$(($2 - ${#3} - ${#5}))
    { printf '%s' "$3"; head -c "$fill" /dev/zero | tr '\0' "$4"; printf '%s' "$5"; } >"$1"
}
mkpage "$T/pg1.json" 4096 '{"k":"' x '"}'
run -r "$T/pg1.json" /k;         check "page: string at the end" '[ "$rc" = 0 ] && [ "$(wc -c <"$T/out")" = 4089 ]'
check "page: file is 4096 bytes" '[ "$(wc -c <"$T/pg1.json")" = 4096 ]'
mkpage "$T/pg2.json" 4096 '1' 0 ''
run -t "$T/pg2.json";            expect "page: number ends the file" 0 $'double\n'
run --canonical "$T/pg2.json";            check "page: canonical huge number is the source" '[ "$rc" = 0 ] && cmp -s <(head -c 4096 "$T/out") "$T/pg2.json"'
mkpage "$T/pg3.json" 8192 '[' 1 ']'
run "$T/pg3.json" /1;            expect "page: 8192 bytes, number before ]" 0 "$(head -c 8191 "$T/pg3.json" | tail -c 8190)"$'\n'
mkpage "$T/pg4.json" 4096 '{"k":"' y ''
run "$T/pg4.json";               expect "page: unterminated string at the end" 1 "" "unterminated|unclosed|string"
mkpage "$T/pg5.json" 4096 '[' ' ' 'true'
run "$T/pg5.json";               expect "page: literal then the end" 1 "" "unclosed"
mkpage "$T/pg6.json" 4096 '{"a":' ' ' 'null}'
run --validate "$T/pg6.json";    expect "page: validate" 0 ""

# deep nesting: the limit, and no recursion in the printers
deep() { head -c "$1" /dev/zero | tr '\0' '['; head -c "$1" /dev/zero | tr '\0' ']'; }
deep 1025 >"$T/deep1025.json"
run "$T/deep1025.json";          expect "1025 deep: depth error" 1 "" ":1:1025 \(byte 1024\): nesting too deep"
run --max-depth 2000 --validate "$T/deep1025.json"; expect "--max-depth raises it" 0 ""
deep 1000 >"$T/deep1000.json"
( ulimit -s 256 2>/dev/null; "$JDOC" "$T/deep1000.json" >"$T/out" 2>"$T/err" ); rc=$?
check "pretty 1000 deep on a 256 KB stack" '[ "$rc" = 0 ] && [ "$(wc -l <"$T/out")" = 1999 ]'
inner="$(printf '%1998s' '')[]"
check "pretty 1000 deep: innermost line" 'grep -Fqx -- "$inner" "$T/out"'
( ulimit -s 256 2>/dev/null; "$JDOC" --canonical "$T/deep1000.json" / >"$T/out" 2>"$T/err" ); rc=$?
check "canonical 1000 deep" '[ "$rc" = 0 ] && cmp -s <(tr -d "\n" <"$T/out") "$T/deep1000.json"'
# the walker shared by the pretty and canonical printers, 100000 deep on a 256 KB stack:
# a recursive one would need megabytes
deep 100000 >"$T/deep100k.json"
( ulimit -s 256 2>/dev/null; "$JDOC" --max-depth 200000 --canonical "$T/deep100k.json" / >"$T/out" 2>"$T/err" ); rc=$?
check "canonical 100000 deep" '[ "$rc" = 0 ] && [ "$(wc -c <"$T/out")" = 200001 ]'
{ for i in $(seq 5000); do printf '{"a":'; done; printf 1; head -c 5000 /dev/zero | tr '\0' '}'; } >"$T/obj5k.json"
( ulimit -s 256 2>/dev/null; "$JDOC" --max-depth 6000 "$T/obj5k.json" >"$T/out" 2>"$T/err" ); rc=$?
check "pretty 5000 deep objects" '[ "$rc" = 0 ] && [ "$(wc -l <"$T/out")" = 10001 ] && [ "$(sed -n 5001p "$T/out")" = "$(printf "%10000s" "")\"a\": 1" ]'

# ---- --ndjson ----
printf '{"id":1}\n{"id":2,]\n{"id":3}\n' >"$T/s.ndjson"
run --ndjson "$T/s.ndjson" /id;  expect "ndjson: damaged 2nd of 3" 1 $'1\n\n3\n' "s.ndjson:2:9 \(byte 17\): document 2: "
run --ndjson "$T/s.ndjson";      expect "ndjson: compact documents" 1 $'{"id":1}\n\n{"id":3}\n' "document 2"
run --ndjson --validate "$T/s.ndjson"; expect "ndjson: validate only" 1 "" "document 2"
printf '{"a": 1}{"a":[2, 3]}  [4]\n\n"five" 6' >"$T/cat.ndjson"
run --ndjson "$T/cat.ndjson";    expect "concatenated documents" 0 $'{"a":1}\n{"a":[2,3]}\n[4]\n"five"\n6\n'
run -p --ndjson "$T/cat.ndjson" /a; expect "missing per document" 3 $'1\n[2,3]\n\n\n\n' "document 3 \(line 1\): /a: not found"
check "missing per document: line of the 5th" 'grep -q "document 5 (line 3): /a: not found" "$T/err"'
run --ndjson "$T/empty.json";    expect "empty stream" 0 ""
printf '{"a":1}\n{"a":\n' >"$T/cut.ndjson"
run --ndjson "$T/cut.ndjson" /a; expect "stream cut short" 1 $'1\n\n' "document 2"
IN=$T/cat.ndjson run --ndjson --canonical -; expect "ndjson from stdin, canonical" 0 $'{"a":1}\n{"a":[2,3]}\n[4]\n"five"\n6\n'
printf '{"x":1}\n{"x":2}\n' | "$JDOC" --ndjson - /x --validate >"$T/out" 2>"$T/err"; rc=$?
expect "ndjson from a pipe with paths and --validate" 0 $'1\n2\n'

# ---- --paths-from ----
printf '/a/1\n\n/s\r\n/nope' >"$T/paths.txt"
run --paths-from "$T/paths.txt" "$D" /i; expect "paths-from after command-line paths" 3 $'-42\n1\n"h\\u00e9\\"q"\n\n'
run --paths-from="$T/paths.txt" -r "$D"; expect "paths-from=F" 3 $'1\nh\u00e9"q\n\n'
IN=$T/paths.txt run --paths-from - "$D"; expect "paths-from stdin" 3 $'1\n"h\\u00e9\\"q"\n\n'
run --paths-from - -;            expect "paths-from - with FILE -" 2 "" "stdin"
run --paths-from "$T/none.txt" "$D"; expect "paths-from missing" 2 "" "none.txt"
# many paths at once: more than one batch of jdoc_fetch_many, on an object and on an array
{ printf '{'; for i in $(seq 1 150); do printf '"k%d":%d,' "$i" "$i"; done; printf '"end":0}'; } >"$T/many.json"
seq 150 -1 1 | sed 's|^|/k|' >"$T/many.txt"
run --paths-from "$T/many.txt" "$T/many.json"; expect "150 paths on an object" 0 "$(seq 150 -1 1)"$'\n'
{ printf '['; seq -s, 1 150; printf ']'; } >"$T/arr.json"
printf -v nl150 '%150s' ''
run --paths-from "$T/many.txt" "$T/arr.json" /3 /150; expect "paths on an array" 3 $'3\n150\n'"${nl150// /$'\n'}"

# ---- kernels, version, usage ----
run --kernels
check "--kernels: 6 lines" '[ "$rc" = 0 ] && [ "$(wc -l <"$T/out")" = 6 ]'
check "--kernels: format" '! grep -Evq "^(scalar|sse42|avx2|avx512|neon|neon_nopmull) (supported|unsupported|not compiled)\$" "$T/out"'
check "--kernels: scalar supported" 'grep -qx "scalar supported" "$T/out"'
run --kernel scalar "$D" /a/2;   expect "--kernel scalar" 0 $'2\n'
run --kernel=scalar --version;   expect "--version with a kernel" 0 "jdoc 0.1.0 (kernel scalar)"$'\n'
run --version
check "--version" 'grep -Eqx "jdoc [0-9]+\.[0-9]+\.[0-9]+ \(kernel (scalar|sse42|avx2|avx512|neon|neon_nopmull)\)" "$T/out"'
run --kernel bogus "$D" /a;      expect "unknown kernel" 2 "" "unknown kernel; kernels: scalar supported"
other=$(grep -E " (unsupported|not compiled)$" <("$JDOC" --kernels) | head -1 | cut -d' ' -f1)
if [ -n "$other" ]; then
    run --kernel "$other" "$D" /a; expect "kernel not runnable here" 2 "" "not supported here"
else
    pass=$((pass + 1))
fi
JDOC_KERNEL=bogus run "$D" /a;   expect "JDOC_KERNEL unknown" 2 "" "JDOC_KERNEL=bogus"
JDOC_KERNEL=scalar run --version; expect "JDOC_KERNEL" 0 "jdoc 0.1.0 (kernel scalar)"$'\n'
for k in $("$JDOC" --kernels | grep ' supported$' | cut -d' ' -f1); do
    run --kernel "$k" --canonical "$T/str.json" /a; expect "kernel $k" 0 $'{"b":[true,false,null,{}]}\n'
done
run;                             expect "no FILE" 2 "" "no FILE"
run --bogus "$D";                expect "unknown option" 2 "" "unknown option '--bogus'"
run -x "$D";                     expect "unknown short option" 2 "" "unknown option '-x'"
run -r --canonical "$D" /a;       expect "two output modes" 2 "" "only one of"
run --max-depth 0 "$D";          expect "bad --max-depth" 2 "" "max-depth"
run --kernel;                    expect "option without its value" 2 "" "needs a value"
run --validate=yes "$D";         expect "flag with a value" 2 "" "takes no value"
run --help
check "--help" '[ "$rc" = 0 ] && grep -q "jdoc containers.json /1/Names/1" "$T/out" && grep -q "docker inspect x | jdoc -r - /1/State/Status" "$T/out" && grep -q "jdoc -p --ndjson events.ndjson /status /id" "$T/out"'
run -h;                          check "-h" '[ "$rc" = 0 ] && grep -q "^Usage: jdoc" "$T/out"'

# ---- Docker answers from the generator ----
"$GEN" list 40 >"$T/c.json"
run -r "$T/c.json" /1/Id;        check "docker: 64-hex Id" 'grep -Eqx "[0-9a-f]{64}" "$T/out"'
run "$T/c.json" /3/Names/1 /3/State; a=$(cat "$T/out")
run -p "$T/c.json" /2/Names/0 /2/State; check "docker: Oj /3 = pointer /2" '[ "$a" = "$(cat "$T/out")" ]'
n=$(grep -o '"Id":' "$T/c.json" | wc -l)
run --type "$T/c.json" "/$n/Id" "/$((n + 1))/Id"; expect "docker: last container, one past" 3 $'string\n\n'
svc=$(grep -o '"com.docker.compose.service":"[^"]*"' "$T/c.json" | head -1 | cut -d'"' -f4)
for i in $(seq 1 "$n"); do echo "/$i/Labels/com.docker.compose.service"; done >"$T/svc.txt"
run -r --paths-from "$T/svc.txt" "$T/c.json"
check "docker: dotted label keys" '[ "$rc" -le 3 ] && grep -qx "$svc" "$T/out" && [ "$(wc -l <"$T/out")" = "$n" ]'
"$GEN" list 200 >"$T/c200.json"
for i in $(seq 1 200); do echo "/$i/Labels/org.opencontainers.image.authors"; done >"$T/auth.txt"
run -r --paths-from "$T/auth.txt" "$T/c200.json"
author=$'Ren\xc3\xa9 Lef\xc3\xa8vre <rene@example.org>'
check "docker: escaped label decoded" 'grep -Fqx -- "$author" "$T/out"'
for i in $(seq 1 200); do echo "/$i/Command"; done >"$T/cmd.txt"
run -r --paths-from "$T/cmd.txt" "$T/c200.json"
check "docker: command with quotes decoded" 'grep -Fqx -- "sh -c \"exec gunicorn -b 0.0.0.0:8000 --workers 4 shop.wsgi\"" "$T/out"'
"$JDOC" --canonical "$T/c200.json" / >"$T/c1.json" && "$JDOC" --canonical "$T/c1.json" / >"$T/c2.json"
check "docker: canonical is a fixed point" 'cmp -s "$T/c1.json" "$T/c2.json"'
"$JDOC" "$T/c200.json" >"$T/pretty.json"; "$JDOC" --ndjson "$T/pretty.json" >"$T/re.json"
check "docker: pretty then compact is the original" 'cmp -s <(tr -d "\n" <"$T/re.json") <(tr -d "\n" <"$T/c200.json")'
"$GEN" inspect | "$JDOC" -r - /1/State/Status >"$T/out" 2>"$T/err"; rc=$?
check "docker inspect | jdoc -r - /1/State/Status" '[ "$rc" = 0 ] && grep -Eqx "running|exited|created|paused|restarting|dead" "$T/out"'
"$GEN" inspect-array 3 | "$JDOC" -t - /3/HostConfig/MaskedPaths /4 >"$T/out" 2>/dev/null; rc=$?
expect "inspect-array" 3 $'array\n\n'
"$GEN" events 300 >"$T/ev.ndjson"
run -p --ndjson "$T/ev.ndjson" /status /id
check "events: 2 lines per event" '[ "$(wc -l <"$T/out")" = 600 ]'
check "events: network events have no status (exit 3)" '[ "$rc" = 3 ]'
run -r --ndjson "$T/ev.ndjson" /Action
check "events: exec actions decoded" 'grep -Fqx -- "exec_create: sh -c \"ps aux\"" "$T/out"'
run --ndjson --validate "$T/ev.ndjson"; expect "events: valid" 0 ""
"$GEN" list 25 | "$JDOC" --validate -; rc=$?
check "generated list is valid" '[ "$rc" = 0 ]'
check "generator is deterministic" 'cmp -s <("$GEN" events 50) <("$GEN" events 50)'

# ---- JSONPath queries (RFC 9535), --with-path, --count, --keys, -c ----
Q=$T/q.json
printf '[{"Id":"a1","Names":["/web-1"],"State":"running","Net":{"front":{"IP":"10.0.0.2"},"back":{"IP":"10.0.1.2"}}},{"Id":"b2","Names":["/db-1"],"State":"exited","Net":{}}]' >"$Q"
run "$Q" '$[*].Id';                     expect "query: every Id" 0 $'"a1"\n"b2"\n'
run -r "$Q" '$[*].Names[0]';            expect "query: -r" 0 $'/web-1\n/db-1\n'
run -t "$Q" '$[*].Net';                 expect "query: -t" 0 $'object\nobject\n'
run "$Q" '$[?@.State == "running"].Id'; expect "query: filter" 0 $'"a1"\n'
run -r "$Q" '$[*].Net.*.IP';            expect "query: any network's IP" 0 $'10.0.0.2\n10.0.1.2\n'
run --with-path "$Q" '$..IP';           expect "query: --with-path" 0 $'$[0][\'Net\'][\'front\'][\'IP\']\t"10.0.0.2"\n$[0][\'Net\'][\'back\'][\'IP\']\t"10.0.1.2"\n'
run "$Q" '$[*].nope';                   expect "query: empty nodelist, exit 0" 0 ""
check "query: empty nodelist, no message" quiet_err
run "$Q" /1/Id '$[1].Id' /2/Id;         expect "query mixed with Oj paths" 0 $'"a1"\n"b2"\n"b2"\n'
run -q "$Q" '$[0].State';               expect "-q" 0 $'"running"\n'
run -q "$Q" ' $';                       expect "-q: leading space is invalid" 2 "" "no whitespace allowed before"
run "$Q" '$[?@.a ==]';                  expect "invalid query: exit 2" 2 "" "invalid JSONPath query \(byte 9\)"
check "invalid query: caret under the offset" 'grep -qx "           ^" "$T/err"'
run "$Q" '$[' '$]';                     expect "two invalid queries: both reported" 2 ""
check "two invalid queries: two messages" '[ "$(grep -c "invalid JSONPath" "$T/err")" = 2 ]'
run --count "$Q" '$[*]' '$..IP' /1/Id /3; expect "--count" 0 $'2\n2\n1\n0\n'
run --count "$Q";                       expect "--count, no PATH: the root's elements" 0 $'2\n'
run --keys "$Q" /1;                     expect "--keys of an Oj path" 0 $'Id\nNames\nState\nNet\n'
run --keys "$Q" '$[*].Net';             expect "--keys of each node" 0 $'front\nback\n'
run --keys "$Q" /1/Id;                  expect "--keys of a string" 3 "" "not an object"
run --keys "$T/p.json";                 expect "--keys, no PATH" 0 $'a\ne\nn\n'
run -c "$Q" /1/Net;                     expect "-c compact" 0 $'{"front":{"IP":"10.0.0.2"},"back":{"IP":"10.0.1.2"}}\n'
run -c "$T/p.json";                     expect "-c, no PATH: one line" 0 "$(tr -d ' \n' <"$T/p.json")"$'\n'
run -rc "$Q" '$[0].Id';                 expect "-rc together" 0 $'a1\n'
run "$Q" /-1/Id /1/Names/-1 /-3;        expect "Oj negative indices" 3 $'"b2"\n"/web-1"\n\n'
run -p "$Q" /-1;                        expect "pointers have no negative indices" 3 $'\n'
run "$Q" /0/Id;                         expect "not found: Oj index 0" 3 $'\n' "hint: Oj paths count from 1"
check "not found: where the walk stopped" 'grep -q "stopped at / (the root), an array of 2 elements" "$T/err"'
run "$Q" .Id;                           expect "not found: jq syntax" 3 $'\n' "hint: jq's .a.b"
run "$Q" "$D";                          expect "not found: a second file" 3 $'\n' "is a file, but jdoc reads one FILE"
printf '{"a":[1,2]}\n{"a":[]}\n{"a":[3]}\n' >"$T/q.ndjson"
run --ndjson "$T/q.ndjson" '$.a[*]';    expect "query per document of a stream" 0 $'1\n2\n3\n'
run --ndjson --count "$T/q.ndjson" '$.a[*]'; expect "--count per document" 0 $'2\n0\n1\n'
printf '[1,2 3]' >"$T/bad.json"
run "$T/bad.json" '$[*]';               expect "query over a malformed array" 1 $'1\n' "bad.json:1"
run --canonical "$Q" '$[*].Names';      expect "query --canonical" 0 $'["/web-1"]\n["/db-1"]\n'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
