#!/usr/bin/env bash
# Soak: the default three servers (qtp:4, qtp:32, loom) and the embedded backend under a steady mixed
# load for a while: every endpoint, some bad requests, one request in twenty on a fresh HTTP/1.0
# connection. Loopback only.
#
#   scripts/soak.sh                      10 minutes
#   SOAK_SECONDS=60 scripts/soak.sh      one minute (CI)
#   JAVA=/path/to/jdk-21+/bin/java scripts/soak.sh
#
# Reports requests sent, answers by class (2xx/4xx/5xx), unexpected answers, connection errors, and the
# server's RSS and threads (/proc/PID/status) at start, after warm-up and at the end. Checks:
#   no-5xx, expected-statuses   every request got what it deserved (200, or 400/404 for the bad ones)
#   no-connection-errors        no refused/reset/cut connection, no timeout (30 s)
#   every-request-accounted     every request sent got an answer or an error
#   port-P-answers              each server answered
#   rss-flat                    RSS at the end <= RSS after warm-up + 25 % (SOAK_RSS_TOLERANCE=0.25);
#                               the 256 MB heap is pre-touched, so this is growth outside the heap
#   threads-flat                threads at the end <= threads after warm-up + 10 (SOAK_THREAD_TOLERANCE)
#   sigterm-exit-0              SIGTERM afterwards stops everything with exit status 0 within 15 s
# Warm-up is a quarter of the run, at least 10 s and at most 120 s (SOAK_WARMUP_SECONDS).
# Results in OUT (default gfx/results/soak): soak.csv (one row: the load, the answers by class, RSS and threads
# at start, after warm-up, peak and end, the checks passed and failed), output.txt and provenance.json.
# Last line: "soak: N passed, M failed"; exit status 1 when any check failed.
#
# Environment: SOAK_SECONDS (600), SOAK_PORT (7000; the servers use it and the next three ports),
# SOAK_CLIENTS per server (4), SOAK_THINK_MS between a client's requests (10),
# SOAK_JAVA_OPTS for the server JVM (-Xms256m -Xmx256m -XX:+AlwaysPreTouch), JAVA (else
# $JAVA_HOME/bin/java, else java on the PATH, else a JDK 21+ from Maven's toolchains).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

die() { echo "soak: $*" >&2; echo "soak: 0 passed, 1 failed"; exit 2; }

# shellcheck source=scripts/common.sh
source "scripts/common.sh"
results_command soak "SOAK_SECONDS SOAK_PORT SOAK_CLIENTS SOAK_THINK_MS SOAK_JAVA_OPTS SOAK_WARMUP_SECONDS SOAK_RSS_TOLERANCE SOAK_THREAD_TOLERANCE" "$@"

JAVA=$(find_java soak) || { echo "soak: 0 passed, 1 failed"; exit 2; }
SECONDS_TO_RUN=${SOAK_SECONDS:-600}
PORT=${SOAK_PORT:-7000}
CLIENTS=${SOAK_CLIENTS:-4}
THINK_MS=${SOAK_THINK_MS:-10}
WARMUP=${SOAK_WARMUP_SECONDS:-$(( SECONDS_TO_RUN / 4 < 10 ? 10 : (SECONDS_TO_RUN / 4 > 120 ? 120 : SECONDS_TO_RUN / 4) ))}
# The heap is committed and touched up front, so that RSS shows what grows outside it (threads, buffers,
# metaspace, code): left lazy, G1 touching fresh heap regions made RSS climb 60 % in a minute's run.
read -r -a JAVA_OPTS <<<"${SOAK_JAVA_OPTS:--Xms256m -Xmx256m -XX:+AlwaysPreTouch}"
if ! [[ $SECONDS_TO_RUN =~ ^[0-9]+$ ]] || (( SECONDS_TO_RUN < 20 )); then die "SOAK_SECONDS must be a whole number of seconds, at least 20"; fi
JAR=target/loomylin.jar
if [[ ! -f $JAR ]]; then
    echo "soak: building $JAR"
    ./mvnw -B -q -DskipTests package || die "build failed"
fi
for p in "$PORT" $((PORT + 1)) $((PORT + 2)) $((PORT + 3)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then die "port $p is in use; stop what runs there or set SOAK_PORT"; fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/loomylin-soak.XXXXXX") || exit 2
LOG=$WORK/server.log
SERVER_PID=""
cleanup() {
    [[ -n $SERVER_PID ]] && kill -9 "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
results_begin

"$JAVA" "${JAVA_OPTS[@]}" -jar "$JAR" --port "$PORT" --host 127.0.0.1 >"$LOG" 2>&1 &
SERVER_PID=$!
await_ready "$LOG" "$SERVER_PID" || { sed 's/^/soak: server | /' "$LOG"; die "the servers did not start"; }
echo "soak: $("$JAVA" -version 2>&1 | head -1), $(nproc) cores; servers on ports $PORT-$((PORT + 2)), backend $((PORT + 3)), pid $SERVER_PID, ${JAVA_OPTS[*]}"

"$JAVA" -cp "$JAR" loomylin.lab.reliability.Soak --ports "$PORT,$((PORT + 1)),$((PORT + 2))" --pid "$SERVER_PID" \
    --seconds "$SECONDS_TO_RUN" --clients "$CLIENTS" --think-ms "$THINK_MS" --warmup-seconds "$WARMUP" \
    --rss-tolerance "${SOAK_RSS_TOLERANCE:-0.25}" --thread-tolerance "${SOAK_THREAD_TOLERANCE:-10}" --csv "$RESULTS/soak.csv" | tee "$LOG.report"
TOOL_STATUS=${PIPESTATUS[0]}

# The servers must still be there, and stop cleanly.
STOP="FAIL sigterm-exit-0: server already gone"
if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID"
    for _ in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        STOP="FAIL sigterm-exit-0: still running 15 s after SIGTERM"
        kill -9 "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null
    else
        wait "$SERVER_PID" 2>/dev/null
        RC=$?
        if (( RC == 0 )); then STOP="PASS sigterm-exit-0: exit status 0"; else STOP="FAIL sigterm-exit-0: exit status $RC"; fi
    fi
fi
SERVER_PID=""
echo "$STOP"
WARNINGS=$(grep -c " WARN \| ERROR " "$LOG")
if (( WARNINGS > 0 )); then
    echo "soak: the server logged $WARNINGS warnings or errors, the first ones:"
    grep " WARN \| ERROR " "$LOG" | head -5 | sed 's/^/soak: server | /'
fi

PASSED=$( { grep -c '^PASS ' "$LOG.report"; [[ $STOP == PASS* ]] && echo 1; } | awk '{s += $1} END {print s + 0}')
FAILED=$( { grep -c '^FAIL ' "$LOG.report"; [[ $STOP == FAIL* ]] && echo 1; } | awk '{s += $1} END {print s + 0}')
(( TOOL_STATUS == 0 || TOOL_STATUS == 1 )) || FAILED=$((FAILED + 1))
rm -f "$LOG.report"
results_end
echo "soak: $PASSED passed, $FAILED failed"
(( FAILED == 0 ))
