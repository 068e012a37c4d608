#!/usr/bin/env bash
# The flake record: runs `./mvnw -B test` FLAKE_TESTS times and `./mvnw -B verify` FLAKE_VERIFIES times, each
# in a fresh clone of one commit (a new temporary directory: no target/, no state left by an earlier run), one
# after the other, and writes a row per run to flakes.csv: its command, start, end, seconds, exit status, the
# tests run, failed, in error and skipped (summed over surefire's and failsafe's reports) and the failing tests
# (Class.method, ';'-separated). A failing run's last 200 lines of output go to run-N.log and the thread dumps
# its stops left (loomylin.testing.Stops, target/stop-overruns) to run-N-*.json. provenance.json says how.
#
#   scripts/flake-record.sh                                    # 10 x test, 3 x verify of HEAD
#   FLAKE_COMMIT=8bbaffb scripts/flake-record.sh               # another commit
#   FLAKE_TESTS=1 FLAKE_VERIFIES=0 FLAKE_MVN_ARGS="-Dtest=JsonTest" OUT=/tmp/try scripts/flake-record.sh
#
# FLAKE_MVN_ARGS are added to every Maven command (a -Dtest filter to try the script on a few tests). OUT is the
# result directory (default gfx/results/flakes). Run it on an otherwise quiet machine: its figures are the
# suite's, not a neighbour's. Exit status 0 when it recorded every run, whatever the runs' own statuses.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/common.sh

user_out=${OUT-}
results_command flake-record "FLAKE_TESTS FLAKE_VERIFIES FLAKE_MVN_ARGS FLAKE_COMMIT" "$@"
if [[ -z $user_out ]]; then
    rmdir gfx/results/flake-record 2>/dev/null
    OUT=gfx/results/flakes
    mkdir -p "$OUT" || exit 2
fi
OUT=$(cd "$OUT" && pwd) || exit 2
TESTS=${FLAKE_TESTS:-10}
VERIFIES=${FLAKE_VERIFIES:-3}
[[ $TESTS =~ ^[0-9]+$ && $VERIFIES =~ ^[0-9]+$ ]] || { echo "flake-record: FLAKE_TESTS and FLAKE_VERIFIES must be whole numbers" >&2; exit 2; }
(( $# == 0 )) || { echo "flake-record: no arguments; set FLAKE_TESTS, FLAKE_VERIFIES, FLAKE_MVN_ARGS, FLAKE_COMMIT, OUT" >&2; exit 2; }
COMMIT=$(git rev-parse --verify "${FLAKE_COMMIT:-HEAD}^{commit}") || { echo "flake-record: no commit ${FLAKE_COMMIT:-HEAD}" >&2; exit 2; }
read -r -a MVN_ARGS <<< "${FLAKE_MVN_ARGS:-}"
JAVA=$(find_java flake-record) || exit 2
SOURCE=$(git rev-parse --show-toplevel)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flake-record.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
results_begin

# "TESTS FAILURES ERRORS SKIPPED" summed over the test-suite reports in $1's surefire and failsafe directories
counts() {
    cat "$1"/target/surefire-reports/TEST-*.xml "$1"/target/failsafe-reports/TEST-*.xml 2>/dev/null \
        | grep -o '<testsuite [^>]*>' \
        | awk '{ for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) { gsub(/[">]/, "", kv[2]); v[kv[1]] += kv[2] } }
               END { printf "%d %d %d %d\n", v["tests"], v["failures"], v["errors"], v["skipped"] }'
}

# the failing tests of $1's reports, "Class.method" separated by ';'
failing() {
    cat "$1"/target/surefire-reports/TEST-*.xml "$1"/target/failsafe-reports/TEST-*.xml 2>/dev/null \
        | awk '/<testcase / { name = ""; cls = ""
                              if (match($0, / name="[^"]*"/)) name = substr($0, RSTART + 7, RLENGTH - 8)
                              if (match($0, / classname="[^"]*"/)) cls = substr($0, RSTART + 12, RLENGTH - 13)
                              sub(/.*\./, "", cls) }
               /<(failure|error)[ >]/ && name != "" { if (!seen[cls "." name]++) { printf "%s%s.%s", sep, cls, name; sep = ";" } }'
}

echo "run,command,start,end,seconds,exit,tests,failures,errors,skipped,failing" > "$RESULTS/flakes.csv"
plan=()
for _ in $(seq 1 "$TESTS"); do plan+=(test); done
for _ in $(seq 1 "$VERIFIES"); do plan+=(verify); done
echo "flake-record: ${#plan[@]} runs of $COMMIT ($TESTS x test, $VERIFIES x verify${FLAKE_MVN_ARGS:+, $FLAKE_MVN_ARGS})"
run=0 green=0
for goal in "${plan[@]}"; do
    run=$((run + 1))
    clone=$WORK/clone-$run
    if ! git clone -q --no-checkout "$SOURCE" "$clone" || ! git -C "$clone" checkout -q --detach "$COMMIT"; then
        echo "flake-record: could not clone $COMMIT into $clone" >&2
        exit 1
    fi
    command="./mvnw -B $goal${FLAKE_MVN_ARGS:+ $FLAKE_MVN_ARGS}"
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ) t0=$SECONDS
    (cd "$clone" && ./mvnw -B "$goal" "${MVN_ARGS[@]}") > "$WORK/run-$run.log" 2>&1
    status=$?
    end=$(date -u +%Y-%m-%dT%H:%M:%SZ) seconds=$((SECONDS - t0))
    read -r tests failures errors skipped <<< "$(counts "$clone")"
    failed=$(failing "$clone")
    echo "$run,\"$command\",$start,$end,$seconds,$status,$tests,$failures,$errors,$skipped,\"$failed\"" >> "$RESULTS/flakes.csv"
    echo "run $run: $command: exit $status after $seconds s; $tests tests, $failures failures, $errors errors, $skipped skipped${failed:+; failing: $failed}"
    if (( status != 0 )); then
        tail -n 200 "$WORK/run-$run.log" > "$RESULTS/run-$run.log"
        for dump in "$clone"/target/stop-overruns/*.json; do
            [[ -f $dump ]] && cp "$dump" "$RESULTS/run-$run-$(basename "$dump")"
        done
    fi
    (( status == 0 )) && green=$((green + 1))
    (( run < ${#plan[@]} )) && rm -rf "$clone"
done
echo "flake-record: $green of $run runs green"
# provenance from the last clone: its commit, and the jar its verify built (the working tree's may be another)
[[ -d ${clone:-} ]] && cd "$clone"
results_end git ./mvnw
