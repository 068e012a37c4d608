#!/usr/bin/env bash
# What Jetty's per-connection header cache costs in heap (docs/reference/pools-and-flags.md: --header-cache): a Loomylin server
# on `loom` with --header-cache 0 (Loomylin's default) and 1024 (Jetty's), N keep-alive connections on loopback
# that each send two requests (Jetty makes a connection's cache on its second request) and stay open, then the
# live heap after a full GC (jcmd GC.run, GC.heap_info), before and with the connections; RUNS runs of each.
# Writes $OUT/memory.csv and $OUT/provenance.json. Bounded: every wait has a deadline, and every process it
# starts is ended by its id.
#   bash scripts/header-cache-memory.sh                 # N=2000 RUNS=3 OUT=gfx/results/header-cache
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-2000}
RUNS=${RUNS:-3}
OUT=${OUT:-gfx/results/header-cache}
JAVA=${JAVA:-java}
JAR=${JAR:-target/loomylin.jar}
JCMD="$(dirname "$(readlink -f "$(command -v "$JAVA")")")/jcmd"
[ -x "$JCMD" ] || { echo "header-cache-memory: no jcmd beside $JAVA"; exit 2; }
[ -f "$JAR" ] || { echo "header-cache-memory: no $JAR (./mvnw -DskipTests package)"; exit 2; }
command -v python3 >/dev/null || { echo "header-cache-memory: needs python3 (apt-get install python3)"; exit 2; }
mkdir -p "$OUT"
started=$(date -u +%FT%TZ)

used_kb() { # the heap in use after a full GC, in KB
  "$JCMD" "$1" GC.run >/dev/null
  sleep 1
  "$JCMD" "$1" GC.heap_info | sed -n 's/.*heap .*, used \([0-9]*\)K.*/\1/p' | head -1
}

holder=$(mktemp)
trap 'rm -f "$holder"' EXIT
cat >"$holder" <<'PY'
import socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
request = b"GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: header-cache-memory\r\nAccept: */*\r\nX-Loomylin-Probe: yes\r\n\r\n"
socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    for _ in range(2):
        s.sendall(request)
        got = b""
        while True:
            head, sep, body = got.partition(b"\r\n\r\n")
            if sep:
                length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                if length and len(body) >= length[0]: break
            chunk = s.recv(4096)
            if not chunk: raise SystemExit("connection %d closed early" % i)
            got += chunk
            if len(got) > 65536: raise SystemExit("answer too long")
    socks.append(s)
print("held", len(socks), flush=True)
sys.stdin.read()  # until the script closes our stdin
PY

echo "cache,run,connections,heap_before_kb,heap_with_kb,per_connection_kb,start,end" >"$OUT/memory.csv"
for run in $(seq 1 "$RUNS"); do
  for cache in 0 1024; do
    t0=$(date -u +%FT%TZ)
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "$JAVA" -Xms512m -Xmx512m -jar "$JAR" --pools loom --host 127.0.0.1 --port "$port" --backend-port 0 --admin-port 0 --header-cache "$cache" >/dev/null 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
      curl -sf "http://127.0.0.1:$port/wait-blocking?ms=0" >/dev/null 2>&1 && break
      sleep 0.2
    done
    before=$(used_kb "$server")
    exec 3> >(timeout 120 python3 "$holder" "$port" "$N" >"$holder.out" 2>&1)
    for _ in $(seq 1 600); do grep -q held "$holder.out" 2>/dev/null && break; sleep 0.1; done
    grep -q held "$holder.out" || { echo "header-cache-memory: the connections were not all held: $(cat "$holder.out")"; kill "$server"; exit 1; }
    with=$(used_kb "$server")
    exec 3>&-
    kill "$server"; wait "$server" 2>/dev/null || true
    rm -f "$holder.out"
    per=$(python3 -c "print(round(($with - $before) / $N, 2))")
    echo "$cache,$run,$N,$before,$with,$per,$t0,$(date -u +%FT%TZ)" | tee -a "$OUT/memory.csv"
  done
done

java_version=$("$JAVA" -version 2>&1 | head -1 | tr -d '"')
cat >"$OUT/provenance.json" <<JSON
{
  "command": "N=$N RUNS=$RUNS bash scripts/header-cache-memory.sh",
  "commit": "$(git rev-parse HEAD)",
  "dirty": $( [ -z "$(git status --porcelain -- src pom.xml)" ] && echo false || echo true ),
  "started": "$started",
  "ended": "$(date -u +%FT%TZ)",
  "machine": "$(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)",
  "jdk": "$java_version",
  "python": "$(python3 --version 2>&1)"
}
JSON
echo "header-cache-memory: $OUT/memory.csv"
