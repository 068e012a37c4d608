#!/usr/bin/env bash
# Memory per in-flight request, the Java heap included. The bench's servers run on a fixed, pre-touched heap,
# so their RSS growth under load counts native memory only (platform threads' stacks, buffers): a parked
# virtual thread's stack lives on the heap and never shows there. This measures both, per pool:
#
#   scripts/memory-per-request.sh                       loom, qtp-vt:8, qtp:N (N = C + 500), qtp:32 async
#   scripts/memory-per-request.sh loom qtp:2500         only these pools (a qtp:* pool waits blocking)
#   JAVA=/path/to/jdk-25/bin/java MEM_C=10000 MEM_HEAP=1g scripts/memory-per-request.sh
#
# First a baseline: a fresh server JVM on qtp:8 (-Xms=-Xmx=MEM_HEAP, pre-touched as in the bench, so RSS
# growth is native memory only), idle: a full GC (jcmd GC.run), then the heap in use after it (GC.heap_info)
# and VmRSS. Then for each pool a fresh server JVM
# (--pools KIND) while wrk holds MEM_C connections, each with one request sleeping 20 s
# (/wait-blocking?ms=20000; /wait-async on "qtp:32 async"); once every request is in flight (MEM_SETTLE seconds,
# default 6), the same figures. Prints per pool the live heap and RSS above the baseline divided by MEM_C, in KB
# per in-flight request: everything the pool needs to hold them, its threads included (a qtp:N pool starts
# all N threads at start-up), and the OS threads.
# Results in OUT (default gfx/results/memory-per-request): memory-per-request.csv (the baseline and one row per
# pool: absolute heap and RSS in KB, and per in-flight request), output.txt (what it printed), provenance.json.
# Loopback only, bounded: about 20 s per server (the baseline and each pool), under 2 minutes with the default pools.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/common.sh
source "scripts/common.sh"
die() { echo "memory-per-request: $*" >&2; exit 2; }
results_command memory-per-request "MEM_C MEM_HEAP MEM_SETTLE MEM_PORT" "$@"

JAVA=$(find_java memory-per-request) || exit 2
JCMD=$(find_jcmd memory-per-request "$JAVA") || exit 2
[[ -f target/loomylin.jar ]] || die "no target/loomylin.jar; build it: ./mvnw -q -DskipTests package"
command -v wrk >/dev/null || die "needs wrk (apt-get install wrk)"
C=${MEM_C:-10000}
[[ $C =~ ^[0-9]+$ ]] && (( C >= 1 && C <= 18000 )) || die "MEM_C must be 1-18000 (the open-file limit), got '$C'"
HEAP=${MEM_HEAP:-1g}
SETTLE=${MEM_SETTLE:-6}
PORT=${MEM_PORT:-7480}
POOLS=("$@")
(( ${#POOLS[@]} )) || POOLS=(loom qtp-vt:8 "qtp:$(( C + 500 ))" "qtp:32 async")
WORK=$(mktemp -d)
SERVER="" LOAD=""
cleanup() { end_process "$LOAD"; end_process "$SERVER"; rm -rf "$WORK"; }
trap cleanup EXIT
results_begin
CSV=$RESULTS/memory-per-request.csv
echo "role,pool,route,in_flight_target,in_flight,threads,heap_kb,rss_kb,heap_kb_per_request,rss_kb_per_request,sum_kb_per_request" > "$CSV"

# heap in use after a full GC, in KB, and VmRSS in KB, and OS threads: "HEAP RSS THREADS"
figures() {
    "$JCMD" "$SERVER" GC.run >/dev/null 2>&1
    local heap rss threads
    heap=$("$JCMD" "$SERVER" GC.heap_info 2>/dev/null | sed -n 's/.*heap .*, used \([0-9]*\)K.*/\1/p' | head -1)
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status")
    threads=$(awk '/^Threads:/ {print $2}' "/proc/$SERVER/status")
    [[ $heap =~ ^[0-9]+$ && $rss =~ ^[0-9]+$ ]] || { echo "bad"; return; }
    echo "$heap $rss $threads"
}

# starts the server on pool $1 and waits until it answers
start() {
    "$JAVA" "-Xms$HEAP" "-Xmx$HEAP" -XX:+AlwaysPreTouch -jar target/loomylin.jar --pools "$1" --host 127.0.0.1 --port "$PORT" \
        --backend http://127.0.0.1:1 --admin-port 0 --accept-queue 4096 --grace-ms 0 > "$WORK/server.log" 2>&1 &
    SERVER=$!
    await_ready "$WORK/server.log" "$SERVER" || die "$1 did not start: $(tail -1 "$WORK/server.log")"
}

stop() {
    end_process "$LOAD"; LOAD=""
    end_process "$SERVER"; SERVER=""
}

echo "memory-per-request: $C requests in flight, heap $HEAP, $("$JAVA" -version 2>&1 | head -1)"
start qtp:8
for route in wait-blocking wait-async; do curl -s -o /dev/null "http://127.0.0.1:$PORT/$route?ms=1"; done
read -r base_heap base_rss base_threads <<< "$(figures)"
[[ $base_heap =~ ^[0-9]+$ ]] || die "could not read the heap in use (jcmd GC.heap_info) or VmRSS of the server"
stop
echo "baseline,qtp:8,,0,0,$base_threads,$base_heap,$base_rss,,," >> "$CSV"
echo "baseline (qtp:8, idle): heap $(( base_heap / 1024 )) MB live, RSS $(( base_rss / 1024 )) MB, $base_threads threads"
printf "%-14s %12s %12s %10s %10s %8s\n" pool "heap KB/req" "RSS KB/req" "sum KB/req" "in flight" threads
for spec in "${POOLS[@]}"; do
    pool=${spec% async}
    route=wait-blocking
    [[ $spec == *" async" ]] && route=wait-async
    start "$pool"
    wrk -t2 -c"$C" -d$(( SETTLE + 4 ))s --timeout 30s "http://127.0.0.1:$PORT/$route?ms=20000" > "$WORK/wrk.out" 2>&1 &
    LOAD=$!
    sleep "$SETTLE"
    read -r heap rss threads <<< "$(figures)"
    [[ $heap =~ ^[0-9]+$ ]] || die "could not read the heap in use (jcmd GC.heap_info) or VmRSS of the $spec server"
    inflight=$(curl -s "http://127.0.0.1:$PORT/pool" | sed -n 's/.*"inFlight":\([0-9]*\).*/\1/p')
    stop
    awk -v p="$spec" -v h=$(( heap - base_heap )) -v r=$(( rss - base_rss )) -v c="$C" -v a="${inflight:--}" -v t="$threads" \
        'BEGIN { printf "%-14s %12.1f %12.1f %10.1f %10s %8d\n", p, h / c, r / c, (h + r) / c, a, t }'
    awk -v p="$pool" -v route="$route" -v heap="$heap" -v rss="$rss" -v h=$(( heap - base_heap )) -v r=$(( rss - base_rss )) \
        -v c="$C" -v a="$inflight" -v t="$threads" \
        'BEGIN { printf "pool,%s,%s,%d,%s,%d,%d,%d,%.1f,%.1f,%.1f\n", p, route, c, a, t, heap, rss, h / c, r / c, (h + r) / c }' >> "$CSV"
done
results_end wrk curl
