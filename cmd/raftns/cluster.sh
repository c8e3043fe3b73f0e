#!/usr/bin/env bash
# Starts a three-member RaftNS cluster on this machine in the foreground and
# stops all of it on Ctrl-C. Used by `make cluster`.
#   clients (namesrvAddr): 127.0.0.1:9876;127.0.0.1:9877;127.0.0.1:9878
#   cluster ports:         127.0.0.1:9866-9868
#   admin HTTP:            127.0.0.1:9856-9858
set -euo pipefail
bin=${1:-bin/raftns}
dir=${2:-./.cluster}
peers="n1=127.0.0.1:9866,n2=127.0.0.1:9867,n3=127.0.0.1:9868"
pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping the cluster"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait
}
trap stop INT TERM EXIT
for i in 1 2 3; do
  mkdir -p "$dir/n$i"
  "$bin" --id "n$i" --data-dir "$dir/n$i" \
    --listen "127.0.0.1:987$((5 + i))" --cluster-addr "127.0.0.1:986$((5 + i))" \
    --http-addr "127.0.0.1:985$((5 + i))" --peers "$peers" > >(sed -u "s/^/[n$i] /") 2>&1 &
  pids+=($!)
done
echo "three members starting; brokers and clients use namesrvAddr=127.0.0.1:9876;127.0.0.1:9877;127.0.0.1:9878"
wait
