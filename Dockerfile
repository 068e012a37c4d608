# Loomylin in a container: three Javalin servers on ports 7000-7002, the embedded backend on 7003, the admin port on 7004.
#
#   docker build -t loomylin .
#   docker run --rm -p 7000:7000 -p 7001:7001 -p 7002:7002 -p 7003:7003 -p 127.0.0.1:7004:7004 --name loomylin loomylin [--twin kotlin]
#   docker run --rm -p 7003:7003 --name loomylin-backend loomylin backend --delay 333
#   docker stop loomylin          (graceful: in-flight requests may finish; exit status 0)
# Podman: podman build --format docker -t loomylin .   (the default OCI format drops the HEALTHCHECK)
# The load generator: docker build --target bench -t loomylin-bench .   (the same image plus hey and a font;
#   runs `bench --target ...` against servers elsewhere, see compose.yaml)

# ---- build: the committed Maven wrapper on the image's JDK 25 (the toolchains plugin picks the running JDK) ----
FROM eclipse-temurin:25-jdk AS build
WORKDIR /build

# Maven, the plugins and the dependencies in a layer of their own: it is rebuilt when pom.xml or the
# wrapper change, never when only a source file does. Packaging the project with no sources yet loads every
# plugin of the real build (Kotlin, toolchains, compiler, jar, shade) and resolves every dependency, which
# dependency:go-offline alone does not.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN ./mvnw -B -q -DskipTests package \
 && rm -rf target

# The real build, offline: if it needed anything the layer above did not fetch, it fails here, loudly.
COPY src/ src/
RUN ./mvnw -B -o -DskipTests package

# ---- run: a JRE and the one jar ----
FROM eclipse-temurin:25-jre AS run

# A user of our own, with ids that clash neither with root nor with the `ubuntu` user (1000) of the official images.
RUN groupadd --gid 10001 loomylin \
 && useradd --uid 10001 --gid loomylin --home-dir /app --no-create-home --shell /usr/sbin/nologin loomylin

WORKDIR /app
COPY scripts/container-healthcheck.sh /app/healthcheck.sh
COPY --from=build /build/target/loomylin.jar /app/loomylin.jar
USER 10001:10001

# 7000-7002: the servers (qtp:4, qtp:32, loom by default); 7003: the embedded backend (or `backend` mode);
# 7004: the admin port (/metrics, the live view).
EXPOSE 7000 7001 7002 7003 7004

# Healthy = the first server answers GET /pool with 200 (`backend` mode: /authenticate with 401, no token).
# Plain bash over /dev/tcp: the official JRE image has neither curl nor wget. See the script.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["/app/healthcheck.sh"]

# Races from the live view in a browser on the host: a published port's connections reach the container from the
# engine's gateway (the bridge), not loopback. Allow that one address; the race still needs the page's own Origin and
# Host, so another site's page cannot start one (docs/reliability/hostile-input.md). Publish 7004 on 127.0.0.1 to keep other machines
# off it: -p 127.0.0.1:7004:7004. LOOMYLIN_RACE_FROM= (empty) allows loopback only.
ENV LOOMYLIN_RACE_FROM=gateway

# Exec form: java is PID 1 and receives `docker stop`'s SIGTERM itself; Loomylin stops gracefully, exit 0.
# The heap follows the container's memory limit; an OutOfMemoryError ends the process (the engine may restart
# it) instead of leaving it half alive. More JVM flags: -e JAVA_TOOL_OPTIONS="...".
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/loomylin.jar"]

# ---- bench: the run image plus hey and wrk (the distribution's packages: Ubuntu's universe in the official image,
# Debian's in a Debian-based one) and a font for the charts. `bench --target` runs here against servers elsewhere;
# the presets' c=2000 blocks use wrk. Open-loop runs (--rate, --preset latency) need oha, which no distribution
# packages: add it (cargo install oha) to run those from this image.
FROM run AS bench
USER root
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends hey wrk fontconfig fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && hey -h 2>&1 | grep -q 'Usage: hey' \
 && wrk -v 2>&1 | grep -q '^wrk '
USER 10001:10001
HEALTHCHECK NONE

# ---- the default target: the run image above, unchanged ----
FROM run
