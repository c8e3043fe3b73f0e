#!/usr/bin/env bash
# Starts a three-member RaftNS cluster on this machine in the foreground and
# stops all of it on Ctrl-C. Used by `make cluster`.
#   cluster.sh [BINARY [DIR [CLIENT_PORT [CLUSTER_PORT [ADMIN_PORT]]]]]
# Each member n1..n3 takes the given port plus 0, 1, 2; by default
#   clients (namesrvAddr): 127.0.0.1:9876;127.0.0.1:9877;127.0.0.1:9878
#   cluster ports:         127.0.0.1:9866-9868
#   admin HTTP:            127.0.0.1:9856-9858
set -euo pipefail
bin=${1:-bin/raftns}
dir=${2:-./.cluster}
client=${3:-9876}
cport=${4:-9866}
admin=${5:-9856}
for p in "$client" "$cport" "$admin"; do
  if ! [[ $p =~ ^[0-9]+$ ]] || ((p < 1 || p > 65533)); then
    echo "cluster.sh: port $p is not a number from 1 to 65533" >&2
    exit 2
  fi
done
peers="n1=127.0.0.1:$cport,n2=127.0.0.1:$((cport + 1)),n3=127.0.0.1:$((cport + 2))"
pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping the cluster"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait
}
trap stop INT TERM EXIT
for i in 0 1 2; do
  id="n$((i + 1))"
  mkdir -p "$dir/$id"
  "$bin" --id "$id" --data-dir "$dir/$id" \
    --listen "127.0.0.1:$((client + i))" --cluster-addr "127.0.0.1:$((cport + i))" \
    --http-addr "127.0.0.1:$((admin + i))" --peers "$peers" > >(sed -u "s/^/[$id] /") 2>&1 &
  pids+=($!)
done
echo "three members starting; brokers and clients use namesrvAddr=127.0.0.1:$client;127.0.0.1:$((client + 1));127.0.0.1:$((client + 2))"
wait
