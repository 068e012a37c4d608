# Sourced by the scripts that start servers: `find_java NAME` prints the java to use; `find_jcmd NAME JAVA`
# the jcmd beside it; `free_port` prints a free port on 127.0.0.1; `await_ready LOG PID` waits (at most 60 s) until the server started as PID logs "ready;";
# `end_process PID` ends and reaps a background process of this shell (nothing for an empty PID). The results_*
# functions at the end write a measuring script's result directory.

await_ready() {
    local log=$1 pid=$2
    for _ in $(seq 1 300); do
        grep -q "ready;" "$log" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.2
    done
    grep -q "ready;" "$log"
}

# Prints the java to use: $JAVA if set (it must be 21+), else the first 21+ of $JAVA_HOME/bin/java,
# java on the PATH, and the JDKs Maven's toolchains know (~/.m2/toolchains.xml and the cache the
# build's maven-toolchains-plugin writes). Otherwise says what it tried, on stderr, and fails.
find_java() {
    local name=$1
    local candidates=() tried=() j v home f
    if [[ -n ${JAVA:-} ]]; then
        candidates=("$JAVA")
    else
        [[ -n ${JAVA_HOME:-} ]] && candidates+=("$JAVA_HOME/bin/java")
        candidates+=(java)
        for f in "$HOME/.m2/toolchains.xml" "$HOME/.m2/discovered-jdk-toolchains-cache.xml"; do
            [[ -f $f ]] || continue
            while read -r home; do candidates+=("$home/bin/java"); done < <(sed -n 's:.*<jdkHome>\(.*\)</jdkHome>.*:\1:p' "$f")
        done
    fi
    for j in "${candidates[@]}"; do
        if ! command -v "$j" >/dev/null 2>&1; then tried+=("$j (not found)"); continue; fi
        v=$("$j" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
        if [[ ${v%%.*} =~ ^[0-9]+$ ]] && (( ${v%%.*} >= 21 )); then echo "$j"; return 0; fi
        tried+=("$j (Java ${v:-?})")
    done
    echo "$name: no Java 21 or newer; tried: ${tried[*]}. Set JAVA=/path/to/jdk-21+/bin/java or JAVA_HOME" >&2
    return 2
}

# Prints the jcmd of the JDK whose java is $2, or says on stderr that there is none and fails.
find_jcmd() {
    local name=$1 jcmd
    jcmd=$(dirname "$(readlink -f "$(command -v "$2")")")/jcmd
    [[ -x $jcmd ]] || { echo "$name: no jcmd beside $2; use a JDK, not a JRE" >&2; return 2; }
    echo "$jcmd"
}

# Prints a TCP port on 127.0.0.1 that was free a moment ago (python3's socket module binds port 0).
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

end_process() {
    [[ -n ${1:-} ]] || return 0
    kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
    return 0
}

# Result files. A measuring script calls `results_command NAME "ITS_VARS" "$@"` first, before it sets any of
# them: it records the exact command (the environment variables among ITS_VARS, OUT and JAVA that are set, then
# the script and its arguments) and sets OUT, the result directory (default gfx/results/NAME, relative to the
# repository). Once WORK (its scratch directory) exists, `results_begin` starts the clock, sets RESULTS, a
# staging directory in WORK that the script writes its files into, and copies what the script prints from then
# on into RESULTS/output.txt. `results_end TOOL...` then writes RESULTS/provenance.json (how the figures were
# obtained: commit, dirty tree, date, duration, the command, machine, JDK, the jar's Jetty and Javalin, each
# TOOL's version, the machine's steal time during the run), copies every file into OUT (replacing files of the
# same name; where OUT holds an earlier result of the same script, removing that result's other files) and says
# so on stderr, so that stdout's last line stays the script's own. A script that stops early leaves OUT as it was.
results_command() {
    local name=$1 vars=$2 v
    shift 2
    RESULTS_NAME=$name
    RESULTS_ENV=()
    for v in $vars OUT JAVA; do [[ -n ${!v+set} ]] && RESULTS_ENV+=("$v=${!v}"); done
    RESULTS_COMMAND=$(printf '%q ' "${RESULTS_ENV[@]}" "scripts/$name.sh" "$@")
    RESULTS_COMMAND=${RESULTS_COMMAND% }
    OUT=${OUT:-gfx/results/$name}
    mkdir -p "$OUT" 2>/dev/null && [[ -w $OUT ]] || { echo "$name: cannot write to the result directory OUT=$OUT" >&2; exit 2; }
}

results_begin() {
    RESULTS=$WORK/results
    mkdir -p "$RESULTS" || exit 2
    RESULTS_STARTED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    RESULTS_T0=$SECONDS
    RESULTS_CPU0=$(cpu_counters)
    exec {RESULTS_STDOUT}>&1 > >(tee "$RESULTS/output.txt")
    RESULTS_TEE=$!
}

# "STEAL TOTAL" from /proc/stat's cpu line (jiffies; empty where there is no /proc/stat)
cpu_counters() {
    awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t; exit }' /proc/stat 2>/dev/null
}

