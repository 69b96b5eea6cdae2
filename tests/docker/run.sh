#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make check-docker`: jdoc against a real Docker Engine. Starts Debian's
# dockerd in a temporary directory (no network, vfs storage), imports an image
# made of busybox-static, runs a dozen containers with compose labels (some
# exited, one never started), and checks jdoc's answers on /containers/json,
# inspect, /info, /version and /images/json through the C API
# (check_api.c) and the CLI against Python's json module, path by path. It
# follows /events live through `jdoc -r --ndjson - /status` while it starts
# and stops containers: every event must be printed while the stream is open.
# dockerd is stopped at the end, whatever happens. Skips (exit 0, with the
# reason) where dockerd cannot run. Usage: tests/docker/run.sh JDOC CHECK_API
set -u

JDOC=$1
CHECK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
API=http://localhost/v1.41
pass=0
fail=0

skip() {
    echo "check-docker: skipped ($1)"
    exit 0
}
[ "$(id -u)" = 0 ] || skip "dockerd needs root"
command -v dockerd >/dev/null || skip "no dockerd: apt-get install docker.io"
command -v curl >/dev/null || skip "no curl"
command -v python3 >/dev/null || skip "no python3"
BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 || skip "no static $BUSYBOX: apt-get install busybox-static"
for b in "$JDOC" "$CHECK"; do
    [ -x "$b" ] || { echo "check-docker: $b: not built"; exit 2; }
done
JDOC=$(cd "$(dirname "$JDOC")" && pwd)/$(basename "$JDOC")

T=$(mktemp -d "${TMPDIR:-/tmp}/jdoc-docker.XXXXXX")
S=$T/docker.sock
DPID=
CURLPID=

stop_pid() {   # stop_pid PID SECONDS: TERM, then KILL after SECONDS
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < $2 * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
}

