#!/usr/bin/env bash
# Why the jdk preset's `loom` answered nothing inside `synchronized` on JDK 21 (docs/results/jdk-and-pinning.md):
# a `loom` server on JAVA (a JDK 21: scripts/jdk21.sh) gets C wrk clients of /wait-locked?ms=100&lock=synchronized
# for WINDOW seconds, twice: on a fresh server, and on a fresh server after SLICES wrk warm-up slices of SLICE
# seconds at the same C, as the bench's warm-up makes them. Halfway through each window it counts the server's
# connections whose client has gone (CLOSE-WAIT: requests still held for clients that left) and those still open
# (ESTABLISHED), from `ss`. Writes $OUT/pinned-backlog.csv (one row per case: its clients, slices and window, wrk's
# answers in the window, the two counts), output.txt and provenance.json; every process it starts is ended by its id.
#   JAVA="$(bash scripts/jdk21.sh)" bash scripts/pinned-backlog.sh   # C=200 WINDOW=20 SLICES=2 SLICE=5 OUT=gfx/results/pinned-backlog
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
results_command pinned-backlog "C WINDOW SLICES SLICE" "$@"
C=${C:-200}
WINDOW=${WINDOW:-20}
SLICES=${SLICES:-2}
SLICE=${SLICE:-5}
JAVA=$(find_java pinned-backlog) || exit 2
command -v wrk >/dev/null || { echo "pinned-backlog: needs wrk (apt-get install wrk)" >&2; exit 2; }
command -v ss >/dev/null || { echo "pinned-backlog: needs ss (apt-get install iproute2)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "pinned-backlog: needs python3 (apt-get install python3)" >&2; exit 2; }
[[ -f target/loomylin.jar ]] || { echo "pinned-backlog: no target/loomylin.jar (./mvnw -DskipTests package)" >&2; exit 2; }
WORK=$(mktemp -d)
SERVER="" LOAD=""
cleanup() { end_process "$LOAD"; end_process "$SERVER"; rm -rf "$WORK"; }
trap cleanup EXIT
results_begin
echo "case,clients,warmup_slices,slice_s,window_s,answered_in_window,close_wait_midway,established_midway" >"$RESULTS/pinned-backlog.csv"

# one case: $1 its name, $2 warm-up slices before the window
one() {
    local name=$1 slices=$2 port answered waiting open
    port=$(free_port)
    "$JAVA" -Xms1g -Xmx1g -jar target/loomylin.jar --pools loom --host 127.0.0.1 --port "$port" \
        --backend http://127.0.0.1:1 --admin-port 0 --grace-ms 0 >"$WORK/server-$name.log" 2>&1 &
    SERVER=$!
    await_ready "$WORK/server-$name.log" "$SERVER" || { echo "pinned-backlog: the server did not start: $(tail -1 "$WORK/server-$name.log")" >&2; exit 1; }
    local url="http://127.0.0.1:$port/wait-locked?ms=100&lock=synchronized"
    for _ in $(seq 1 "$slices"); do wrk -t2 -c"$C" -d"${SLICE}s" --timeout 20s "$url" >/dev/null 2>&1 || true; done
    wrk -t2 -c"$C" -d"${WINDOW}s" --timeout 20s "$url" >"$WORK/wrk-$name.txt" 2>&1 &
    LOAD=$!
    sleep $((WINDOW / 2))
    waiting=$(ss -Htn state close-wait "( sport = :$port )" | wc -l)
    open=$(ss -Htn state established "( sport = :$port )" | wc -l)
    wait "$LOAD" || true
    LOAD=""
    answered=$(awk '/requests in/ { print $1 }' "$WORK/wrk-$name.txt")
    echo "pinned-backlog: $name: ${answered:-0} answers in ${WINDOW} s; midway $waiting connections whose client had gone, $open open"
    echo "$name,$C,$slices,$SLICE,$WINDOW,${answered:-0},$waiting,$open" >>"$RESULTS/pinned-backlog.csv"
    end_process "$SERVER"
    SERVER=""
}

echo "pinned-backlog: loom on $("$JAVA" -version 2>&1 | head -1), $C clients of /wait-locked?ms=100&lock=synchronized"
one fresh 0
one after-warm-up "$SLICES"
results_end wrk
