#!/usr/bin/env bash
# Starts or stops a single-node Trino server (coordinator and worker in one process) for dpsql's
# Trino backend tests and benchmarks, with two catalogs: `memory` (tables the tests create) and
# `tpch` (TPC-H generated on the fly: tpch.tiny, tpch.sf1, tpch.sf10, ...).
#
#   scripts/trino.sh start    # download (once) and start; prints the JDBC URL and the env line
#   scripts/trino.sh stop     # stop the server started by `start`
#   scripts/trino.sh status   # exit 0 if it answers
#
# Everything comes from Maven Central: the io.trino:trino-server-core tarball and the trino-memory
# and trino-tpch plugin zips, cached under $DPSQL_TRINO_CACHE. Trino needs Java 24 or newer (the
# dpsql driver itself stays on Java 17): the server runs with $DPSQL_TRINO_JAVA_HOME, by default
# the newest JDK >= 24 found under /usr/lib/jvm. Without one, `start` prints why and exits 3;
# the Trino tests are then skipped with that reason.
#
# Settings (environment):
#   DPSQL_TRINO_VERSION    Trino version (default 476, the newest trino-server-core on Maven Central)
#   DPSQL_TRINO_PORT       HTTP port (default 18080)
#   DPSQL_TRINO_HEAP       JVM heap of the server (default 3G: the machine is shared, 2 cores)
#   DPSQL_TRINO_CACHE      download and install directory (default ~/.cache/dpsql-trino)
#   DPSQL_TRINO_JAVA_HOME  the JDK that runs the server
#   DPSQL_MAVEN_REPO       Maven repository to download from (default Maven Central)
set -euo pipefail

