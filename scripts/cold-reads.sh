#!/usr/bin/env bash
# What file reads that miss the page cache do to virtual threads' carriers, loom versus qtp:32. On JDK 23+
# a virtual thread in a buffered FileChannel read holds its carrier for the whole system call and the
# scheduler adds no carrier to make up for it (JDK-8329593). Loopback only, bounded: about 10 s per pool to
# start and stop plus a few seconds per burst, so about a minute with COLD_ROUNDS=5 and the default 64 MB.
#
#   scripts/cold-reads.sh                 loom and qtp:32
#   scripts/cold-reads.sh loom            only these pools
#   JAVA=/path/to/jdk-25/bin/java COLD_MB=64 COLD_READERS=8 COLD_ROUNDS=3 scripts/cold-reads.sh
#
# For each pool a fresh server JVM (--pools KIND, a COLD_MB MB data file under target/cold-reads, on disk).
# Each round, cold then warm: "cold" first drops the file's pages from the page cache with
# `dd iflag=nocache count=0` (GNU dd's posix_fadvise(POSIX_FADV_DONTNEED) on the whole file) and prints
# fincore's resident-page count to show it worked; "warm" leaves them cached. Then COLD_READERS clients at
# once each GET /mixed?cpu=0&file=<whole file>, while a probe asks GET /pool every 20 ms on the same
# server. /pool is answered by the pool under test, so its latency is how long an unrelated request waits;
# its body gives the virtual-thread scheduler's figures (vtPoolSize, vtMounted, vtQueued).
# Prints one line per round: burst time, probes, probe latency p50/max, max vtMounted/vtQueued/vtPoolSize.
# Results in OUT (default gfx/results/cold-reads): cold-reads.csv (those lines, with the pool, the round and the
# resident pages before it), output.txt (what it printed), provenance.json.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/common.sh
source "scripts/common.sh"
die() { echo "cold-reads: $*" >&2; exit 2; }
results_command cold-reads "COLD_MB COLD_READERS COLD_ROUNDS COLD_PORT" "$@"

JAVA=$(find_java cold-reads) || exit 2
[[ -f target/loomylin.jar ]] || die "no target/loomylin.jar; build it: ./mvnw -q -DskipTests package"
for tool in curl dd fincore; do command -v $tool >/dev/null || die "needs $tool (apt-get install curl coreutils util-linux)"; done
MB=${COLD_MB:-64}
READERS=${COLD_READERS:-8}
ROUNDS=${COLD_ROUNDS:-3}
PORT=${COLD_PORT:-7470}
POOLS=("$@")
(( ${#POOLS[@]} )) || POOLS=(loom qtp:32)
DIR=target/cold-reads
mkdir -p "$DIR"
WORK=$(mktemp -d)
SERVER=""
cleanup() { end_process "$SERVER"; rm -rf "$WORK"; }
trap cleanup EXIT

# one round: $1 pool, $2 round, $3 label (cold or warm), $4 resident pages before; prints the summary line and
# adds it to the CSV
round() {
    local pool=$1 n=$2 label=$3 pages=$4 base="http://127.0.0.1:$PORT" pids=() start end
    : > "$WORK/probe"
    start=$(date +%s%N)
    for _ in $(seq 1 "$READERS"); do
        curl -s -o /dev/null --max-time 60 "$base/mixed?cpu=0&file=$BYTES" & pids+=($!)
    done
    while kill -0 "${pids[0]}" 2>/dev/null || jobs -r | grep -q curl; do
        curl -s --max-time 10 -w ' %{time_total}\n' "$base/pool" >> "$WORK/probe"
        sleep 0.02
    done
    wait "${pids[@]}"
    end=$(date +%s%N)
    local probes p50 max mounted queued poolsize
    read -r probes p50 max <<< "$(awk '{ printf "%.1f\n", $NF * 1000 }' "$WORK/probe" | sort -n \
        | awk '{ v[NR] = $1 } END { printf "%d %.1f %.1f\n", NR, v[int((NR + 1) / 2)], v[NR] }')"
    read -r mounted queued poolsize <<< "$(awk '
        function most(name,   v) { if (match($0, "\"" name "\":[0-9-]+")) { v = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3) + 0; if (v > max[name]) max[name] = v } }
        { most("vtMounted"); most("vtQueued"); most("vtPoolSize") }
        END { printf "%d %d %d\n", max["vtMounted"], max["vtQueued"], max["vtPoolSize"] }' "$WORK/probe")"
    printf "  %-5s burst %5d ms  probes %3d  probe p50 %6.1f ms  max %6.1f ms  max vtMounted %d vtQueued %d vtPoolSize %d\n" \
        "$label" $(( (end - start) / 1000000 )) "$probes" "$p50" "$max" "$mounted" "$queued" "$poolsize"
    echo "$pool,$n,$label,$READERS,$BYTES,$pages,$(( (end - start) / 1000000 )),$probes,$p50,$max,$mounted,$queued,$poolsize" >> "$CSV"
}

results_begin
CSV=$RESULTS/cold-reads.csv
echo "pool,round,cache,readers,file_bytes,resident_pages_before,burst_ms,probes,probe_p50_ms,probe_max_ms,max_vt_mounted,max_vt_queued,max_vt_pool_size" > "$CSV"
for kind in "${POOLS[@]}"; do
    log="$WORK/server.log"
    "$JAVA" -jar target/loomylin.jar --pools "$kind" --port "$PORT" --backend-port 0 --data-dir "$DIR" \
        --data-file-bytes $(( MB * 1024 * 1024 )) > "$log" 2>&1 &
    SERVER=$!
    await_ready "$log" "$SERVER" || die "server on $kind did not start: $(tail -3 "$log")"
    FILE=$(sed -n 's/.*data file \(.*\) (\([0-9]*\) bytes).*/\1/p' "$log")
    BYTES=$(sed -n 's/.*data file .* (\([0-9]*\) bytes).*/\1/p' "$log")
    echo "$kind: $("$JAVA" -version 2>&1 | head -1), data file $FILE ($BYTES bytes), $READERS readers, $(nproc) cores"
    curl -s -o /dev/null "http://127.0.0.1:$PORT/mixed?cpu=0&file=1000" # first request: class loading out of the way
    for r in $(seq 1 "$ROUNDS"); do
        dd if="$FILE" iflag=nocache count=0 status=none
        pages=$(fincore --noheadings --output PAGES "$FILE" | tr -d ' ')
        echo "  round $r: resident pages before cold: $pages"
        round "$kind" "$r" cold "$pages"
        pages=$(fincore --noheadings --output PAGES "$FILE" | tr -d ' ')
        echo "  round $r: resident pages before warm: $pages"
        round "$kind" "$r" warm "$pages"
    done
    kill "$SERVER"; wait "$SERVER" 2>/dev/null; SERVER=""
    if [[ -e $FILE ]]; then echo "  data file still there after SIGTERM!"; exit 1; fi
done
results_end curl dd fincore
exit 0
