# Loomylin in a container: three Javalin servers on ports 7000-7002 plus the embedded backend on 7003.
#
#   docker build -t loomylin .
#   docker run --rm -p 7000:7000 -p 7001:7001 -p 7002:7002 -p 7003:7003 --name loomylin loomylin [--twin kotlin]
#   docker run --rm -p 7003:7003 --name loomylin-backend loomylin backend --delay 333
#   docker stop loomylin          (graceful: in-flight requests may finish; exit status 0)
# Podman: podman build --format docker -t loomylin .   (the default OCI format drops the HEALTHCHECK)

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
FROM eclipse-temurin:25-jre

# A user of our own, with ids that clash neither with root nor with the `ubuntu` user (1000) of the official images.
RUN groupadd --gid 10001 loomylin \
 && useradd --uid 10001 --gid loomylin --home-dir /app --no-create-home --shell /usr/sbin/nologin loomylin

WORKDIR /app
COPY scripts/container-healthcheck.sh /app/healthcheck.sh
COPY --from=build /build/target/loomylin.jar /app/loomylin.jar
USER 10001:10001

# 7000-7002: the servers (qtp:4, qtp:32, loom by default); 7003: the embedded backend (or `backend` mode).
EXPOSE 7000 7001 7002 7003 7004

# Healthy = the first server answers GET /pool with 200 (`backend` mode: /authenticate with 401, no token).
# Plain bash over /dev/tcp: the official JRE image has neither curl nor wget. See the script.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["/app/healthcheck.sh"]

# Exec form: java is PID 1 and receives `docker stop`'s SIGTERM itself; Loomylin stops gracefully, exit 0.
# The heap follows the container's memory limit; an OutOfMemoryError ends the process (the engine may restart
# it) instead of leaving it half alive. More JVM flags: -e JAVA_TOOL_OPTIONS="...".
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/loomylin.jar"]
