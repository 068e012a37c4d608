#!/usr/bin/env bash
# Jetty's QoSHandler in front of virtual threads, with no Loomylin code: the stand-alone reproducer
# src/test/java/loomylin/server/jetty/internal/QoSHandlerWedge.java (Jetty only; see its Javadoc), run on one or more JDKs.
#
#   scripts/qos-wedge.sh                                   the JDK the build uses, 5 runs of at most 20 rounds
#   QOS_JAVAS="/path/to/jdk21/bin/java /path/to/jdk25/bin/java" QOS_RUNS=5 scripts/qos-wedge.sh
#
# Each run is a fresh JVM: a QueuedThreadPool(8) whose requests run on virtual threads, behind a QoSHandler of 36,
# a 1 ms sleep per request; rounds of a 1 s burst of 50 keep-alive clients and a probe that must be answered
# within 3 s. A run ends at its first unanswered probe (wedged; the JVM dumps its threads, virtual ones included,
# and halts) or after QOS_ROUNDS rounds. Results in OUT (default gfx/results/qos-wedge): qos-wedge.csv (jdk, run,
# wedged, rounds, answers in the last burst), qos-wedge-threads.csv (for the first wedged run of each JDK: its
# threads counted by virtual or platform, state and the frame that says where they are), threads-<jdk>.json (that
# dump), output.txt, provenance.json. Loopback only, bounded: at most about 25 s a run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/common.sh
source "scripts/common.sh"
die() { echo "qos-wedge: $*" >&2; exit 2; }
results_command qos-wedge "QOS_JAVAS QOS_RUNS QOS_ROUNDS" "$@"

BUILD_JAVA=$(find_java qos-wedge) || exit 2
JAVAC=$(dirname "$(readlink -f "$(command -v "$BUILD_JAVA")")")/javac
[[ -x $JAVAC ]] || die "no javac beside $BUILD_JAVA; use a JDK, not a JRE"
[[ -f target/loomylin.jar ]] || die "no target/loomylin.jar; build it: ./mvnw -q -DskipTests package"
read -r -a JAVAS <<< "${QOS_JAVAS:-$BUILD_JAVA}"
RUNS=${QOS_RUNS:-5}
ROUNDS=${QOS_ROUNDS:-20}
[[ $RUNS =~ ^[0-9]+$ ]] && (( RUNS >= 1 && RUNS <= 100 )) || die "QOS_RUNS must be 1-100, got '$RUNS'"
[[ $ROUNDS =~ ^[0-9]+$ ]] && (( ROUNDS >= 1 && ROUNDS <= 200 )) || die "QOS_ROUNDS must be 1-200, got '$ROUNDS'"
for j in "${JAVAS[@]}"; do command -v "$j" >/dev/null 2>&1 || die "no java at $j"; done
JAVA=$BUILD_JAVA # provenance names the build's JDK; each row names the JDK it ran on
WORK=$(mktemp -d)
RUN=""
cleanup() { end_process "$RUN"; rm -rf "$WORK"; }
trap cleanup EXIT
# a copy of the jar, so that a build during the run cannot change the classes under a running JVM
cp target/loomylin.jar "$WORK/loomylin.jar" || die "could not copy target/loomylin.jar"
"$JAVAC" --release 21 -nowarn -cp "$WORK/loomylin.jar" -d "$WORK/classes" src/test/java/loomylin/server/jetty/internal/QoSHandlerWedge.java \
    || die "could not compile the reproducer"
results_begin

echo "jdk,run,wedged,rounds,answers_last_burst" > "$RESULTS/qos-wedge.csv"
echo "jdk,virtual,state,where,threads" > "$RESULTS/qos-wedge-threads.csv"
for j in "${JAVAS[@]}"; do
    version=$("$j" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.runtime.version/ {print $2}')
    dumped=""
    for run in $(seq 1 "$RUNS"); do
        rm -f "$WORK/dump.json"
        "$j" -Xmx512m -cp "$WORK/classes:$WORK/loomylin.jar" loomylin.server.jetty.internal.QoSHandlerWedge "$ROUNDS" "$WORK/dump.json" \
            > "$WORK/run.out" 2>&1 &
        RUN=$!
        wait "$RUN"; status=$?; RUN=""
        grep -v '^\[main\] INFO' "$WORK/run.out" | sed "s/^/$version run $run: /"
        last=$(grep -E '^(round|WEDGED)' "$WORK/run.out" | tail -1)
        rounds=$(grep -cE '^(round|WEDGED)' "$WORK/run.out")
        answers=$(sed -n 's/.*(\([0-9]*\) answers in its burst).*/\1/p; s/^round [0-9]*: \([0-9]*\) answers.*/\1/p' <<< "$last")
        case $status in
            0) wedged=no ;;
            3) wedged=yes ;;
            4) die "the reproducer on $version did not finish in time: $(tail -3 "$WORK/run.out")" ;;
            *) die "the reproducer failed on $version (exit $status): $(tail -3 "$WORK/run.out")" ;;
        esac
        echo "$version,$run,$wedged,$rounds,${answers:-0}" >> "$RESULTS/qos-wedge.csv"
        if [[ $wedged == yes && -z $dumped ]]; then
            dumped=threads-$version.json
            cp "$WORK/dump.json" "$RESULTS/$dumped"
            python3 - "$WORK/dump.json" "$version" >> "$RESULTS/qos-wedge-threads.csv" <<'PY' || die "python3 could not read the dump"
import collections, json, sys
dump = json.load(open(sys.argv[1]))["threadDump"]
counts = collections.Counter()
for container in dump["threadContainers"]:
    for t in container["threads"]:
        stack = t.get("stack", [])
        where = next((f for f in stack if "QoSHandler" in f or "ConcurrentHashMap.compute" in f or "sleep" in f.lower()), stack[0] if stack else "(no frames: waiting for a carrier)")
        where = where.split("(")[0].replace("java.base/", "")
        counts[(t.get("virtual", False), t.get("state", "?"), where)] += 1
for (virtual, state, where), n in sorted(counts.items(), key=lambda kv: -kv[1]):
    print(f"{sys.argv[2]},{'virtual' if virtual else 'platform'},{state},{where},{n}")
PY
        fi
    done
done
echo "qos-wedge: runs that wedged, by JDK:"
awk -F, 'NR > 1 { n[$1]++; if ($3 == "yes") w[$1]++ } END { for (k in n) printf "  %s: %d of %d\n", k, w[k] + 0, n[k] }' "$RESULTS/qos-wedge.csv"
results_end
