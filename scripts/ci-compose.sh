#!/usr/bin/env bash
# Compose and Kubernetes manifests, tested on podman: compose.yaml with podman-compose (backend, servers, then a
# small `bench --target` from the bench service), then deploy/k8s/ with `podman kube play`.
#
#   scripts/ci-compose.sh            (CI: CI=true scripts/ci-compose.sh)
#
# - Needs podman, podman-compose, curl. Outside CI, where one is missing or `podman info` fails, it prints one
#   "SKIP: <reason>" line and exits 0. Under CI=true it never skips: as root with apt-get it installs what is
#   missing and, where ../shared/container/stand-in-base-images.sh exists (a machine without a registry), sets
#   up podman and the stand-in base images with it first; anything still missing is a failure.
# - Images: builds `loomylin` and `loomylin-bench` (the Dockerfile's bench stage) with the same arguments as
#   scripts/container-smoke.sh, so after the smoke test the build is all cache hits.
# - podman kube play (podman 4.3) runs Deployments but skips Services: the test adds a hostPort to each port
#   and points the servers at the backend pod's address instead of the Service name `backend`.
# - Host ports: five in a row (7000-7002, 7003, 7004 inside), the first free block of 27100, 37100, 47100
#   (CI_COMPOSE_PORT picks one). Every step is bounded; everything started is removed on exit.
#
# Last line: "ci-compose: N passed, M failed"; exit status 0 when nothing failed (or skipped).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
stand_in=${STAND_IN_SCRIPT:-../shared/container/stand-in-base-images.sh}   # the CI machines clone shared/ beside the repository
project=loomylin-ci-$$
host=127.0.0.1
ready_timeout=${CI_COMPOSE_READY_TIMEOUT:-120}
build_timeout=${CI_COMPOSE_BUILD_TIMEOUT:-1800}

passed=0 failed=0
work="" compose_up=0 kube_files=()

