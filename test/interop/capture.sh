#!/usr/bin/env bash
# Records golden frames from real RocketMQ software into testdata/frames/captured/ (see the README
# there): one reference NameServer, framecap proxies in front of it, 5.x and 4.9.x brokers and clients.
#
#   test/interop/capture.sh [OUTDIR]    # default OUTDIR: testdata/frames/captured
#   CAPTURE_ONLY=features5 test/interop/capture.sh   # only the 5.x zone/acting-master frames, merged
#                                                    # into the existing MANIFEST.tsv
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/testdata/frames/captured}"

# shellcheck source=lib.sh
. "$HERE/lib.sh"

interop_build || exit $?
interop_workdir
(cd "$ROOT" && go build -o "$WORK/framecap" ./test/interop/framecap)
mkdir -p "$OUT"
interop_java io.github.raftns.interop.CaptureMain -Dinterop.framecap="$WORK/framecap" -Dinterop.captureOut="$(cd "$OUT" && pwd)" \
  -Dinterop.captureOnly="${CAPTURE_ONLY:-}"
