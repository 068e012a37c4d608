# Sourced by scripts/overload.sh and scripts/soak.sh: `find_java NAME` prints the java to use;
# `await_ready LOG PID` waits (at most 60 s) until the server started as PID logs "ready;".

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