cleanup() {
    [ -n "$CURLPID" ] && stop_pid "$CURLPID" 2
    if [ -n "$DPID" ]; then
        local cpid
        cpid=$(cat "$T/exec/containerd/containerd.pid" 2>/dev/null)
        stop_pid "$DPID" 20
        [ -n "$cpid" ] && stop_pid "$cpid" 5
        # after a KILL: the container shims, which name this directory
        local p
        for p in /proc/[0-9]*; do
            grep -qF -- "$T/" "$p/cmdline" 2>/dev/null && kill -KILL "${p#/proc/}" 2>/dev/null
        done
    fi
    # whatever is still mounted below the directory (after a KILL)
    grep -o " $T/[^ ]*" /proc/mounts 2>/dev/null | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() {
    pass=$((pass + 1))
}
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

api() {   # api [curl options] PATH: the answer on stdout
    local path=${*: -1}
    curl -sS --fail-with-body --unix-socket "$S" "${@:1:$#-1}" "$API$path"
}

# ---- the daemon ----
t0=$(date +%s)
# Its own containerd namespaces: where a system containerd runs, dockerd uses
# it, and must not meet (and clean up) another daemon's containers there.
dockerd --storage-driver=vfs --iptables=false --ip-masq=false --bridge=none --shutdown-timeout=3 \
    --containerd-namespace=jdoc-check --containerd-plugins-namespace=jdoc-check-plugins \
    --data-root="$T/data" --exec-root="$T/exec" --pidfile="$T/pid" -H "unix://$S" >"$T/dockerd.log" 2>&1 &
DPID=$!
for ((i = 0; i < 300; i++)); do
    [ "$(curl -s --unix-socket "$S" http://localhost/_ping 2>/dev/null)" = OK ] && break
    kill -0 "$DPID" 2>/dev/null || break
    sleep 0.1
done
if [ "$(curl -s --unix-socket "$S" http://localhost/_ping 2>/dev/null)" != OK ]; then
    why=$(grep -E 'level=(error|fatal)' "$T/dockerd.log" | tail -1 | sed 's/.*msg="\([^"]*\)".*/\1/')
    skip "dockerd did not start here: ${why:-no answer on $S}"
fi
echo "check-docker: dockerd $(api /version | "$JDOC" -r - /Version) up in $(($(date +%s) - t0)) s"

# ---- /events, followed live from now on ----
# sh writes curl's pid, then becomes curl: the pipeline is the one of the
# issue, curl | jdoc, with tee keeping the raw stream for the comparison.
(
    sh -c 'echo $$ >"$1"; exec curl -sN --unix-socket "$2" "$3/events"' sh "$T/curl.pid" "$S" "$API" |
        tee "$T/events.raw" | "$JDOC" -r --ndjson - /status >"$T/events.out" 2>"$T/events.err"
    echo $? >"$T/events.rc"
) &
for ((i = 0; i < 50; i++)); do
    [ -s "$T/curl.pid" ] && break
    sleep 0.1
done
CURLPID=$(cat "$T/curl.pid")
sleep 0.5   # the daemon registers the listener

lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
count() { grep -cx -- "$1" "$T/events.out"; }
# event STATUS N: within 10 s, jdoc has printed STATUS N more times than
# before and a line for every event the stream brought, while it is open
declare -A seen
event() {
    local st=$1 n=${2:-1} want have raw out i
    want=$((${seen[$st]:-0} + n))
    for ((i = 0; i < (fail ? 10 : 100); i++)); do   # after a failure, do not wait 10 s each time
        have=$(count "$st")
        raw=$(lines "$T/events.raw")
        out=$(lines "$T/events.out")
        [ "$have" -ge "$want" ] && [ "$out" = "$raw" ] && break
        sleep 0.1
    done
    if ! kill -0 "$CURLPID" 2>/dev/null; then
        bad "events: the stream closed"
    elif [ "$have" -ge "$want" ] && [ "$out" = "$raw" ]; then
        ok
    else
        bad "events: '$st' x $want wanted, jdoc printed it $have times, $out lines for $raw events"
    fi
    seen[$st]=$have
}

# ---- an image from busybox-static ----
R=$T/rootfs
mkdir -p "$R/bin" "$R/data"
cp "$BUSYBOX" "$R/bin/busybox"
for l in sh sleep true; do ln -s busybox "$R/bin/$l"; done
tar -C "$R" -c . >"$T/rootfs.tar"
api -X POST -H 'Content-Type: application/x-tar' --data-binary "@$T/rootfs.tar" \
    '/images/create?fromSrc=-&repo=local/busybox&tag=1' >"$T/import.json" || bad "image import"
event import

# ---- a dozen containers in three compose projects ----
# create NAME PROJECT SERVICE NUMBER CMD...: a container with compose labels
create() {
    local name=$1 project=$2 service=$3 num=$4 cmd
    shift 4
    cmd=$(printf '"%s",' "$@")
    api -X POST -H 'Content-Type: application/json' -d @- "/containers/create?name=$name" >"$T/create.json" <<EOF || bad "create $name: $(cat "$T/create.json")"
{"Image":"local/busybox:1","Cmd":[${cmd%,}],"StopTimeout":1,
 "Env":["SERVICE=$service","PROJECT=$project","MOTD=h\u00e9llo \"$name\"\\tdone"],
 "ExposedPorts":{"80/tcp":{},"443/tcp":{}},"Volumes":{"/data":{}},
 "Labels":{"com.docker.compose.project":"$project","com.docker.compose.service":"$service",
  "com.docker.compose.container-number":"$num","com.docker.compose.oneoff":"False",
  "com.docker.compose.project.working_dir":"/srv/$project","com.docker.compose.version":"2.21.0",
  "com.docker.compose.config-hash":"$(printf '%s' "$name" | sha256sum | cut -c1-64)",
  "org.opencontainers.image.title":"$service \u2603 \ud83d\udc33"},
 "HostConfig":{"NetworkMode":"none","RestartPolicy":{"Name":"no"},"Memory":67108864}}
EOF
    event create
}
start() { api -X POST "/containers/$1/start" >/dev/null || bad "start $1"; event start; }

running="shop-api-1 shop-api-2 shop-web-1 shop-db-1 blog-app-1 blog-db-1 monitoring-prometheus-1 monitoring-grafana-1"
for c in $running; do
    IFS=- read -r project service num <<<"$c"
    create "$c" "$project" "$service" "$num" sleep 1000
    start "$c"
done
# three that exit at once, with their codes, and one never started
for spec in "shop-migrate-1:0" "blog-cron-1:3" "monitoring-check-1:42"; do
    c=${spec%:*}
    IFS=- read -r project service num <<<"$c"
    create "$c" "$project" "$service" "$num" sh -c "exit ${spec#*:}"
    start "$c"
    api -X POST "/containers/$c/wait" >"$T/wait.json" || bad "wait $c"
    [ "$("$JDOC" - /StatusCode <"$T/wait.json")" = "${spec#*:}" ] && ok || bad "wait $c: $(cat "$T/wait.json")"
    event die
done
create shop-worker-1 shop worker 1 sleep 1000
# two stopped (killed), as a compose down of one service would
for c in shop-api-2 blog-db-1; do
    api -X POST "/containers/$c/kill" >/dev/null || bad "kill $c"
    event kill
    event die
done

# ---- the answers, path by path: C API and CLI against Python's json ----
# value_check NAME FILE: every value of FILE
value_check() {
    local name=$1 file=$2 out
    if ! out=$(python3 "$HERE/expect.py" paths "$file" "$file.tsv" 2>&1); then
        bad "$name: Python cannot read it: $out"
        return
    fi
    if out=$("$CHECK" "$file" "$file.tsv" 2>&1); then ok; else bad "$name: C API"; printf '%s\n' "$out" | head -20; fi
    out=${out##*$'\n'}; echo "  ${out//$T\//}"
    if out=$(python3 "$HERE/expect.py" cli "$JDOC" "$file" "$file.tsv" 2>&1); then ok; else bad "$name: CLI"; printf '%s\n' "$out" | head -20; fi
    out=${out##*$'\n'}; echo "  ${out//$T\//}"
}
api '/containers/json?all=1' >"$T/containers.json" || bad "/containers/json"
value_check /containers/json "$T/containers.json"
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/containers.json")
[ "$n" = 12 ] && ok || bad "/containers/json: $n containers, want 12"
# the exited ones and the one never started, as jdoc reads them
states=$("$JDOC" -r --ndjson - /State < <(python3 -c 'import json,sys; [print(json.dumps(c)) for c in json.load(open(sys.argv[1]))]' "$T/containers.json") | sort | uniq -c | tr -s ' ' | tr '\n' ',')
[ "$states" = " 1 created, 5 exited, 6 running," ] && ok || bad "states: $states"
for c in shop-api-1 blog-cron-1; do
    api "/containers/$c/json" >"$T/inspect-$c.json" || bad "inspect $c"
    value_check "inspect $c" "$T/inspect-$c.json"
done
[ "$("$JDOC" -r "$T/inspect-blog-cron-1.json" /State/ExitCode /Config/Labels/com.docker.compose.service '/Config/ExposedPorts/80\/tcp' | tr '\n' ' ')" = "3 cron {} " ] && ok || bad "inspect blog-cron-1: exit code, label, port"
api /info >"$T/info.json" || bad /info
value_check /info "$T/info.json"
api /version >"$T/version.json" || bad /version
value_check /version "$T/version.json"
api /images/json >"$T/images.json" || bad /images/json
value_check /images/json "$T/images.json"
# /images/create answers a stream of documents; so does a bounded /events
if out=$(python3 "$HERE/expect.py" ndjson "$JDOC" "$T/import.json" /status 2>&1); then ok; else bad "/images/create: $out"; fi
echo "  ${out//$T\//}"
api "/events?since=0&until=$(date +%s)" >"$T/events-past.json" || bad "/events?until"
if out=$(python3 "$HERE/expect.py" ndjson "$JDOC" "$T/events-past.json" /Actor/Attributes 2>&1); then ok; else bad "/events?until: $out"; fi
echo "  ${out//$T\//}"

# ---- more events while the stream is open, then its end ----
for c in shop-web-1 monitoring-grafana-1; do
    api -X POST "/containers/$c/stop" >/dev/null || bad "stop $c"
    event stop
done
api -X DELETE "/containers/shop-migrate-1" >/dev/null || bad "delete shop-migrate-1"
event destroy
api -X POST "/containers/shop-worker-1/start" >/dev/null || bad "start shop-worker-1"
event start
kill -0 "$CURLPID" 2>/dev/null && ok || bad "events: the stream ended early"
stop_pid "$CURLPID" 2
for ((i = 0; i < 100; i++)); do
    [ -s "$T/events.rc" ] && break
    sleep 0.1
done
rc=$(cat "$T/events.rc" 2>/dev/null)
# network events carry no status: "not found" (with the lines that say where
# the walk stopped, indented) and exit 3 for those
if [ "$rc" = 0 ] || { [ "$rc" = 3 ] && ! grep -v -e ': /status: not found$' -e '^jdoc:   ' "$T/events.err" | grep -q .; }; then ok; else
    bad "events: jdoc exit ${rc:-none}: $(head -3 "$T/events.err")"
fi
if out=$(python3 "$HERE/expect.py" events "$T/events.raw" "$T/events.out" 2>&1); then ok; else bad "$out"; fi
echo "  ${out//$T\//}"

echo "check-docker: $pass passed, $fail failed ($(($(date +%s) - t0)) s)"
[ "$fail" = 0 ]
