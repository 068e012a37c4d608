#!/usr/bin/env bash
# The stop bound on a loaded machine, as issue 29 asks: runs StopBoundTest's loaded test (a load generator keeps
# twice as many CPU-bound requests as cores running on another server JVM while every pool kind and twin is
# stopped with a request in flight) with STOP_REPEATS repeats of its 12 stops (default 5: 60 stops), and writes
# gfx/results/stop-bound-load/ (or OUT): result.txt (the test's verdict: how many stops, how many broke the
# bound), loadavg.csv (the 1-minute load average every 5 s during the run), failsafe's report of the test, any
# stop dump (target/stop-overruns) and provenance.json. Exit status: Maven's.
#
#   scripts/stop-bound-load.sh
#   STOP_REPEATS=1 OUT=/tmp/try scripts/stop-bound-load.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/common.sh

results_command stop-bound-load "STOP_REPEATS" "$@"
OUT=$(cd "$OUT" && pwd) || exit 2
REPEATS=${STOP_REPEATS:-5}
[[ $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "stop-bound-load: STOP_REPEATS must be a whole number from 1" >&2; exit 2; }
(( $# == 0 )) || { echo "stop-bound-load: no arguments; set STOP_REPEATS, OUT" >&2; exit 2; }
JAVA=$(find_java stop-bound-load) || exit 2
TEST=StopBoundTest#everyPoolKindAndTwinStopsWithinTheBoundOnALoadedMachine

WORK=$(mktemp -d "${TMPDIR:-/tmp}/stop-bound-load.XXXXXX") || exit 2
sampler=""
trap 'end_process "$sampler"; rm -rf "$WORK"' EXIT
results_begin

echo "time,load1" > "$RESULTS/loadavg.csv"
( while :; do echo "$(date -u +%H:%M:%S),$(cut -d' ' -f1 /proc/loadavg)" >> "$RESULTS/loadavg.csv"; sleep 5; done ) &
sampler=$!
rm -rf target/stop-overruns
echo "stop-bound-load: $((REPEATS * 12)) stops ($REPEATS x 6 pool kinds x 2 twins), 2 at once, on $(nproc) cores loaded at twice that"
./mvnw -B verify -DskipUTs -Dit.excludedGroups=none -Dit.test="$TEST" -Dloomylin.loadedStopRepeats="$REPEATS" > "$WORK/maven.log" 2>&1
status=$?
end_process "$sampler"; sampler=""
report=target/failsafe-reports/loomylin.lab.reliability.StopBoundTest.txt
[[ -f $report ]] && cp "$report" "$RESULTS/"
for dump in target/stop-overruns/*.json; do [[ -f $dump ]] && cp "$dump" "$RESULTS/"; done
broke=$(grep -o '[0-9]* of [0-9]* stops broke the promise' "$report" 2>/dev/null | head -1)
if (( status == 0 )); then
    verdict="$((REPEATS * 12)) of $((REPEATS * 12)) stops within the bound"
elif [[ -n $broke ]]; then
    verdict=$broke
else
    verdict="Maven failed (exit $status) without a verdict; its last lines:"$'\n'"$(tail -n 30 "$WORK/maven.log")"
fi
echo "$verdict" | tee "$RESULTS/result.txt"
echo "load average (1 min) during the run: $(awk -F, 'NR > 1 { if (min == "" || $2 < min) min = $2; if ($2 > max) max = $2 } END { print min " to " max }' "$RESULTS/loadavg.csv")"
results_end ./mvnw
exit $status
