#!/usr/bin/env bash
# Where a request that waits on one blocking HTTP call spends its CPU on each pool (docs/results/cpu.md, the
# crossover's call cell): a Loomylin server on each of POOLS, calling the backend once per request through
# HttpURLConnection, offered RATE req/s open loop by oha (the crossover's call20+cpu0.25 cell: ITERATIONS of
# SHA-256, a 20 ms call); after a 20 s warm-up, a JFR recording of WINDOW seconds with an execution sample every
# millisecond (-XX:+DebugNonSafepoints), and the server JVM's CPU over it from /proc, user and system apart. Each sample is counted once
# under the first of these it holds on its stack, from the leaf: the virtual-thread machinery (VirtualThread,
# Continuation, ForkJoinPool), the JDK's poller, HttpURLConnection and the socket under it, the SHA-256 work,
# Jetty, else other. One run per pool: a sketch. Writes $OUT/profile.csv, output.txt and provenance.json; every
# process it starts is ended by its id.
#   bash scripts/call-profile.sh          # POOLS=loom,qtp:64 RATE=1300 WINDOW=20 ITERATIONS=1413 OUT=gfx/results/call-profile
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
results_command call-profile "POOLS RATE WINDOW ITERATIONS" "$@"
POOLS=${POOLS:-loom,qtp:64}
RATE=${RATE:-1300}
WINDOW=${WINDOW:-20}
ITERATIONS=${ITERATIONS:-1413}
JAVA=$(find_java call-profile) || exit 2
JCMD=$(find_jcmd call-profile "$JAVA") || exit 2
JFR_TOOL="$(dirname "$JCMD")/jfr"
[[ -x $JFR_TOOL ]] || { echo "call-profile: no jfr beside $JCMD" >&2; exit 2; }
command -v oha >/dev/null || { echo "call-profile: needs oha (cargo install oha --version 1.16.0 --locked)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "call-profile: needs python3 (apt-get install python3)" >&2; exit 2; }
[[ -f target/loomylin.jar ]] || { echo "call-profile: no target/loomylin.jar (./mvnw -DskipTests package)" >&2; exit 2; }
WORK=$(mktemp -d)
backend=""; server=""
trap 'end_process "$server"; end_process "$backend"; rm -rf "$WORK"' EXIT
results_begin
ticks() { awk '{print $14 " " $15}' "/proc/$1/stat"; }  # user and system clock ticks

bport=$(free_port)
"$JAVA" -Xms512m -Xmx512m -jar target/loomylin.jar backend --host 127.0.0.1 --port "$bport" --delay 0 >"$WORK/backend.log" 2>&1 &
backend=$!
python3 - "$bport" <<'PY' || { echo "call-profile: the backend did not answer: $(tail -3 "$WORK/backend.log")" >&2; exit 1; }
import sys, time, urllib.request
for _ in range(300):
    try:
        urllib.request.urlopen("http://127.0.0.1:%s/echo?delay=0&bytes=0" % sys.argv[1], timeout=2).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.2)
sys.exit(1)
PY
echo "pool,start,end,offered_rps,answers,cpu_ms_per_answer,user_ms_per_answer,system_ms_per_answer,samples,vthread_machinery,poller,http_url_connection,sha256,jetty,other" >"$RESULTS/profile.csv"
IFS=, read -ra pools <<< "$POOLS"
for pool in "${pools[@]}"; do
  t0=$(date -u +%FT%TZ)
  port=$(free_port)
  "$JAVA" -Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -jar target/loomylin.jar \
    --twin java --pools "$pool" --host 127.0.0.1 --port "$port" --backend "http://127.0.0.1:$bport" --hop-client url --admin-port 0 \
    >"$WORK/server.log" 2>&1 &
  server=$!
  await_ready "$WORK/server.log" "$server" || { echo "call-profile: $pool did not start: $(tail -3 "$WORK/server.log")" >&2; exit 1; }
  url="http://127.0.0.1:$port/mixed?cpu=$ITERATIONS&sleep=20&file=0&calls=1"
  timeout 120 oha -z 20s -q "$RATE" -c 58 --no-tui "$url" >/dev/null
  "$JCMD" "$server" JFR.start name=call settings=profile "jdk.ExecutionSample#period=1ms" >/dev/null
  before=$(ticks "$server")
  timeout 120 oha -z "${WINDOW}s" -q "$RATE" -c 58 --no-tui --output-format json "$url" >"$WORK/oha.json"
  after=$(ticks "$server")
  "$JCMD" "$server" JFR.stop name=call filename="$WORK/$pool.jfr" >/dev/null
  end_process "$server"; server=""
  "$JFR_TOOL" print --events jdk.ExecutionSample --stack-depth 64 "$WORK/$pool.jfr" >"$WORK/samples.txt"
  python3 - "$pool" "$t0" "$(date -u +%FT%TZ)" "$RATE" "$WORK/oha.json" "$before" "$after" "$WORK/samples.txt" >>"$RESULTS/profile.csv" <<'PY'
import json, sys, os
pool, t0, t1, rate, oha, before, after, samples = sys.argv[1:9]
answers = sum(v for k, v in json.load(open(oha))["statusCodeDistribution"].items() if k.startswith("2"))
(u0, s0), (u1, s1) = [map(int, t.split()) for t in (before, after)]
tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
user_ms, system_ms = (u1 - u0) * tick_ms, (s1 - s0) * tick_ms
cpu_ms = user_ms + system_ms
order = [("vthread_machinery", ("java.lang.VirtualThread", "jdk.internal.vm.Continuation", "java.util.concurrent.ForkJoin")),
         ("poller", ("sun.nio.ch.Poller",)),
         ("http_url_connection", ("sun.net.www.", "java.net.HttpURLConnection", "sun.nio.ch.NioSocketImpl", "java.net.Socket")),
         ("sha256", ("loomylin.server.web.Sha256Loop", "sun.security.provider.SHA")),
         ("jetty", ("org.eclipse.jetty.",))]
counts = {name: 0 for name, _ in order}
other = total = 0
stack = []
in_stack = False
def close():
    global other, total
    if not stack: return
    total += 1
    for frame in stack:  # from the leaf
        for name, prefixes in order:
            if frame.startswith(prefixes):
                counts[name] += 1
                return
    other += 1
for line in open(samples):
    line = line.strip()
    if line.startswith("jdk.ExecutionSample"):
        close(); stack = []
    elif line.startswith("stackTrace = ["):
        in_stack = True
    elif in_stack and line.startswith("]"):
        in_stack = False
    elif in_stack and line != "...":
        stack.append(line)
close()
share = lambda n: "%.1f" % (100.0 * n / total) if total else ""
print(",".join([pool, t0, t1, rate, str(answers), "%.4f" % (cpu_ms / answers if answers else float("nan")),
                "%.4f" % (user_ms / answers if answers else float("nan")), "%.4f" % (system_ms / answers if answers else float("nan")), str(total)]
               + [share(counts[name]) for name, _ in order] + [share(other)]))
PY
  tail -1 "$RESULTS/profile.csv"
done
results_end oha