# a JSON string of $1
json_string() {
    local s
    s=$(printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037')
    s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}; s=${s//$'\r'/\\r}
    printf '"%s"' "$s"
}

# the version of a dependency inside target/loomylin.jar: $1 group, $2 artifact
jar_version() {
    unzip -p target/loomylin.jar "META-INF/maven/$1/$2/pom.properties" 2>/dev/null | sed -n 's/^version=//p'
}

# one line naming a tool's version and where it is
tool_version() {
    local tool=$1 path v=""
    path=$(command -v "$tool") || { echo "not found"; return; }
    case $(basename "$tool") in
        hey) v=$(dpkg-query -W -f='${Version}' hey 2>/dev/null); [[ -n $v ]] && v="$v (Debian package)" ;;
        wrk) v=$("$path" -v 2>&1 | head -1) ;;
        oha) v=$("$path" --version 2>&1 | head -1) ;;
        curl) v=$("$path" --version 2>&1 | head -1 | cut -d' ' -f1-2) ;;
        *) v=$("$path" --version 2>&1 | head -1) ;;
    esac
    echo "${v:-unknown} ($path)"
}

results_end() {
    exec >&"$RESULTS_STDOUT" {RESULTS_STDOUT}>&-
    wait "$RESULTS_TEE" 2>/dev/null
    local f commit dirty steal="null" cpu1 s0 t0 s1 t1 virt container tool sep
    commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
    # the results themselves do not make the tree dirty
    if [[ -n $(git status --porcelain --untracked-files=no -- . ':!gfx/results' 2>/dev/null) ]]; then dirty=true; else dirty=false; fi
    cpu1=$(cpu_counters)
    read -r s0 t0 <<< "$RESULTS_CPU0"
    read -r s1 t1 <<< "$cpu1"
    [[ -n ${t1:-} && -n ${t0:-} ]] && (( t1 > t0 )) && steal=$(awk -v s=$(( s1 - s0 )) -v t=$(( t1 - t0 )) 'BEGIN { printf "%.2f", 100 * s / t }')
    virt=$(systemd-detect-virt --vm 2>/dev/null); container=$(systemd-detect-virt --container 2>/dev/null)
    [[ -z $virt ]] && { grep -qw hypervisor /proc/cpuinfo 2>/dev/null && virt="yes (hypervisor flag)" || virt=none; }
    {
        echo "{"
        echo "  \"script\": $(json_string "scripts/$RESULTS_NAME.sh"),"
        echo "  \"commit\": $(json_string "$commit"),"
        echo "  \"dirty\": $dirty,"
        echo "  \"date\": $(json_string "$RESULTS_STARTED"),"
        echo "  \"durationSeconds\": $(( SECONDS - RESULTS_T0 )),"
        echo "  \"command\": $(json_string "$RESULTS_COMMAND"),"
        printf '  "environment": {'
        sep=""
        for f in "${RESULTS_ENV[@]}"; do printf '%s%s: %s' "$sep" "$(json_string "${f%%=*}")" "$(json_string "${f#*=}")"; sep=", "; done
        echo "},"
        echo "  \"machine\": {"
        echo "    \"cpu\": $(json_string "$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)"),"
        echo "    \"cores\": $(nproc),"
        echo "    \"memoryKb\": $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0),"
        echo "    \"os\": $(json_string "$(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-$(uname -s)}")"),"
        echo "    \"kernel\": $(json_string "$(uname -r) $(uname -m)"),"
        echo "    \"virtualisation\": $(json_string "$virt"),"
        echo "    \"container\": $(json_string "${container:-unknown}")"
        echo "  },"
        echo "  \"jdk\": $(json_string "$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.vm.name/ {n = $2} /java.runtime.version/ {r = $2} /java.vendor = / {v = $2} END {print n " " r " (" v ")"}')"),"
        echo "  \"jar\": {\"jetty\": $(json_string "$(jar_version org.eclipse.jetty jetty-server)"), \"javalin\": $(json_string "$(jar_version io.javalin javalin)"), \"built\": $(json_string "$(date -u -r target/loomylin.jar +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)")},"
        printf '  "tools": {'
        sep=""
        for tool in "$@"; do printf '%s%s: %s' "$sep" "$(json_string "$(basename "$tool")")" "$(json_string "$(tool_version "$tool")")"; sep=", "; done
        echo "},"
        echo "  \"stealPct\": $steal"
        echo "}"
    } > "$RESULTS/provenance.json"
    # a directory this script wrote before holds only its files: the ones this run did not write go
    if grep -q "\"script\": $(json_string "scripts/$RESULTS_NAME.sh")" "$OUT/provenance.json" 2>/dev/null; then
        for f in "$OUT"/*; do [[ -f $f && ! -e $RESULTS/$(basename "$f") ]] && rm -f "$f"; done
    fi
    for f in "$RESULTS"/*; do cp "$f" "$OUT/" || { echo "$RESULTS_NAME: could not write $OUT/$(basename "$f")" >&2; return 2; }; done
    echo "$RESULTS_NAME: results in $OUT ($(cd "$RESULTS" && ls | tr '\n' ' ' | sed 's/ $//'))" >&2
}
