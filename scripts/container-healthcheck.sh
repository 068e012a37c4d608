#!/usr/bin/env bash
# The image's HEALTHCHECK (copied to /app/healthcheck.sh). Healthy (exit 0) when the first server answers
# GET /pool with 200 or, when the container runs `loomylin backend`, when the backend answers GET /authenticate
# with 401 (no token given: an instant answer that the backend does not record as a call).
# Plain bash and /dev/tcp because the official eclipse-temurin JRE image has neither curl nor wget.
# LOOMYLIN_PORT, when set, moves the port checked as it moves the servers (a --port flag is not seen).
if tr '\0' ' ' </proc/1/cmdline 2>/dev/null | grep -q 'loomylin\.jar backend'; then
  port=${LOOMYLIN_PORT:-7003} path=/authenticate want=401
else
  port=${LOOMYLIN_PORT:-7000} path=/pool want=200
fi
exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$path" >&3
read -r -t 2 _ status _ <&3 || exit 1
[[ "$status" == "$want" ]]
