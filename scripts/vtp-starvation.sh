#!/usr/bin/env bash
# Why jetty-vtp:400 answers about 400 requests per client timeout in bench --preset seed004: a thread dump of a
# bounded Jetty VirtualThreadPool while more clients than its limit fetch multi-megabyte bodies.
#
#   scripts/vtp-starvation.sh              jetty-vtp:400, 500 clients, experiment 2's 100 ms request
#   VTP_POOL=jetty-vtp:400 VTP_C=500 VTP_QUERY='mixed?cpu=2685&sleep=95&file=5100745' scripts/vtp-starvation.sh
#
# One server JVM on VTP_POOL; a 1 s hey warm-up at 100 clients, then hey -z 8s -c VTP_C -t 20; 6 s in, the JVM's
# threads, virtual ones included, are dumped (jcmd Thread.dump_to_file) and counted by where they wait. Prints
# hey's answers and timeouts and the counts. Results in OUT (default gfx/results/vtp-starvation):
# vtp-starvation.csv (pool, clients, query, measure, count: hey's answered_200 and timed_out, then the virtual
# threads by where they wait: virtual_threads_blocked_writing, _waiting_for_permit, _elsewhere), hey.txt (hey's output), output.txt (what it printed), provenance.json.
# Loopback only, bounded: about 35 s (hey waits up to its 20 s timeout for the last requests).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/common.sh
source "scripts/common.sh"
die() { echo "vtp-starvation: $*" >&2; exit 2; }
results_command vtp-starvation "VTP_POOL VTP_C VTP_QUERY VTP_PORT" "$@"

JAVA=$(find_java vtp-starvation) || exit 2
JCMD=$(find_jcmd vtp-starvation "$JAVA") || exit 2
[[ -f target/loomylin.jar ]] || die "no target/loomylin.jar; build it: ./mvnw -q -DskipTests package"
command -v hey >/dev/null || die "needs hey (apt-get install hey)"
POOL=${VTP_POOL:-jetty-vtp:400}
C=${VTP_C:-500}
QUERY=${VTP_QUERY:-mixed?cpu=2685&sleep=95&file=5100745}
PORT=${VTP_PORT:-7490}
[[ $C =~ ^[0-9]+$ ]] && (( C >= 1 && C <= 10000 )) || die "VTP_C must be 1-10000, got '$C'"
WORK=$(mktemp -d)
SERVER="" LOAD=""
cleanup() { end_process "$LOAD"; end_process "$SERVER"; rm -rf "$WORK"; }
trap cleanup EXIT
results_begin

"$JAVA" -Xms1g -Xmx1g -jar target/loomylin.jar --pools "$POOL" --host 127.0.0.1 --port "$PORT" \
    --backend http://127.0.0.1:1 --admin-port 0 --grace-ms 0 > "$WORK/server.log" 2>&1 &
SERVER=$!
await_ready "$WORK/server.log" "$SERVER" || die "$POOL did not start: $(tail -1 "$WORK/server.log")"
URL="http://127.0.0.1:$PORT/$QUERY"
hey -z 1s -c 100 -t 20 "$URL" > /dev/null 2>&1
hey -z 8s -c "$C" -t 20 "$URL" > "$WORK/hey.out" 2>&1 &
LOAD=$!
sleep 6
"$JCMD" "$SERVER" Thread.dump_to_file -format=text "$WORK/dump.txt" > /dev/null || die "jcmd could not dump the threads"
wait "$LOAD"; LOAD=""
answers=$(sed -n 's/^[[:space:]]*\[200\][[:space:]]*\([0-9]*\) responses.*/\1/p' "$WORK/hey.out")
timeouts=$(sed -n 's/^[[:space:]]*\[\([0-9]*\)\].*Client.Timeout exceeded.*/\1/p' "$WORK/hey.out" | awk '{ s += $1 } END { print s + 0 }')
echo "vtp-starvation: $POOL, $C clients, /$QUERY, $("$JAVA" -version 2>&1 | head -1)"
echo "hey: ${answers:-0} answered 200, $timeouts timed out after 20 s"
cp "$WORK/hey.out" "$RESULTS/hey.txt"
counts=$(awk '
    /^#[0-9]+ / { if (in_vt) count(); in_vt = ($0 ~ / virtual /); what = ""; next }
    in_vt && what == "" && /Blocker/ { what = "blocked_writing" }
    in_vt && what == "" && /Semaphore.acquire/ { what = "waiting_for_permit" }
    function count() { n[what == "" ? "elsewhere" : what]++ }
    END { if (in_vt) count(); for (k in n) printf "%d\t%s\n", n[k], k }' "$WORK/dump.txt" | sort -rn)
printf '%s\n' "$counts" | awk -F'\t' '
    BEGIN {
        says["blocked_writing"] = "blocked writing the response (Jetty Blocker, HttpOutput.channelWrite)"
        says["waiting_for_permit"] = "waiting for a permit of the pool (Semaphore.acquire in VirtualThreadPool)"
    }
    NF == 2 { printf "  %5d virtual threads %s\n", $1, ($2 in says) ? says[$2] : $2 }'
{
    echo "pool,clients,query,measure,count"
    echo "$POOL,$C,\"${QUERY//\"/\"\"}\",answered_200,${answers:-0}"
    echo "$POOL,$C,\"${QUERY//\"/\"\"}\",timed_out,$timeouts"
    printf '%s\n' "$counts" | awk -F'\t' -v p="$POOL" -v c="$C" -v q="\"${QUERY//\"/\"\"}\"" 'NF == 2 { printf "%s,%s,%s,virtual_threads_%s,%d\n", p, c, q, $2, $1 }'
} > "$RESULTS/vtp-starvation.csv"
results_end hey