say() { printf 'ci-compose: %s\n' "$*"; }
pass() { passed=$((passed + 1)); printf '  ok   %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf '  FAIL %s\n' "$*"; }
tally() { say "$passed passed, $failed failed"; }
skip() {
  if [[ "${CI:-}" == true ]]; then echo "ci-compose: FAIL: $* (CI=true: no skipping)"; say "0 passed, 1 failed"; exit 1; fi
  echo "SKIP: ci-compose: $*"
  exit 0
}
now_ms() { date +%s%3N; }

compose() {
  timeout "${COMPOSE_TIMEOUT:-300}" env LOOMYLIN_PUBLISH_7000="$base" LOOMYLIN_PUBLISH_7001=$((base + 1)) \
    LOOMYLIN_PUBLISH_7002=$((base + 2)) LOOMYLIN_PUBLISH_7003=$((base + 3)) LOOMYLIN_PUBLISH_7004=$((base + 4)) \
    LOOMYLIN_BENCH_OUT="$work/results" podman-compose -p "$project" -f compose.yaml "$@"
}

finish() {
  local status=$?
  if ((compose_up)); then compose down >"$work/down.log" 2>&1; fi
  for f in "${kube_files[@]}"; do timeout 120 podman kube play --down "$f" >/dev/null 2>&1; done
  [[ -n "$work" ]] && rm -rf "$work"
  exit "$status"
}

# ---- what this machine has ---------------------------------------------------------------------------------
if [[ "${CI:-}" == true && $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  if [[ -f "$stand_in" ]]; then
    say "setting up podman and the stand-in base images ($stand_in)"
    timeout -k 30 1800 bash "$stand_in" >/dev/null || { echo "ci-compose: FAIL: $stand_in failed"; say "0 passed, 1 failed"; exit 1; }
  fi
  missing=()
  for tool in podman podman-compose curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    timeout 600 apt-get update -qq >/dev/null 2>&1
    timeout 600 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1
  fi
fi
for tool in podman podman-compose curl timeout; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install podman podman-compose curl)"
done
timeout 30 podman info >/dev/null 2>&1 || skip "'podman info' fails (no usable podman here)"

work=$(mktemp -d "${TMPDIR:-/tmp}/ci-compose.XXXXXX") || exit 1
mkdir -p "$work/results" && chmod 777 "$work/results"
trap finish EXIT
trap 'exit 130' INT TERM

port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/$host/$1" 2>/dev/null; }
block_free() { local p; for ((p = $1; p < $1 + 5; p++)); do port_busy "$p" && return 1; done; return 0; }
base=""
for candidate in ${CI_COMPOSE_PORT:-27100 37100 47100 57100}; do
  if block_free "$candidate"; then base=$candidate; break; fi
done
[[ -n "$base" ]] || { fail "no block of five free host ports (set CI_COMPOSE_PORT)"; tally; exit 1; }
say "podman $(podman --version | awk '{print $3}'), podman-compose $(podman-compose --version 2>/dev/null | grep -o 'composer version *[0-9.]*' | grep -o '[0-9.]*$'), host ports $base-$((base + 4))"

# ---- helpers -----------------------------------------------------------------------------------------------
# expect NAME URL STATUS BODY-PATTERN [curl args...]
expect() {
  local name=$1 url=$2 want=$3 pattern=$4 code body
  code=$(curl -sS -o "$work/body" -w '%{http_code}' --connect-timeout 3 -m 15 "${@:5}" "$url" 2>"$work/curl.err") || code=000
  body=$(head -c 100000 "$work/body" 2>/dev/null)
  if [[ "$code" == "$want" && "$body" =~ $pattern ]]; then
    pass "$name"
  else
    fail "$name: GET $url answered $code '$(head -c 160 <<<"$body" | tr '\n' ' ')$(tail -1 "$work/curl.err" 2>/dev/null)', expected $want and /$pattern/"
  fi
}

# wait_ready WHAT URL STATUS...: polls each until it answers its status; false when the time is up.
wait_ready() {
  local what=$1 t0 deadline target url want code
  shift
  t0=$(now_ms); deadline=$((t0 + ready_timeout * 1000))
  for target in "$@"; do
    url=${target% *} want=${target##* }
    while :; do
      code=$(curl -s -o /dev/null -w '%{http_code}' --connect-timeout 1 -m 3 "$url" 2>/dev/null) || true
      [[ "$code" == "$want" ]] && break
      (($(now_ms) < deadline)) || { fail "$what not ready within $ready_timeout s: $url answered '${code:-nothing}', expected $want"; return 1; }
      sleep 0.5
    done
  done
  pass "$what ready in $(($(now_ms) - t0)) ms"
}

# every_route LABEL: every route of the three servers on host ports base..base+2, the backend through them,
# and /metrics on base+4 counting what they answered.
every_route() {
  local label=$1 kinds=(qtp:4 qtp:32 loom) i u
  for i in 0 1 2; do
    u="http://$host:$((base + i))"
    expect "$label :$((base + i)) /pool is ${kinds[i]}" "$u/pool" 200 "\"kind\":\"${kinds[i]}\""
    expect "$label :$((base + i)) /computational" "$u/computational?iterations=1000" 200 '^Hello, World$'
    expect "$label :$((base + i)) /wait-blocking" "$u/wait-blocking?ms=20" 200 '^Hello, World$'
    expect "$label :$((base + i)) /wait-async" "$u/wait-async?ms=20" 200 '^Hello, World$'
    expect "$label :$((base + i)) /hops-blocking (to the backend)" "$u/hops-blocking?delay=5" 200 '"meetings":\['
    expect "$label :$((base + i)) /hops-async (to the backend)" "$u/hops-async?delay=5" 200 '"meetings":\['
    expect "$label :$((base + i)) /db-blocking (its own PostgreSQL)" "$u/db-blocking?id=7&ms=5" 200 '"name":"item-7"'
    expect "$label :$((base + i)) /db-async (its own PostgreSQL)" "$u/db-async?id=8&ms=5" 200 '"name":"item-8"'
    expect "$label :$((base + i)) /wait-blocking?ms=abc is 400" "$u/wait-blocking?ms=abc" 400 'ms must be a whole number'
  done
  local m="http://$host:$((base + 4))/metrics"
  expect "$label /metrics: process figures" "$m" 200 'process_cpu_seconds_total [0-9.eE+]+'$'\n''.*process_resident_memory_bytes'
  expect "$label /metrics: port 7002 (loom) answered 2xx" "$m" 200 'loomylin_requests_total\{[^}]*port="7002"[^}]*status="2xx"\} [1-9]'
  expect "$label /metrics: port 7000 (qtp:4) answered a 4xx" "$m" 200 'loomylin_requests_total\{[^}]*port="7000"[^}]*status="4xx"\} [1-9]'
}

build() {
  local what=$1 t0; shift
  say "podman build --format docker --network host $*"
  t0=$(now_ms)
  if timeout -k 30 "$build_timeout" podman build --format docker --network host "$@" . >"$work/build.log" 2>&1; then
    pass "$what built in $((($(now_ms) - t0) / 1000)) s"
  else
    tail -30 "$work/build.log" | sed 's/^/    /'
    fail "podman build $* failed (last lines above)"; tally; exit 1
  fi
}

# ---- images ------------------------------------------------------------------------------------------------
build "image loomylin" -t loomylin
build "image loomylin-bench (with hey and wrk from the distribution)" --target bench -t loomylin-bench

# ---- compose -----------------------------------------------------------------------------------------------
say "podman-compose up -d backend servers   (project $project)"
compose_up=1
compose up -d --no-build backend servers >"$work/up.log" 2>&1 || { fail "podman-compose up failed: $(tail -3 "$work/up.log" | tr '\n' ' ')"; }
if wait_ready "compose: backend and servers" "http://$host:$((base + 3))/authorize?userId=ci&delay=0 200" \
    "http://$host:$base/pool 200" "http://$host:$((base + 1))/pool 200" "http://$host:$((base + 2))/pool 200" \
    "http://$host:$((base + 4))/metrics 200"; then
  expect "compose: backend :$((base + 3)) /authenticate" "http://$host:$((base + 3))/authenticate" 200 '"userId":"user-' -H 'Authorization: Bearer ci'
  every_route compose

  say "podman-compose run --rm --no-deps bench bench --endpoints wait-blocking?ms=10 --concurrency 5 --requests 50"
  t0=$(now_ms)
  COMPOSE_TIMEOUT=300 compose run --rm --no-deps bench bench --endpoints 'wait-blocking?ms=10' --concurrency 5 --requests 50 \
    >"$work/bench.log" 2>&1
  status=$?
  csv=$work/results/results.csv
  if ((status == 0)) && [[ -f "$csv" ]]; then
    pass "compose: bench --target exit 0 in $((($(now_ms) - t0) / 1000)) s, results in the mounted directory"
  else
    fail "compose: bench exit $status, $(grep -v '^\s*$' "$work/bench.log" | tail -3 | tr '\n' ' ')"
  fi
  if [[ -f "$csv" ]]; then
    # columns by their header's names (results.csv's order is RunResult.COLUMNS)
    rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["requests"] == 50 && $c["errors"] == 0 && $c["cpu_s"] != "" && $c["cpu_ms_per_req"] != "" && $c["idle_rss_kb"] > 0 \
        && $c["peak_rss_kb"] >= $c["idle_rss_kb"] && $c["peak_threads"] > 5 {print $c["pool"]}' "$csv" | sort -u | tr '\n' ' ')
    [[ "$rows" == "loom qtp:32 qtp:4 " ]] \
      && pass "compose: results.csv has the three pools, 50 requests each, no errors, server CPU/RSS/threads from /metrics" \
      || fail "compose: results.csv rows with server figures: '$rows', expected loom qtp:32 qtp:4: $(tail -n +2 "$csv" | tr '\n' ' ')"
    grep -q 'Server figures from http://servers:7004/metrics' "$work/results/report.md" 2>/dev/null \
      && pass "compose: report.md says where the server figures come from" \
      || fail "compose: report.md does not name the metrics URL"
  fi
fi
compose down >"$work/down.log" 2>&1 && pass "compose: down" || fail "compose: down failed: $(tail -2 "$work/down.log" | tr '\n' ' ')"
compose_up=0

# ---- podman kube play --------------------------------------------------------------------------------------
# hostPort NAME FILE: a copy of a manifest with a hostPort for each containerPort, from the block at $base.
host_ports() {
  sed -e "s/containerPort: 7000}/containerPort: 7000, hostPort: $base}/" \
      -e "s/containerPort: 7001}/containerPort: 7001, hostPort: $((base + 1))}/" \
      -e "s/containerPort: 7002}/containerPort: 7002, hostPort: $((base + 2))}/" \
      -e "s/containerPort: 7003}/containerPort: 7003, hostPort: $((base + 3))}/" \
      -e "s/containerPort: 7004}/containerPort: 7004, hostPort: $((base + 4))}/" "$1"
}
host_ports deploy/k8s/backend.yaml >"$work/backend.yaml"
say "podman kube play deploy/k8s/backend.yaml   (hostPort $((base + 3)))"
kube_files+=("$work/backend.yaml")
timeout 180 podman kube play "$work/backend.yaml" >"$work/kube.log" 2>&1 || fail "kube play backend.yaml: $(tail -3 "$work/kube.log" | tr '\n' ' ')"
if wait_ready "kube: backend pod" "http://$host:$((base + 3))/authorize?userId=ci&delay=0 200"; then
  # The pod of Deployment "backend" (podman names it backend-pod-...); its address lives on the pod's infra container.
  backend_pod=$(podman pod ps --format '{{.Name}}' | grep '^backend-pod' | head -1)
  backend_ip=$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' \
    "$(podman pod inspect --format '{{.InfraContainerID}}' "$backend_pod" 2>/dev/null)" 2>/dev/null)
  [[ "$backend_ip" =~ ^[0-9.]+$ ]] && pass "kube: backend pod address $backend_ip (stands in for the Service)" \
    || fail "kube: no address for the backend pod: '$backend_ip'"
  host_ports deploy/k8s/servers.yaml | sed "s|http://backend:7003|http://$backend_ip:7003|" >"$work/servers.yaml"
  say "podman kube play deploy/k8s/servers.yaml   (hostPorts $base-$((base + 2)), $((base + 4)); backend $backend_ip)"
  kube_files+=("$work/servers.yaml")
  timeout 180 podman kube play "$work/servers.yaml" >"$work/kube.log" 2>&1 || fail "kube play servers.yaml: $(tail -3 "$work/kube.log" | tr '\n' ' ')"
  if wait_ready "kube: servers pod" "http://$host:$base/pool 200" "http://$host:$((base + 1))/pool 200" \
      "http://$host:$((base + 2))/pool 200" "http://$host:$((base + 4))/metrics 200"; then
    every_route kube
    cnt=$(podman ps --format '{{.Names}}' | grep '^servers-pod.*-servers$' | head -1)
    mem=$(podman inspect --format '{{.HostConfig.Memory}}' "$cnt" 2>/dev/null)
    [[ "$mem" == $((1024 * 1024 * 1024)) ]] && pass "kube: the servers container has the manifest's 1Gi memory limit" \
      || fail "kube: the servers container's memory limit is '$mem', expected 1Gi from the manifest"
  fi
fi
for f in "${kube_files[@]}"; do
  timeout 120 podman kube play --down "$f" >/dev/null 2>&1 && pass "kube: down $(basename "$f")" || fail "kube: down $(basename "$f") failed"
done
kube_files=()

tally
((failed == 0))
