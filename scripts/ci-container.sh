#!/usr/bin/env bash
# CI step: the container smoke test (scripts/container-smoke.sh), where the machine can run it.
#
#   CI=true scripts/ci-container.sh
#
# - CI=true, root, apt-get, and ../shared/container/stand-in-base-images.sh beside the repository (the CI
#   machines clone shared/ next to it): that script installs podman and builds local stand-ins for the
#   eclipse-temurin:25-jdk/jre base images (no registry pull needed), then the smoke test runs on podman
#   and must not skip.
# - CI=true, no stand-in script, but docker or podman usable: the smoke test runs on it with the real base
#   images and must not skip.
# - Anything else (CI not true, no engine): one "SKIP: <reason>" line, exit 0. The stand-in script
#   installs packages and writes /etc/containers/containers.conf, so it never runs outside CI.
#
# Exit status: 0 passed or skipped, non-zero when set-up or the smoke test failed.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
stand_in=../shared/container/stand-in-base-images.sh
setup_timeout=${CI_CONTAINER_SETUP_TIMEOUT:-1800}

skip() {
  echo "SKIP: ci-container: $*"
  exit 0
}

[[ "${CI:-}" == true ]] || skip "CI is not 'true'; to run the container smoke test here: scripts/container-smoke.sh"

engine_usable() { command -v "$1" >/dev/null && timeout 30 "$1" info >/dev/null 2>&1; }

if [[ -f "$stand_in" ]] && command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
  echo "ci-container: setting up podman and the stand-in base images ($stand_in)"
  t0=$(date +%s)
  timeout -k 30 "$setup_timeout" bash "$stand_in" \
    || { echo "ci-container: FAIL: $stand_in failed or took over $setup_timeout s"; exit 1; }
  echo "ci-container: set-up took $(($(date +%s) - t0)) s"
  export CONTAINER_ENGINE=podman # the stand-in images live in podman's storage
elif [[ -f "$stand_in" ]]; then
  engine_usable docker || engine_usable podman \
    || skip "$stand_in is here but this is not a root shell with apt-get, and neither docker nor podman is usable"
else
  engine_usable docker || engine_usable podman \
    || skip "neither docker nor podman is usable and there is no $stand_in to set podman up"
fi

t0=$(date +%s)
CONTAINER_SMOKE_REQUIRE_ENGINE=1 scripts/container-smoke.sh
status=$?
echo "ci-container: smoke test (build included) took $(($(date +%s) - t0)) s, exit status $status"
exit "$status"
