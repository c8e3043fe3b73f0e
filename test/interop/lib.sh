# Shared by run.sh and capture.sh: build the classpaths, make a work dir, run the Java side, and
# on exit kill (by pid) every process the run started and remove the work dir.
# Expects HERE (test/interop) to be set.

INTEROP_OFFLINE_OK="${INTEROP_OFFLINE_OK:-0}"
WORK=""
RUNNER_PID=""
interop_rc=1

# interop_build compiles our Java programs and writes the 5.x and 4.x classpaths. When Maven Central
# cannot be reached and INTEROP_OFFLINE_OK=1, it prints a loud SKIP line and exits 0.
interop_build() {
  local log
  log="$(mktemp)"
  echo "# building the harness (Maven: RocketMQ 5.5.0 with its proxy, 4.9.7 broker, 4.9.8 client jars, gRPC client 5.0.8)"
  if ! { mvn -B -q -f "$HERE/pom.xml" compile dependency:build-classpath \
          -Dmdep.outputFile="$HERE/target/classpath.txt" \
      && mvn -B -q -f "$HERE/v4/pom.xml" dependency:build-classpath \
          -Dmdep.outputFile="$HERE/v4/target/classpath.txt" \
      && mvn -B -q -f "$HERE/v4client/pom.xml" compile dependency:build-classpath \
          -Dmdep.outputFile="$HERE/v4client/target/classpath.txt" \
      && mvn -B -q -f "$HERE/proxy/pom.xml" dependency:build-classpath \
          -Dmdep.outputFile="$HERE/proxy/target/classpath.txt" \
      && mvn -B -q -f "$HERE/grpcclient/pom.xml" compile dependency:build-classpath \
          -Dmdep.outputFile="$HERE/grpcclient/target/classpath.txt"; } >"$log" 2>&1; then
    if [ "$INTEROP_OFFLINE_OK" = 1 ] && ! curl -s -o /dev/null -m 20 https://repo.maven.apache.org/maven2/; then
      echo "SKIP interop: Maven Central cannot be reached, so the RocketMQ jars could not be fetched"
      echo "SKIP interop: THE INTEROPERABILITY SCENARIOS DID NOT RUN"
      rm -f "$log"
      exit 0
    fi
    cat "$log" >&2
    rm -f "$log"
    echo "interop: Maven build failed" >&2
    return 1
  fi
  rm -f "$log"
}

# interop_cleanup kills every process listed in WORK/pids (continuing stopped ones first) and removes
# WORK unless the run failed or KEEP_WORK=1.
interop_cleanup() {
  local pid name
  if [ -n "$RUNNER_PID" ]; then
    kill -KILL "$RUNNER_PID" 2>/dev/null || true
  fi
  if [ -n "$WORK" ] && [ -f "$WORK/pids" ]; then
    while read -r pid name; do
      if kill -0 "$pid" 2>/dev/null; then
        kill -CONT "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
      fi
    done <"$WORK/pids"
  fi
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    if [ "$interop_rc" -ne 0 ] || [ "${KEEP_WORK:-0}" = 1 ]; then
      echo "# work dir with every log kept: $WORK"
    else
      rm -rf "$WORK"
    fi
  fi
}

# interop_workdir creates the work dir and installs the cleanup traps.
interop_workdir() {
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/raftns-interop.XXXXXX")"
  mkdir -p "$WORK/runner/home"
  trap interop_cleanup EXIT
  trap 'exit 130' INT TERM
}

# interop_java MAIN PROPS... runs one of our Java mains with the 5.x classpath and waits for it.
interop_java() {
  local main="$1"
  shift
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Duser.home="$WORK/runner/home" \
    -Drmq.logback.configurationFile="$HERE/conf/rmq5-logback.xml" \
    -Dinterop.work="$WORK" -Dinterop.home="$HERE" \
    -Dinterop.cp5="$HERE/target/classpath.txt" -Dinterop.classes5="$HERE/target/classes" \
    -Dinterop.cp4="$HERE/v4/target/classpath.txt" \
    -Dinterop.cp4client="$HERE/v4client/target/classpath.txt" -Dinterop.classes4client="$HERE/v4client/target/classes" \
    -Dinterop.cpProxy="$HERE/proxy/target/classpath.txt" \
    -Dinterop.cpGrpcClient="$HERE/grpcclient/target/classpath.txt" \
    -Dinterop.classesGrpcClient="$HERE/grpcclient/target/classes" \
    "$@" \
    -cp "$(cat "$HERE/target/classpath.txt"):$HERE/target/classes" "$main" &
  RUNNER_PID=$!
  set +e
  wait "$RUNNER_PID"
  interop_rc=$?
  set -e
  RUNNER_PID=""
  return "$interop_rc"
}
