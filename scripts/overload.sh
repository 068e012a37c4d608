#!/usr/bin/env bash
# What each pool kind does at about five times its comfortable load. Loopback only, bounded in
# requests and time: about 4 minutes on 2 cores, most of it qtp4 working through its queue (about 10 requests
# a second, so OVERLOAD_QTP4_CLIENTS / 10 seconds); loom and loom-limited take about 15 s each.
#
#   scripts/overload.sh                     every scenario
#   scripts/overload.sh loom loom-limited   only these
#   JAVA=/path/to/jdk-21+/bin/java scripts/overload.sh
#
# Scenarios, each on a fresh server (java -jar target/loomylin.jar --pools KIND ...):
#   qtp4          qtp:4, 2000 concurrent /wait-blocking?ms=100 (2000 requests, client timeout 600 s);
#                 OVERLOAD_QTP4_CLIENTS sets the 2000
#   loom          loom under -Xmx256m, 8000 concurrent /wait-blocking?ms=1000 (16000 requests, timeout 60 s);
#                 OVERLOAD_LOOM_CLIENTS sets the 8000 (and the requests to twice that), here and in loom-limited
#   loom-limited  as loom, with --max-in-flight 2000 --max-in-flight-wait-ms 500: the excess gets 503
#
# A scenario passes when the server stays up, logs no OutOfMemoryError, every request gets a complete
# HTTP answer (200, or 503 when the limit is on), hey reports no errors, and SIGTERM afterwards exits 0.
# It prints RSS and threads (from /proc/PID/status: at start, peak, at the end) and hey's latencies.
# Last line: "overload: N passed, M failed"; exit status 1 when any failed. OverloadTest (./mvnw verify)
# makes the same checks on every build, qtp4 smaller.
# Results in OUT (default gfx/results/overload): overload.csv (one row per scenario: its load, the answers by
# status, the latencies, RSS and threads, the verdict), hey-SCENARIO.txt (hey's output), output.txt (what it
# printed), provenance.json.
#
# Environment: JAVA (else $JAVA_HOME/bin/java, else java), HEY (default hey), OVERLOAD_PORT (default 7400),
# OVERLOAD_QTP4_CLIENTS (2000), OVERLOAD_LOOM_CLIENTS (8000), OUT.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

die() { echo "overload: $*" >&2; exit 2; }

# shellcheck source=scripts/common.sh
source "scripts/common.sh"
results_command overload "HEY OVERLOAD_PORT OVERLOAD_QTP4_CLIENTS OVERLOAD_LOOM_CLIENTS" "$@"

JAVA=$(find_java overload) || exit 2
HEY=${HEY:-hey}
command -v "$HEY" >/dev/null 2>&1 || die "hey not found (set HEY=/path/to/hey; https://github.com/rakyll/hey)"
PORT=${OVERLOAD_PORT:-7400}
QTP4_CLIENTS=${OVERLOAD_QTP4_CLIENTS:-2000}
LOOM_CLIENTS=${OVERLOAD_LOOM_CLIENTS:-8000}
[[ $QTP4_CLIENTS =~ ^[0-9]+$ ]] && (( QTP4_CLIENTS >= 1 && QTP4_CLIENTS <= 10000 )) || die "OVERLOAD_QTP4_CLIENTS must be 1-10000, got '$QTP4_CLIENTS'"
[[ $LOOM_CLIENTS =~ ^[0-9]+$ ]] && (( LOOM_CLIENTS >= 1 && LOOM_CLIENTS <= 16000 )) || die "OVERLOAD_LOOM_CLIENTS must be 1-16000, got '$LOOM_CLIENTS'"
JAR=target/loomylin.jar
if [[ ! -f $JAR ]]; then
    echo "overload: building $JAR"
    ./mvnw -B -q -DskipTests package || die "build failed"
fi

