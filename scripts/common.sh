# Sourced by the scripts that start servers: `find_java NAME` prints the java to use; `find_jcmd NAME JAVA`
# the jcmd beside it; `await_ready LOG PID` waits (at most 60 s) until the server started as PID logs "ready;";
# `end_process PID` ends and reaps a background process of this shell (nothing for an empty PID).

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

end_process() {
    [[ -n ${1:-} ]] || return 0
    kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
    return 0
}
