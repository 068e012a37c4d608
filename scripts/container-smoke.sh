#!/usr/bin/env bash
# Container smoke test: builds the image from the Dockerfile at the repository's top, runs it the ways the
# README shows, and checks every route of every server through the published ports, a race started through the
# published admin port the way the live view's page starts it (and refused to another site's page), the Kotlin
# twin, pools and twin from environment variables, `backend --delay 333`, the health check, and a graceful `stop`.
#
#   scripts/container-smoke.sh
#
# Uses docker or podman, whichever answers (`docker info` / `podman info`); CONTAINER_ENGINE=docker|podman
# picks one. With no usable engine it prints "SKIP: <reason>" and exits 0 (CONTAINER_SMOKE_REQUIRE_ENGINE=1
# turns that into a failure). Exit status 1 on any failed check, 2 on a usage error.
#
# Environment (all optional):
#   CONTAINER_ENGINE                docker | podman (default: the first usable, docker first)
#   CONTAINER_SMOKE_IMAGE           image tag to build and run (default loomylin)
#   CONTAINER_SMOKE_PORT            first of five consecutive host ports published to 7000-7004 (default 7000;
#                                   when unset and 7000-7004 are busy, the first free block of 17000, 27000, ...)
#   CONTAINER_SMOKE_SKIP_BUILD=1    run the image already tagged instead of building it
#   CONTAINER_SMOKE_BUILD_TIMEOUT   seconds the build may take (default 1800)
#   CONTAINER_SMOKE_READY_TIMEOUT   seconds a container may take to answer on every port (default 90)
#   CONTAINER_SMOKE_REQUIRE_ENGINE=1  no usable engine is a failure, not a SKIP
#   CONTAINER_SMOKE_KEEP_LOGS=1     print each container's log before removing it
#
# Every step is bounded (timeout, curl -m, hey -t); every container started is removed on exit.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2

image=${CONTAINER_SMOKE_IMAGE:-loomylin}
build_timeout=${CONTAINER_SMOKE_BUILD_TIMEOUT:-1800}
ready_timeout=${CONTAINER_SMOKE_READY_TIMEOUT:-90}
host=127.0.0.1
grace=10            # `stop -t 10`: the engine sends SIGKILL after this; the server's own grace is 5 s
hey_n=200 hey_c=20

passed=0 failed=0
containers=()
bg_pids=()
work=""

