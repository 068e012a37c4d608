#!/usr/bin/env bash
# Why jetty-vtp:400 answers about 400 requests per client timeout in bench --preset seed004: a thread dump of a
# bounded Jetty VirtualThreadPool while more clients than its limit fetch multi-megabyte bodies.
#
#   scripts/vtp-starvation.sh              jetty-vtp:400, 500 clients, experiment 2's 100 ms request
#   VTP_POOL=jetty-vtp:400 VTP_C=500 VTP_QUERY='mixed?cpu=2685&sleep=95&file=5100745' scripts/vtp-starvation.sh
#
# One server JVM on VTP_POOL; a 1 s hey warm-up at 100 clients, then hey -z 8s -c VTP_C -t 20; 6 s in, the JVM's
# threads, virtual ones included, are dumped (jcmd Thread.dump_to_file) and counted by where they wait. Prints
# hey's answers and timeouts and the counts. Loopback only, bounded: about 30 s.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/common.sh
source "scripts/common.sh"
die() { echo "vtp-starvation: $*" >&2; exit 2; }

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
awk '
    /^#[0-9]+ / { if (in_vt) count(); in_vt = ($0 ~ / virtual /); what = ""; next }
    in_vt && what == "" && /Blocker/ { what = "blocked writing the response (Jetty Blocker, HttpOutput.channelWrite)" }
    in_vt && what == "" && /Semaphore.acquire/ { what = "waiting for a permit of the pool (Semaphore.acquire in VirtualThreadPool)" }
    function count() { n[what == "" ? "elsewhere" : what]++ }
    END { if (in_vt) count(); for (k in n) printf "  %5d virtual threads %s\n", n[k], k }' "$WORK/dump.txt" | sort -rn