VERSION=${DPSQL_TRINO_VERSION:-476}
PORT=${DPSQL_TRINO_PORT:-18080}
HEAP=${DPSQL_TRINO_HEAP:-3G}
CACHE=${DPSQL_TRINO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpsql-trino}
REPO=${DPSQL_MAVEN_REPO:-https://repo1.maven.org/maven2}
SERVER="$CACHE/trino-server-$VERSION"
STATE="$CACHE/run-$PORT"

say() { echo "trino.sh: $*" >&2; }

java_major() {
  "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

find_jdk() {
  if [ -n "${DPSQL_TRINO_JAVA_HOME:-}" ]; then
    echo "$DPSQL_TRINO_JAVA_HOME"
    return
  fi
  local best="" best_major=0 d m
  for d in /usr/lib/jvm/*; do
    [ -x "$d/bin/java" ] || continue
    m=$(java_major "$d")
    if [ -n "$m" ] && [ "$m" -ge 24 ] && [ "$m" -gt "$best_major" ]; then
      best=$d
      best_major=$m
    fi
  done
  echo "$best"
}

fetch() { # artifact, extension -> path of the cached file
  local file="$CACHE/downloads/$1-$VERSION.$2"
  if [ ! -s "$file" ]; then
    mkdir -p "$CACHE/downloads"
    say "downloading io.trino:$1:$VERSION ($2) from $REPO"
    curl -sSfL --retry 3 --connect-timeout 20 -o "$file.part" "$REPO/io/trino/$1/$VERSION/$1-$VERSION.$2"
    mv "$file.part" "$file"
  fi
  echo "$file"
}

install_server() {
  [ -x "$SERVER/bin/launcher" ] && [ -d "$SERVER/plugin/memory" ] && [ -d "$SERVER/plugin/tpch" ] && return
  local tarball memory tpch tmp
  tarball=$(fetch trino-server-core tar.gz)
  memory=$(fetch trino-memory zip)
  tpch=$(fetch trino-tpch zip)
  tmp=$(mktemp -d "$CACHE/install.XXXXXX")
  tar -xzf "$tarball" -C "$tmp"
  mkdir -p "$tmp/trino-server-core-$VERSION/plugin"
  (cd "$tmp" && unzip -q "$memory" && unzip -q "$tpch")
  mv "$tmp/trino-memory-$VERSION" "$tmp/trino-server-core-$VERSION/plugin/memory"
  mv "$tmp/trino-tpch-$VERSION" "$tmp/trino-server-core-$VERSION/plugin/tpch"
  rm -rf "$SERVER"
  mv "$tmp/trino-server-core-$VERSION" "$SERVER"
  rm -rf "$tmp"
}

heap_mb() { # 3G, 3072M, 3g -> MB
  local v=${HEAP%[gGmM]}
  case "$HEAP" in
    *[gG]) echo $((v * 1024)) ;;
    *) echo "$v" ;;
  esac
}

write_config() {
  mkdir -p "$STATE/etc/catalog" "$STATE/data"
  local query_mb=$(( $(heap_mb) / 3 ))
  cat > "$STATE/etc/node.properties" <<PROPS
node.environment=dpsql
node.id=dpsql-$PORT
node.data-dir=$STATE/data
PROPS
  cat > "$STATE/etc/jvm.config" <<PROPS
-server
-Xmx$HEAP
-XX:+UseG1GC
-XX:G1HeapRegionSize=32M
-XX:+ExplicitGCInvokesConcurrent
-XX:+ExitOnOutOfMemoryError
-XX:-OmitStackTraceInFastThrow
-XX:ReservedCodeCacheSize=256M
-XX:PerMethodRecompilationCutoff=10000
-XX:PerBytecodeRecompilationCutoff=10000
-Djdk.attach.allowAttachSelf=true
-Djdk.nio.maxCachedBufferSize=2000000
-Dfile.encoding=UTF-8
-XX:+EnableDynamicAgentLoading
PROPS
  cat > "$STATE/etc/config.properties" <<PROPS
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$PORT
discovery.uri=http://localhost:$PORT
query.max-memory=${query_mb}MB
query.max-memory-per-node=${query_mb}MB
task.concurrency=2
PROPS
  cat > "$STATE/etc/log.properties" <<PROPS
io.trino=WARN
PROPS
  cat > "$STATE/etc/catalog/memory.properties" <<PROPS
connector.name=memory
memory.max-data-per-node=512MB
PROPS
  cat > "$STATE/etc/catalog/tpch.properties" <<PROPS
connector.name=tpch
PROPS
}

answers() {
  curl -sf --max-time 5 "http://localhost:$PORT/v1/info" 2> /dev/null | grep -q '"starting":false'
}

launcher() {
  JAVA_HOME="$JDK" PATH="$JDK/bin:$PATH" "$SERVER/bin/launcher" --etc-dir="$STATE/etc" \
    --data-dir="$STATE/data" "$@"
}

cmd=${1:-}
case "$cmd" in
  start)
    JDK=$(find_jdk)
    if [ -z "$JDK" ] || [ ! -x "$JDK/bin/java" ]; then
      say "no usable JDK (DPSQL_TRINO_JAVA_HOME='${DPSQL_TRINO_JAVA_HOME:-}', or none of Java 24+ under /usr/lib/jvm; Trino $VERSION needs one): not started"
      exit 3
    fi
    if [ "$(java_major "$JDK")" -lt 24 ]; then
      say "$JDK is Java $(java_major "$JDK"); Trino $VERSION needs Java 24 or newer: not started"
      exit 3
    fi
    command -v curl > /dev/null && command -v unzip > /dev/null || { say "needs curl and unzip: not started"; exit 3; }
    if answers; then
      say "already running on port $PORT"
    else
      install_server
      write_config
      launcher start > /dev/null
      for i in $(seq 1 180); do
        answers && break
        # the server exited (checked once it had time to write its pid): no use waiting
        if [ "$i" -gt 15 ] && ! launcher status > /dev/null 2>&1; then
          break
        fi
        sleep 1
      done
      if ! answers; then
        say "did not come up (exited, or not within 180 s); server log: $STATE/data/var/log/server.log"
        grep -m 5 -A 3 "ERROR" "$STATE/data/var/log/server.log" >&2 2> /dev/null || true
        launcher stop > /dev/null 2>&1 || true
        exit 4
      fi
      say "Trino $VERSION started on port $PORT (Java $(java_major "$JDK") at $JDK, heap $HEAP)"
    fi
    echo "DPSQL_TEST_TRINO_URL=jdbc:trino://localhost:$PORT"
    ;;
  stop)
    JDK=$(find_jdk)
    if [ -x "$SERVER/bin/launcher" ] && [ -d "$STATE/etc" ]; then
      launcher stop || true
    fi
    ;;
  status)
    answers
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