# 8000 connections need 8000+ descriptors in hey and in the server: raise the soft limit to the hard one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null
NEEDED=$(( (QTP4_CLIENTS > LOOM_CLIENTS ? QTP4_CLIENTS : LOOM_CLIENTS) + 1000 ))
(( $(ulimit -n) >= NEEDED )) || die "open-files limit $(ulimit -n) is below $NEEDED; raise it (ulimit -n) to run $(( NEEDED - 1000 )) connections"
SOMAXCONN=$(cat /proc/sys/net/core/somaxconn 2>/dev/null || echo 4096)
ACCEPT_QUEUE=$(( SOMAXCONN < 4096 ? SOMAXCONN : 4096 ))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loomylin-overload.XXXXXX")
SERVER_PID=""
SAMPLER_PID=""
cleanup() {
    [[ -n $SAMPLER_PID ]] && kill "$SAMPLER_PID" 2>/dev/null
    [[ -n $SERVER_PID ]] && kill -9 "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
results_begin
CSV=$RESULTS/overload.csv
echo "scenario,pool,java_opts,server_flags,requests,concurrency,timeout_s,path,answered,status_200,status_503,status_other,client_errors,seconds,latency_avg_s,latency_p50_s,latency_p99_s,latency_max_s,rss_start_mb,rss_peak_mb,rss_end_mb,threads_start,threads_peak,threads_end,out_of_memory_errors,sigterm_exit,verdict" > "$CSV"

kb_to_mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
status_field() { awk -v key="$2:" '$1 == key {print $2}' "/proc/$1/status" 2>/dev/null; }

PASSED=0
FAILED=0
SUMMARY=()

# scenario NAME POOL JAVA_OPTS SERVER_FLAGS ALLOWED_STATUSES REQUESTS CONCURRENCY TIMEOUT_S PATH
scenario() {
    local name=$1 pool=$2 jopts=$3 sflags=$4 allowed=$5 n=$6 c=$7 t=$8 path=$9
    local log=$WORK/$name.server.log out=$WORK/$name.hey.txt samples=$WORK/$name.samples
    echo
    echo "== $name: --pools $pool $sflags, $jopts; hey -n $n -c $c -t $t $path"
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
        echo "   port $PORT is in use; set OVERLOAD_PORT"; FAILED=$((FAILED + 1)); SUMMARY+=("$name: FAIL (port $PORT in use)")
        echo "$name,$pool,,,$n,$c,$t,,,,,,,,,,,,,,,,,,,,FAIL (port $PORT in use)" >> "$CSV"; return
    fi
    # shellcheck disable=SC2086
    "$JAVA" $jopts -jar "$JAR" --pools "$pool" --port "$PORT" --host 127.0.0.1 --backend http://127.0.0.1:9 \
        --accept-queue "$ACCEPT_QUEUE" --grace-ms 5000 $sflags >"$log" 2>&1 &
    SERVER_PID=$!
    if ! await_ready "$log" "$SERVER_PID"; then
        echo "   server did not start:"; sed 's/^/   | /' "$log"
        kill -9 "$SERVER_PID" 2>/dev/null; SERVER_PID=""
        FAILED=$((FAILED + 1)); SUMMARY+=("$name: FAIL (no start)")
        echo "$name,$pool,,,$n,$c,$t,,,,,,,,,,,,,,,,,,,,FAIL (no start)" >> "$CSV"; return
    fi
    curl -s -o /dev/null "http://127.0.0.1:$PORT/wait-blocking?ms=0" 2>/dev/null || true
    local rss0 thr0
    rss0=$(status_field "$SERVER_PID" VmRSS)
    thr0=$(status_field "$SERVER_PID" Threads)
    ( while kill -0 "$SERVER_PID" 2>/dev/null; do
          awk '/^VmRSS:/ {r = $2} /^Threads:/ {t = $2} END {if (r) print r, t}' "/proc/$SERVER_PID/status" 2>/dev/null
          sleep 0.25
      done ) >"$samples" &
    SAMPLER_PID=$!

    local started=$SECONDS
    "$HEY" -n "$n" -c "$c" -t "$t" "http://127.0.0.1:$PORT$path" >"$out" 2>&1
    local took=$((SECONDS - started))
    sleep 1
    local alive=yes
    kill -0 "$SERVER_PID" 2>/dev/null || alive=no
    local rss1 thr1 hwm
    rss1=$(status_field "$SERVER_PID" VmRSS)
    thr1=$(status_field "$SERVER_PID" Threads)
    hwm=$(status_field "$SERVER_PID" VmHWM)
    kill "$SAMPLER_PID" 2>/dev/null; wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=""
    local thrmax
    thrmax=$(awk 'BEGIN {m = 0} $2 > m {m = $2} END {print m}' "$samples")

    # SIGTERM: must exit 0 within the grace period plus slack
    local exit_code=none
    if [[ $alive == yes ]]; then
        kill -TERM "$SERVER_PID"
        for _ in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$SERVER_PID" 2>/dev/null; then kill -9 "$SERVER_PID"; exit_code=hung; fi
        wait "$SERVER_PID" 2>/dev/null
        local rc=$?
        [[ $exit_code == hung ]] || exit_code=$rc
    fi
    SERVER_PID=""

    local answered errors statuses bad_status oom
    answered=$(awk '/^Status code distribution:/ {s = 1; next} /^[A-Za-z]/ {s = 0} s && /\[[0-9]+\]/ {sum += $2} END {print sum + 0}' "$out")
    errors=$(awk '/^Error distribution:/ {s = 1; next} s && /\[[0-9]+\]/ {gsub(/[\[\]]/, "", $1); sum += $1} END {print sum + 0}' "$out")
    statuses=$(awk '/^Status code distribution:/ {s = 1; next} /^[A-Za-z]/ {s = 0} s && /\[[0-9]+\]/ {gsub(/[\[\]]/, "", $1); printf "%s%s: %s", sep, $1, $2; sep = ", "}' "$out")
    bad_status=$(awk -v ok="$allowed" '/^Status code distribution:/ {s = 1; next} /^[A-Za-z]/ {s = 0} s && /\[[0-9]+\]/ {gsub(/[\[\]]/, "", $1); if (index(" " ok " ", " " $1 " ") == 0) print $1}' "$out")
    oom=$(grep -c "OutOfMemoryError" "$log")
    local avg p50 p99 slowest
    avg=$(awk '$1 == "Average:" {print $2; exit}' "$out")
    slowest=$(awk '$1 == "Slowest:" {print $2; exit}' "$out")
    p50=$(awk '$1 == "50%" {print $3; exit}' "$out")
    p99=$(awk '$1 == "99%" {print $3; exit}' "$out")

    local verdict=PASS reasons=()
    [[ $alive == yes ]] || reasons+=("server died")
    (( oom == 0 )) || reasons+=("OutOfMemoryError logged")
    (( errors == 0 )) || reasons+=("$errors client errors")
    (( answered == n )) || reasons+=("$answered of $n answered")
    [[ -z $bad_status ]] || reasons+=("unexpected status $(echo "$bad_status" | tr '\n' ' ')")
    [[ $exit_code == 0 ]] || reasons+=("SIGTERM exit $exit_code")
    (( ${#reasons[@]} == 0 )) || verdict="FAIL (${reasons[*]})"

    echo "   answered $answered of $n in ${took}s ($statuses), client errors $errors"
    [[ $errors == 0 ]] || awk '/^Error distribution:/ {s = 1; next} s' "$out" | head -5 | sed 's/^/   | /'
    echo "   latency: average ${avg}s, p50 ${p50}s, p99 ${p99}s, slowest ${slowest}s"
    echo "   RSS: $(kb_to_mb "$rss0") MB at start, peak $(kb_to_mb "$hwm") MB, $(kb_to_mb "$rss1") MB after; threads: $thr0 at start, peak $thrmax, $thr1 after"
    echo "   OutOfMemoryError: $oom; SIGTERM afterwards: exit $exit_code"
    echo "   $verdict"
    cp "$out" "$RESULTS/hey-$name.txt"
    local by_status
    by_status=$(awk '/^Status code distribution:/ {s = 1; next} /^[A-Za-z]/ {s = 0}
        s && /\[[0-9]+\]/ {gsub(/[\[\]]/, "", $1); if ($1 == 200 || $1 == 503) n[$1] += $2; else n["other"] += $2}
        END {printf "%d,%d,%d", n[200], n[503], n["other"]}' "$out")
    printf '%s,%s,"%s","%s",%s,%s,%s,"%s",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"%s"\n' "$name" "$pool" "$jopts" "$sflags" \
        "$n" "$c" "$t" "$path" "$answered" "$by_status" "$errors" "$took" "$avg" "$p50" "$p99" "$slowest" \
        "$(kb_to_mb "$rss0")" "$(kb_to_mb "$hwm")" "$(kb_to_mb "$rss1")" "$thr0" "$thrmax" "$thr1" "$oom" "$exit_code" "$verdict" >> "$CSV"
    if [[ $verdict == PASS ]]; then PASSED=$((PASSED + 1)); else FAILED=$((FAILED + 1)); fi
    SUMMARY+=("$name: $verdict")
}

echo "overload: $("$JAVA" -version 2>&1 | head -1), $(nproc) cores, ulimit -n $(ulimit -n), somaxconn $SOMAXCONN, accept queue $ACCEPT_QUEUE"
WANTED=("$@")
(( ${#WANTED[@]} > 0 )) || WANTED=(qtp4 loom loom-limited)
for s in "${WANTED[@]}"; do
    [[ $s == qtp4 || $s == loom || $s == loom-limited ]] || die "unknown scenario '$s' (qtp4, loom, loom-limited)"
done
for s in "${WANTED[@]}"; do
    case $s in
        qtp4) scenario qtp4 qtp:4 "-Xmx256m" "" "200" "$QTP4_CLIENTS" "$QTP4_CLIENTS" 600 "/wait-blocking?ms=100" ;;
        loom) scenario loom loom "-Xmx256m" "" "200" $(( 2 * LOOM_CLIENTS )) "$LOOM_CLIENTS" 60 "/wait-blocking?ms=1000" ;;
        loom-limited) scenario loom-limited loom "-Xmx256m" "--max-in-flight 2000 --max-in-flight-wait-ms 500" "200 503" $(( 2 * LOOM_CLIENTS )) "$LOOM_CLIENTS" 60 "/wait-blocking?ms=1000" ;;
        *) die "unknown scenario '$s' (qtp4, loom, loom-limited)" ;;
    esac
done
echo
printf '%s\n' "${SUMMARY[@]}"
echo "overload: $PASSED passed, $FAILED failed"
results_end "$HEY" curl
(( FAILED == 0 ))
