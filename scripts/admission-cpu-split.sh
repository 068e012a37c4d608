#!/usr/bin/env bash
# Where the two cores go when clients are refused (docs/results/bound-and-admission.md, --preset admission): the admission preset on
# POOLS with LOADS (default: the closed loop that re-sends every 503 at once, and the one that honours Retry-After),
# one run each into a scratch directory, while every second the CPU of the server JVM, of the bench's JVM (which
# is the Retry-After client) and of oha is read from /proc. Per run, the cores each used over the steady part of
# its window, over the samples' own timestamps (the samples while oha or the Retry-After clients ran, less the first SKIP and the last 2 seconds). One run per cell: a
# sketch. Writes $OUT/cpu-split.csv (one row per run), samples.csv (every sample), output.txt and provenance.json;
# every process it starts is ended by its id.
#   bash scripts/admission-cpu-split.sh   # POOLS=loom,qtp:200 LOADS=closed,retry-after SKIP=3 OUT=gfx/results/admission-cpu-split
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
results_command admission-cpu-split "POOLS LOADS SKIP" "$@"
POOLS=${POOLS:-loom,qtp:200}
LOADS=${LOADS:-closed,retry-after}
SKIP=${SKIP:-3}
JAVA=$(find_java admission-cpu-split) || exit 2
command -v oha >/dev/null || { echo "admission-cpu-split: needs oha (cargo install oha --version 1.16.0 --locked)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "admission-cpu-split: needs wrk (apt-get install wrk)" >&2; exit 2; }
[[ -f target/loomylin.jar ]] || { echo "admission-cpu-split: no target/loomylin.jar (./mvnw -DskipTests package)" >&2; exit 2; }
WORK=$(mktemp -d)
bench=""
trap 'end_process "$bench"; rm -rf "$WORK"' EXIT
results_begin
TICKS=$(getconf CLK_TCK)

# utime + stime of a process, in ticks (empty when it is gone)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || true; }

"$JAVA" -jar target/loomylin.jar bench --preset admission --pools "$POOLS" --loads "$LOADS" --repeat 1 --out "$WORK/bench" >"$WORK/bench.txt" 2>&1 &
bench=$!
echo "t_s,server_pid,load_running,server_ticks,bench_ticks,oha_ticks" >"$RESULTS/samples.csv"
t0=$(date +%s.%N)
while kill -0 "$bench" 2>/dev/null; do
    server=$(pgrep -P "$bench" -f 'loomylin.Main' | head -1 || true)
    oha=$(pgrep -P "$bench" -x oha | head -1 || true)
    # the load runs while oha does (closed), or while the bench's JVM holds the Retry-After clients' connections (retry-after)
    running=0
    if [[ -n $oha ]] || (( $(ls "/proc/$bench/fd" 2>/dev/null | wc -l) > 1000 )); then running=1; fi
    echo "$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.3f", a - b }'),${server:-},$running,$( [[ -n $server ]] && ticks "$server"),$(ticks "$bench"),$( [[ -n $oha ]] && ticks "$oha")" >>"$RESULTS/samples.csv"
    sleep 1
done
bench_status=0; wait "$bench" || bench_status=$?
bench=""
cat "$WORK/bench.txt"
(( bench_status == 0 )) || { echo "admission-cpu-split: the bench failed ($bench_status)" >&2; exit 1; }
cp "$WORK/bench/admission.csv" "$RESULTS/admission.csv"

# per server (one per run, in order): cores over the steady samples, each the change since the sample before
awk -F, -v skip="$SKIP" -v hz="$TICKS" -v cores="$(nproc)" -v runs="$(grep -o '^bench: [0-9]*/[0-9]* repeat 1 [^ ]* [a-z-]* [0-9]*' "$WORK/bench.txt" | awk '{ printf "%s%s %s %s", sep, $5, $6, $7; sep = ";" }')" '
    BEGIN { n = split(runs, label, ";"); print "pool,load,steady_samples,steady_s,server_cores,bench_jvm_cores,oha_cores,machine_share" }
    NR == 1 { next }
    {
        if ($2 != "" && $2 != pid) { flush(); pid = $2; order++; seen = 0; kept = 0; s = b = o = 0; delete ks; delete kb; delete ko; delete kt }
        if ($2 == "" || $3 != 1) { pb = $5; po = $6; ps = $4; pt = $1; seen = 0; next }
        seen++
        if (seen > skip && ps != "" && $4 != "") { k = ++kept; ks[k] = $4 - ps; kb[k] = $5 - pb; ko[k] = ($6 != "" && po != "" ? $6 - po : 0); kt[k] = $1 - pt }
        ps = $4; pb = $5; po = $6; pt = $1
    }
    END { flush() }
    function flush(   i, m, t) {
        if (!order || kept <= 2) return
        m = kept - 2
        t = 0
        for (i = 1; i <= m; i++) { s += ks[i]; b += kb[i]; o += ko[i]; t += kt[i] }
        split(label[order], l, " ")
        printf "%s,%s %s,%d,%.1f,%.2f,%.2f,%.2f,%.2f\n", l[1], l[2], l[3], m, t, s / hz / t, b / hz / t, o / hz / t, (s + b + o) / hz / t / cores
    }' "$RESULTS/samples.csv" >"$RESULTS/cpu-split.csv"
echo "admission-cpu-split: cores per run (server JVM, the bench's JVM, oha), over the steady part of each window:"
column -s, -t <"$RESULTS/cpu-split.csv"
results_end oha wrk
