#!/usr/bin/env bash
# Slow clients (slowloris): a `loom` server with a low open-files limit and the header deadline, a few thousand
# connections that drip header lines and reconnect when cut, and normal clients among them, on loopback
# (loomylin.lab.reliability.SlowClients). Passes when every normal request is answered 200 within the bound (503s
# retried). Writes slow-clients.csv (one row: the load and how the slow connections ended, the normal clients'
# answers and the slowest), the output and provenance.json to OUT (default gfx/results/slow-clients).
#
#   scripts/slow-clients.sh          # about 30 s
#
# Environment (all optional): SLOW_OPEN_FILES (the server's ulimit -n, default 1024), SLOW_HEADER_TIMEOUT_MS
# (default 2000), SLOW_CONNECTIONS (2500), SLOW_DRIP_MS (1000), SLOW_SECONDS (20), SLOW_NORMAL (4),
# SLOW_NORMAL_BOUND_MS (10000), SLOW_PORT (7000), JAVA, OUT. Last line: "slow-clients: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# shellcheck source=scripts/common.sh
source "scripts/common.sh"
results_command slow-clients "SLOW_OPEN_FILES SLOW_HEADER_TIMEOUT_MS SLOW_CONNECTIONS SLOW_DRIP_MS SLOW_SECONDS SLOW_NORMAL SLOW_NORMAL_BOUND_MS SLOW_PORT" "$@"

die() { echo "slow-clients: $*" >&2; echo "slow-clients: 0 passed, 1 failed"; exit 2; }
JAVA=$(find_java slow-clients) || { echo "slow-clients: 0 passed, 1 failed"; exit 2; }
OPEN_FILES=${SLOW_OPEN_FILES:-1024}
DEADLINE=${SLOW_HEADER_TIMEOUT_MS:-2000}
PORT=${SLOW_PORT:-7000}
[[ $OPEN_FILES =~ ^[0-9]+$ ]] && (( OPEN_FILES >= 256 )) || die "SLOW_OPEN_FILES must be a whole number, at least 256"
(( $(ulimit -n) > ${SLOW_CONNECTIONS:-2500} + 100 )) || die "this shell's ulimit -n ($(ulimit -n)) is too low for ${SLOW_CONNECTIONS:-2500} connections"
JAR=target/loomylin.jar
if [[ ! -f $JAR ]]; then
    echo "slow-clients: building $JAR"
    ./mvnw -B -q -DskipTests package || die "build failed"
fi
for p in "$PORT" $((PORT + 1)) $((PORT + 2)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then die "port $p is in use; stop what runs there or set SLOW_PORT"; fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/loomylin-slow-clients.XXXXXX") || exit 2
SERVER_PID=""
cleanup() {
    [[ -n $SERVER_PID ]] && kill -9 "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
results_begin

LOG=$WORK/server.log
( ulimit -n "$OPEN_FILES" && exec "$JAVA" -Xmx256m -jar "$JAR" --pools loom --port "$PORT" --host 127.0.0.1 \
    --header-timeout-ms "$DEADLINE" --data-file-bytes 100000 ) >"$LOG" 2>&1 &
SERVER_PID=$!
await_ready "$LOG" "$SERVER_PID" || { sed 's/^/slow-clients: server | /' "$LOG"; die "the server did not start"; }
echo "slow-clients: $("$JAVA" -version 2>&1 | head -1), $(nproc) cores; loom on port $PORT, ulimit -n $OPEN_FILES, --header-timeout-ms $DEADLINE, pid $SERVER_PID"

"$JAVA" -cp "$JAR" loomylin.lab.reliability.SlowClients --port "$PORT" --csv "$RESULTS/slow-clients.csv" | tee "$WORK/report"
TOOL_STATUS=${PIPESTATUS[0]}

LIMIT="FAIL descriptors-exhausted: the server never reached its open-files limit (too few slow connections for SLOW_OPEN_FILES)"
grep -q "at the open-files limit" "$LOG" && LIMIT="PASS descriptors-exhausted: the slow connections reached the server's open-files limit"
echo "$LIMIT"
STOP="FAIL sigterm-exit-0: server already gone"
if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null
    RC=$?
    if (( RC == 0 )); then STOP="PASS sigterm-exit-0: exit status 0"; else STOP="FAIL sigterm-exit-0: exit status $RC"; fi
fi
SERVER_PID=""
echo "$STOP"

PASSED=$(cat "$WORK/report" <(echo "$LIMIT") <(echo "$STOP") | grep -c '^PASS ')
FAILED=$(cat "$WORK/report" <(echo "$LIMIT") <(echo "$STOP") | grep -c '^FAIL ')
(( TOOL_STATUS == 0 || TOOL_STATUS == 1 )) || FAILED=$((FAILED + 1))
results_end
echo "slow-clients: $PASSED passed, $FAILED failed"
(( FAILED == 0 ))
