#!/usr/bin/env bash
# Interoperability harness of RaftNS: real Apache RocketMQ brokers, clients and mqadmin
# (fetched from Maven Central, never copied into the repository) against three name servers.
#
#   test/interop/run.sh                  # three bin/raftns members (built here unless RAFTNS_BIN is set)
#   NAMESRV=java test/interop/run.sh     # three reference NameServers: validates the harness itself
#
# Prints one "PASS name" / "FAIL name: reason" / "SKIP name: reason" line per check and ends with
# "N passed, M failed[, K skipped]"; exits non-zero when a check failed. See README.md for every knob.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
NAMESRV="${NAMESRV:-raftns}"

case "$NAMESRV" in
  java|raftns) ;;
  *) echo "run.sh: NAMESRV must be java or raftns, not '$NAMESRV'" >&2; exit 2 ;;
esac

# shellcheck source=lib.sh
. "$HERE/lib.sh"

interop_build || exit $?

RAFTNS_BIN="${RAFTNS_BIN:-}"
if [ "$NAMESRV" = raftns ] && [ -z "$RAFTNS_BIN" ]; then
  echo "# building bin/raftns"
  (cd "$ROOT" && go build -o bin/raftns ./cmd/raftns)
  RAFTNS_BIN="$ROOT/bin/raftns"
fi

echo "# building bin/raftnsctl"
(cd "$ROOT" && go build -o bin/raftnsctl ./cmd/raftnsctl)

interop_workdir
props=(
  "-Dinterop.namesrv=$NAMESRV"
  "-Dinterop.raftns.bin=${RAFTNS_BIN:-$ROOT/bin/raftns}"
  "-Dinterop.raftnsctl.bin=$ROOT/bin/raftnsctl"
  "-Dinterop.raftns.extraArgs=${RAFTNS_EXTRA_ARGS:-}"
)
[ -n "${INTEROP_MESSAGES:-}" ] && props+=("-Dinterop.messages=$INTEROP_MESSAGES")
[ -n "${INTEROP_ONLY:-}" ] && props+=("-Dinterop.only=$INTEROP_ONLY")
[ -n "${BROKER_JVM_OPTS:-}" ] && props+=("-Dinterop.jvm.broker=$BROKER_JVM_OPTS")
[ -n "${INTEROP_EXPIRY_DEADLINE:-}" ] && props+=("-Dinterop.expiryDeadlineSeconds=$INTEROP_EXPIRY_DEADLINE")
[ -n "${INTEROP_CLOSE_DEADLINE:-}" ] && props+=("-Dinterop.closeDeadlineSeconds=$INTEROP_CLOSE_DEADLINE")
[ -n "${INTEROP_CONTROLLER_ROUNDS:-}" ] && props+=("-Dinterop.controllerRounds=$INTEROP_CONTROLLER_ROUNDS")
[ -n "${INTEROP_PROXY_STARTS:-}" ] && props+=("-Dinterop.proxyStarts=$INTEROP_PROXY_STARTS")
[ -n "${INTEROP_TIMEOUT_MINUTES:-}" ] && props+=("-Dinterop.timeoutMinutes=$INTEROP_TIMEOUT_MINUTES")

interop_java io.github.raftns.interop.Main "${props[@]}"