say() { printf 'container-smoke: %s\n' "$*"; }
pass() { passed=$((passed + 1)); printf '  ok   %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf '  FAIL %s\n' "$*"; }
# judge STATUS PASS-TEXT FAIL-TEXT: one check from the exit status of a test.
judge() { if (($1 == 0)); then pass "$2"; else fail "$3"; fi; }
now_ms() { date +%s%3N; }

finish() {
  local status=$?
  for pid in "${bg_pids[@]}"; do kill "$pid" 2>/dev/null; done
  for c in "${containers[@]}"; do
    if [[ "${CONTAINER_SMOKE_KEEP_LOGS:-}" == 1 ]]; then
      say "log of $c:"; timeout 20 "$engine" logs "$c" 2>&1 | sed 's/^/    /'
    fi
    timeout 60 "$engine" rm -f "$c" >/dev/null 2>&1
  done
  [[ -n "$work" ]] && rm -rf "$work"
  exit "$status"
}

skip() {
  if [[ "${CONTAINER_SMOKE_REQUIRE_ENGINE:-}" == 1 ]]; then
    echo "container-smoke: FAIL: $* (CONTAINER_SMOKE_REQUIRE_ENGINE=1)"
    exit 1
  fi
  echo "SKIP: container-smoke: $*"
  exit 0
}

# Ends the run now: one line saying why, the container's last log lines, the tally.
abort() {
  fail "$1"
  if [[ -n "${2:-}" ]]; then
    echo "  --- last log lines of $2 ---"
    timeout 20 "$engine" logs --tail 20 "$2" 2>&1 | sed 's/^/    /'
  fi
  say "$passed passed, $failed failed"
  exit 1
}

for tool in curl timeout; do
  command -v "$tool" >/dev/null || { echo "container-smoke: FAIL: $tool is not installed"; exit 1; }
done

# ---- which engine ------------------------------------------------------------------------------------------
engine=""
if [[ -n "${CONTAINER_ENGINE:-}" ]]; then
  [[ "$CONTAINER_ENGINE" == docker || "$CONTAINER_ENGINE" == podman ]] \
    || { echo "container-smoke: CONTAINER_ENGINE must be docker or podman, got '$CONTAINER_ENGINE'"; exit 2; }
  command -v "$CONTAINER_ENGINE" >/dev/null || skip "CONTAINER_ENGINE=$CONTAINER_ENGINE is not installed"
  timeout 30 "$CONTAINER_ENGINE" info >/dev/null 2>&1 || skip "CONTAINER_ENGINE=$CONTAINER_ENGINE is installed but '$CONTAINER_ENGINE info' fails"
  engine=$CONTAINER_ENGINE
else
  reasons=()
  for candidate in docker podman; do
    if ! command -v "$candidate" >/dev/null; then
      reasons+=("$candidate is not installed")
    elif ! timeout 30 "$candidate" info >/dev/null 2>&1; then
      reasons+=("'$candidate info' fails (no daemon or no permission)")
    else
      engine=$candidate
      break
    fi
  done
  [[ -n "$engine" ]] || skip "no usable container engine: ${reasons[0]}; ${reasons[1]}"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/container-smoke.XXXXXX") || exit 1
trap finish EXIT
trap 'exit 130' INT TERM

# ---- which host ports --------------------------------------------------------------------------------------
port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/$host/$1" 2>/dev/null; }
block_free() { local p; for p in "$1" $(($1 + 1)) $(($1 + 2)) $(($1 + 3)) $(($1 + 4)); do port_busy "$p" && return 1; done; return 0; }
if [[ -n "${CONTAINER_SMOKE_PORT:-}" ]]; then
  if ! [[ "$CONTAINER_SMOKE_PORT" =~ ^[0-9]+$ ]] || ((CONTAINER_SMOKE_PORT < 1 || CONTAINER_SMOKE_PORT > 65531)); then
    echo "container-smoke: CONTAINER_SMOKE_PORT must be a port from 1 to 65531, got '$CONTAINER_SMOKE_PORT'"; exit 2
  fi
  base=$CONTAINER_SMOKE_PORT
  block_free "$base" || { echo "container-smoke: FAIL: host ports $base-$((base + 4)) (CONTAINER_SMOKE_PORT) are not all free"; exit 1; }
else
  base=""
  for candidate in 7000 17000 27000 37000 47000; do
    if block_free "$candidate"; then base=$candidate; break; fi
  done
  [[ -n "$base" ]] || { echo "container-smoke: FAIL: host ports 7000-7004 are busy and so are the fallbacks; set CONTAINER_SMOKE_PORT"; exit 1; }
  ((base == 7000)) || say "host ports 7000-7004 are busy (another Loomylin?); publishing on $base-$((base + 4)) instead"
fi
publish=(-p "$base:7000" -p "$((base + 1)):7001" -p "$((base + 2)):7002" -p "$((base + 3)):7003" -p "$((base + 4)):7004")
say "engine $engine ($(timeout 30 "$engine" --version 2>/dev/null | head -1)), image $image, host ports $base-$((base + 4))"

# ---- hey, for the bursts -----------------------------------------------------------------------------------
hey_bin=$(command -v hey || true)
if [[ -z "$hey_bin" ]] && command -v go >/dev/null && [[ -x "$(go env GOPATH 2>/dev/null)/bin/hey" ]]; then
  hey_bin="$(go env GOPATH)/bin/hey"
fi
if [[ -z "$hey_bin" && $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  say "hey not found: apt-get install -y hey"
  timeout 300 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null 2>&1 \
    || { timeout 300 apt-get update -qq >/dev/null 2>&1 && timeout 300 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null 2>&1; }
  hey_bin=$(command -v hey || true)
fi
if [[ -z "$hey_bin" ]] && command -v go >/dev/null; then
  say "hey not found: go install github.com/rakyll/hey@latest"
  timeout 600 env GOBIN="$work/bin" go install github.com/rakyll/hey@latest >/dev/null 2>&1 && hey_bin="$work/bin/hey"
fi
[[ -n "$hey_bin" ]] || { echo "container-smoke: FAIL: hey is needed for the bursts: apt-get install hey, or go install github.com/rakyll/hey@latest"; exit 1; }

# ---- helpers -----------------------------------------------------------------------------------------------
# http URL -> sets $code and $body (the body also in $work/body); never waits more than 10 s.
http() {
  code=$(curl -sS -o "$work/body" -w '%{http_code}' --connect-timeout 3 -m 10 "${@:2}" "$1" 2>"$work/curl.err") || code="000"
  body=$(head -c 2000 "$work/body" 2>/dev/null)
  [[ "$code" != 000 ]] || body="curl: $(tail -1 "$work/curl.err")"
}

# expect NAME URL STATUS BODY-PATTERN [curl args...]: one check.
expect() {
  local name=$1 url=$2 want=$3 pattern=$4
  http "$url" "${@:5}"
  if [[ "$code" == "$want" && "$body" =~ $pattern ]]; then
    pass "$name"
  else
    fail "$name: GET $url answered $code '$(printf '%s' "$body" | head -c 160 | tr '\n' ' ')', expected $want and /$pattern/"
  fi
}

# start NAME [run args...] -- [image args...]: starts a detached container and remembers it for clean-up.
start() {
  local name=$1; shift
  local run_args=() image_args=()
  while (($#)) && [[ "$1" != -- ]]; do run_args+=("$1"); shift; done
  (($#)) && shift
  image_args=("$@")
  containers+=("$name")
  timeout 60 "$engine" rm -f "$name" >/dev/null 2>&1
  say "$(echo "$engine run -d --name $name ${run_args[*]} $image ${image_args[*]}" | sed 's/ *$//')"
  if ! timeout 120 "$engine" run -d --name "$name" "${run_args[@]}" "$image" "${image_args[@]}" >"$work/run.out" 2>&1; then
    abort "$engine run $name failed: $(grep -v 'systemd' "$work/run.out" | tail -3 | tr '\n' ' ')"
  fi
}

# oneshot NAME [image args...]: runs the image in the foreground; sets $out and $status (the container's exit
# status, read back with inspect: more reliable across engines than the status of `run --rm`).
oneshot() {
  local name=$1; shift
  containers+=("$name")
  out=$(timeout 60 "$engine" run --name "$name" "$image" "$@" 2>&1)
  status=$(timeout 30 "$engine" inspect --format '{{.State.ExitCode}}' "$name" 2>/dev/null) || status="?"
  out=$(grep -v 'systemd' <<<"$out")
}

running() { [[ "$(timeout 30 "$engine" inspect --format '{{.State.Running}}' "$1" 2>/dev/null)" == true ]]; }

# wait_ready CONTAINER PORT:PATH:STATUS ...: polls until each answers with its status, or gives up.
wait_ready() {
  local name=$1; shift
  local t0 deadline target port path want
  t0=$(now_ms); deadline=$((t0 + ready_timeout * 1000))
  for target in "$@"; do
    IFS=: read -r port path want <<<"$target"
    while :; do
      code=$(curl -s -o /dev/null -w '%{http_code}' --connect-timeout 1 -m 3 "http://$host:$port$path" 2>/dev/null) || true
      [[ "$code" == "$want" ]] && break
      running "$name" || abort "$name exited before it was ready" "$name"
      (($(now_ms) < deadline)) || abort "$name not ready within ${ready_timeout} s: http://$host:$port$path answered '${code:-nothing}', expected $want" "$name"
      sleep 0.5
    done
  done
  pass "$name ready on host ports ${*%%:*} in $(($(now_ms) - t0)) ms"
}

# stop_check CONTAINER: `stop -t 10` must take less than 10 s and leave exit status 0.
stop_check() {
  local name=$1 t0 took status
  t0=$(now_ms)
  timeout $((grace + 30)) "$engine" stop -t "$grace" "$name" >/dev/null 2>&1
  took=$(($(now_ms) - t0))
  status=$(timeout 30 "$engine" inspect --format '{{.State.ExitCode}}' "$name" 2>/dev/null)
  if ((took < grace * 1000)) && [[ "$status" == 0 ]]; then
    pass "$name: $engine stop -t $grace took $took ms, exit status 0"
  else
    fail "$name: $engine stop -t $grace took $took ms (limit $((grace * 1000))) with exit status '${status:-?}' (want 0)"
  fi
}

healthcheck() {
  local name=$1
  if timeout 20 "$engine" exec "$name" /app/healthcheck.sh >/dev/null 2>&1; then
    pass "$name: the image's health check (/app/healthcheck.sh) passes"
  else
    fail "$name: /app/healthcheck.sh failed inside the container"
  fi
  if [[ "$engine" == podman ]]; then
    # podman runs health checks from systemd timers, absent in many sandboxes: run it by hand.
    if timeout 30 podman healthcheck run "$name" >/dev/null 2>&1; then
      pass "$name: podman healthcheck run: healthy"
    else
      fail "$name: podman healthcheck run: not healthy"
    fi
  fi
}

# ---- build -------------------------------------------------------------------------------------------------
if [[ "${CONTAINER_SMOKE_SKIP_BUILD:-}" == 1 ]]; then
  say "CONTAINER_SMOKE_SKIP_BUILD=1: using the image $image as it is"
  timeout 30 "$engine" image inspect "$image" >/dev/null 2>&1 || abort "no image $image to run"
else
  if [[ "$engine" == podman ]]; then
    # --format docker keeps the HEALTHCHECK (OCI images have none); --network host lets Maven reach the registry.
    build=(podman build --format docker --network host -t "$image" .)
  else
    build=(docker build -t "$image" .)
  fi
  say "${build[*]}   (log: on failure)"
  t0=$(now_ms)
  if timeout -k 30 "$build_timeout" "${build[@]}" >"$work/build.log" 2>&1; then
    pass "image $image built in $((($(now_ms) - t0) / 1000)) s"
  else
    tail -40 "$work/build.log" | sed 's/^/    /'
    abort "$engine build failed or took over ${build_timeout} s (last lines above)"
  fi
fi
user=$(timeout 30 "$engine" image inspect --format '{{.Config.User}}' "$image" 2>/dev/null)
[[ -n "$user" && "$user" != root && "$user" != 0 && "$user" != 0:* ]]
judge $? "image runs as user $user, not root" \
  "image user is '${user:-root}', expected a non-root user"
hc=$(timeout 30 "$engine" image inspect --format '{{json .Config.Healthcheck}}' "$image" 2>/dev/null)
[[ "$hc" == *healthcheck.sh* ]]
judge $? "image has a HEALTHCHECK" \
  "image has no HEALTHCHECK (podman: build with --format docker)"

# ---- one-shot runs: --help, and a usage error's exit status ------------------------------------------------
oneshot loomylin-smoke-help-$$ --help
[[ $status == 0 && "$out" == *Usage:* ]]
judge $? "run $image --help: usage, exit 0" \
  "run $image --help: exit $status, output '$(head -c 160 <<<"$out" | tr '\n' ' ')'"
oneshot loomylin-smoke-usage-$$ --pools nonsense
[[ $status == 2 && "$out" == *"unknown pool"* ]]
judge $? "run $image --pools nonsense: one line, exit 2" \
  "run $image --pools nonsense: exit $status (want 2), output '$(head -c 160 <<<"$out" | tr '\n' ' ')'"

# ---- the Java twin on the default pools --------------------------------------------------------------------
main=loomylin-smoke-$$
start "$main" "${publish[@]}"
wait_ready "$main" "$base:/pool:200" "$((base + 1)):/pool:200" "$((base + 2)):/pool:200" "$((base + 3)):/authenticate:401" "$((base + 4)):/metrics:200"
kinds=(qtp:4 qtp:32 loom)
for i in 0 1 2; do
  p=$((base + i)) u="http://$host:$((base + i))"
  expect "$p /computational" "$u/computational" 200 '^Hello, World$'
  expect "$p /wait-blocking?ms=20" "$u/wait-blocking?ms=20" 200 '^Hello, World$'
  expect "$p /wait-async?ms=20" "$u/wait-async?ms=20" 200 '^Hello, World$'
  expect "$p /wait-blocking?ms=abc is 400" "$u/wait-blocking?ms=abc" 400 'ms must be a whole number'
  expect "$p /hops-blocking" "$u/hops-blocking" 200 '^\{.*"meetings":\[.*Stand-up'
  expect "$p /hops-async" "$u/hops-async" 200 '^\{.*"meetings":\[.*Stand-up'
  expect "$p /pool kind ${kinds[i]}, java twin" "$u/pool" 200 "^\{\"twin\":\"java\",.*\"kind\":\"${kinds[i]}\""
done
expect "$((base + 3)) backend /authenticate" "http://$host:$((base + 3))/authenticate" 200 '"userId":"user-' -H 'Authorization: Bearer smoke'

for i in 0 1 2; do
  p=$((base + i)) url="http://$host:$((base + i))/wait-blocking?ms=10"
  out=$(timeout 120 "$hey_bin" -n "$hey_n" -c "$hey_c" -t 10 "$url" 2>&1); status=$?
  ok2xx=$(awk '/^ *\[2[0-9][0-9]\]/ {n += $2} END {print n + 0}' <<<"$out")
  other=$(awk '/^ *\[[0-9]+\]/ && !/^ *\[2[0-9][0-9]\]/ {n += $2} END {print n + 0}' <<<"$out")
  if [[ $status == 0 && $ok2xx == "$hey_n" && $other == 0 && "$out" != *"Error distribution"* ]]; then
    pass "$p hey -n $hey_n -c $hey_c wait-blocking?ms=10: $ok2xx x 2xx, $(awk '/Requests\/sec/ {print $2}' <<<"$out") req/s"
  else
    fail "$p hey -n $hey_n -c $hey_c $url: exit $status, $ok2xx x 2xx of $hey_n, $other other $(grep -A3 'Error distribution' <<<"$out" | tail -n +2 | head -2 | tr '\n' ' ')"
  fi
done

# A race through the published admin port, as the live view's page starts it from a browser on this machine: the
# connection reaches the container from the engine's gateway, not loopback, and carries the page's Origin and Host.
admin="http://$host:$((base + 4))"
expect "$((base + 4)) race from another site's page is 403" "$admin/race" 403 "own page" \
  -X POST -H "Origin: http://evil.example" --data 'route=/wait-blocking&value=10&concurrency=2&seconds=2'
expect "$((base + 4)) race from the live view's page starts" "$admin/race" 201 '"state":"running"' \
  -X POST -H "Origin: $admin" -H 'Sec-Fetch-Site: same-origin' --data 'route=/wait-blocking&value=10&concurrency=2&seconds=2'
t0=$(now_ms)
while http "$admin/race"; [[ "$body" != *'"state":"finished"'* ]] && (($(now_ms) - t0 < 30000)); do sleep 0.5; done
if [[ "$body" == *'"state":"finished"'* && "$body" != *'"requests":0,'* && "$body" == *'"errors":0'* ]]; then
  pass "$((base + 4)) the race ran on every port: $(grep -o '"requests":[0-9]*' <<<"$body" | tr '\n' ' ')"
else
  fail "$((base + 4)) the race did not finish with requests on every port: '$(head -c 300 <<<"$body")'"
fi

pid1=$(timeout 20 "$engine" exec "$main" cat /proc/1/comm 2>/dev/null)
[[ "$pid1" == java ]]
judge $? "$main: java is PID 1 (gets SIGTERM itself)" \
  "$main: PID 1 is '${pid1:-?}', expected java"
uid=$(timeout 20 "$engine" exec "$main" id -u 2>/dev/null)
[[ -n "$uid" && "$uid" != 0 ]]
judge $? "$main: runs as uid $uid" \
  "$main: runs as uid '${uid:-?}'"
healthcheck "$main"

# Graceful stop: a request in flight when SIGTERM arrives still gets its answer.
curl -sS -o "$work/inflight.body" -w '%{http_code}' --connect-timeout 3 -m 20 \
  "http://$host:$((base + 2))/wait-blocking?ms=2000" >"$work/inflight.code" 2>/dev/null &
inflight=$!; bg_pids+=("$inflight")
sleep 0.7
stop_check "$main"
wait "$inflight" 2>/dev/null
if [[ "$(cat "$work/inflight.code" 2>/dev/null)" == 200 && "$(cat "$work/inflight.body" 2>/dev/null)" == "Hello, World" ]]; then
  pass "$main: a 2 s request in flight at the stop was answered 200"
else
  fail "$main: the request in flight at the stop got '$(cat "$work/inflight.code" 2>/dev/null)', expected 200 Hello, World"
fi
log=$(timeout 20 "$engine" logs "$main" 2>&1)
[[ "$log" == *"SIGTERM: stopping"* ]]
judge $? "$main: logged 'SIGTERM: stopping'" \
  "$main: no 'SIGTERM: stopping' in its log"

# ---- the Kotlin twin, and pools and twin from the environment ----------------------------------------------
# servers NAME TWIN KIND,KIND,KIND [run args...] -- [image args...]: starts the servers, checks that each port
# runs the twin and pool asked for and answers, then stops them.
servers() {
  local name=$1 twin=$2 kinds i p u
  IFS=, read -r -a kinds <<<"$3"
  shift 3
  start "$name" "${publish[@]}" "$@"
  wait_ready "$name" "$base:/pool:200" "$((base + 1)):/pool:200" "$((base + 2)):/pool:200"
  for i in 0 1 2; do
    p=$((base + i)) u="http://$host:$((base + i))"
    expect "$p /pool kind ${kinds[i]}, $twin twin" "$u/pool" 200 "^\{\"twin\":\"$twin\",.*\"kind\":\"${kinds[i]}\""
    expect "$p /wait-blocking ($twin, ${kinds[i]})" "$u/wait-blocking?ms=20" 200 '^Hello, World$'
    expect "$p /hops-async ($twin, ${kinds[i]})" "$u/hops-async" 200 '^\{.*"meetings":\['
  done
  stop_check "$name"
}
servers "loomylin-smoke-kotlin-$$" kotlin qtp:4,qtp:32,loom -- --twin kotlin
servers "loomylin-smoke-pools-$$" java qtp:8,jetty-vtp,qtp-vt:8 -e LOOMYLIN_POOLS=qtp:8,jetty-vtp,qtp-vt:8
servers "loomylin-smoke-env-$$" kotlin qtp:4,qtp:32,jetty-vtp -e LOOMYLIN_TWIN=kotlin -e LOOMYLIN_POOL_7002=jetty-vtp

# Without the image's allowance of its gateway the same page is refused: the published port's connection does not
# come from loopback. (So the race above ran because of LOOMYLIN_RACE_FROM=gateway, not by accident.)
loopback_only=loomylin-smoke-loopback-only-$$
start "$loopback_only" "${publish[@]}" -e LOOMYLIN_RACE_FROM= -- --pools loom --admin-port 7004
wait_ready "$loopback_only" "$base:/pool:200" "$((base + 4)):/metrics:200"
expect "$((base + 4)) LOOMYLIN_RACE_FROM= (loopback only): the page's race is 403 through the published port" "$admin/race" 403 \
  'races start only from this machine \(loopback\) or an address --race-from allows, not from' \
  -X POST -H "Origin: $admin" --data 'route=/wait-blocking&value=10&concurrency=2&seconds=2'
stop_check "$loopback_only"

# ---- the backend alone -------------------------------------------------------------------------------------
backend=loomylin-smoke-backend-$$
start "$backend" -p "$((base + 3)):7003" -- backend --delay 333
wait_ready "$backend" "$((base + 3)):/authenticate:401"
t0=$(now_ms)
expect "$((base + 3)) backend /authenticate with Authorization" "http://$host:$((base + 3))/authenticate" 200 \
  '^\{"userId":"user-[0-9a-f]+"\}$' -H 'Authorization: Bearer smoke'
took=$(($(now_ms) - t0))
((took >= 333))
judge $? "backend --delay 333: answered after $took ms" \
  "backend --delay 333: answered after $took ms, expected >= 333"
expect "$((base + 3)) backend /authenticate without a token is 401" "http://$host:$((base + 3))/authenticate" 401 'Authorization header'
healthcheck "$backend"
stop_check "$backend"

say "$passed passed, $failed failed"
((failed == 0))
