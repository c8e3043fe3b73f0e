#!/usr/bin/env bash
# Write throughput of three voters with and without two non-voters
# (docs/operators/operations.md, "Several zones"): starts three voters in
# zone a and two non-voters in zone b on 127.0.0.1, then alternates
# raftns-bench write rounds through the leader with the non-voters running
# and stopped (STOP=term, the default: SIGTERM, started again before the
# next round with them; STOP=pause: SIGSTOP, then SIGCONT), ROUNDS times
# each, and prints each round's ops/s and the ratio of the medians.
# NONVOTER_NICE=N starts the non-voters under `nice -n N`: on a machine
# whose cores the voters and the load generator already fill, N=19 leaves
# the non-voters only CPU nobody else wants, so the ratio shows what
# replicating to them costs the voters rather than what two more processes
# cost a small machine (non-voters run on machines of their own in a real
# deployment). Needs bin/raftns, bin/raftnsctl and bin/raftns-bench (make build).
set -euo pipefail
NONVOTER_NICE=${NONVOTER_NICE:-0}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5s}
CLIENTS=${CLIENTS:-8}
BIN=${BIN:-bin}
STOP=${STOP:-term}
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

# free_port asks the OS for a free port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

declare -A client cluster http pid
for id in a1 a2 a3 b1 b2; do
	client[$id]=127.0.0.1:$(free_port); cluster[$id]=127.0.0.1:$(free_port); http[$id]=127.0.0.1:$(free_port)
done
peers="a1=${cluster[a1]},a2=${cluster[a2]},a3=${cluster[a3]}"

start() { # start ID ARGS...
	local id=$1; shift
	local nice=0
	case $id in b*) nice=$NONVOTER_NICE ;; esac
	mkdir -p "$work/$id"
	nice -n "$nice" "$BIN/raftns" --id "$id" --listen "${client[$id]}" --cluster-addr "${cluster[$id]}" --http-addr "${http[$id]}" \
		--data-dir "$work/$id/data" "$@" >>"$work/$id/log" 2>&1 &
	pid[$id]=$!; pids+=($!)
}
wait_ready() { # wait_ready ID
	for _ in $(seq 600); do
		curl -fs "http://${http[$1]}/readyz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "$1 not ready; log:" >&2; tail -20 "$work/$1/log" >&2; exit 1
}

for id in a1 a2 a3; do start "$id" --zone a --peers "$peers"; done
for id in a1 a2 a3; do wait_ready "$id"; done
for id in b1 b2; do
	start "$id" --zone b --bootstrap=false
	for _ in $(seq 100); do grep -q "raftns member started" "$work/$id/log" && break; sleep 0.1; done
	"$BIN/raftnsctl" --addr "${http[a1]}" peers add --non-voter "$id" "${cluster[$id]}" >/dev/null
	wait_ready "$id"
done
"$BIN/raftnsctl" --addr "${http[a1]}" peers list

leader() {
	for _ in $(seq 100); do
		for id in a1 a2 a3; do
			# Read the whole answer first: grep -q stopping early would
			# fail curl, and the pipeline with it, under pipefail.
			local status
			status=$(curl -fs "http://${http[$id]}/v1/status" || true)
			if grep -q '"state": *"Leader"' <<<"$status"; then echo "$id"; return; fi
		done
		sleep 0.1
	done
	echo "no leader among a1 a2 a3" >&2; exit 1
}
round() { # round LABEL
	local l; l=$(leader)
	"$BIN/raftns-bench" write -addrs "${client[$l]}" -clients "$CLIENTS" -duration "$DURATION" -json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["results"]["opsPerSecond"])' |
		while read -r ops; do echo "$1 $ops"; done
}
results=$work/results
for r in $(seq "$ROUNDS"); do
	round with >>"$results"
	if [ "$STOP" = pause ]; then
		for id in b1 b2; do kill -STOP "${pid[$id]}"; done
		round without >>"$results"
		for id in b1 b2; do kill -CONT "${pid[$id]}"; done
	else
		for id in b1 b2; do kill -TERM "${pid[$id]}"; wait "${pid[$id]}" 2>/dev/null || true; done
		round without >>"$results"
		for id in b1 b2; do start "$id" --zone b --bootstrap=false; done
	fi
	for id in b1 b2; do wait_ready "$id"; done
	echo "round $r: $(tail -2 "$results" | tr '\n' ' ')"
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
w = [float(v) for k, v in rows if k == "with"]
wo = [float(v) for k, v in rows if k == "without"]
print(f"with non-voters:    median {statistics.median(w):.0f} ops/s  {[round(x) for x in w]}")
print(f"without non-voters: median {statistics.median(wo):.0f} ops/s  {[round(x) for x in wo]}")
print(f"ratio with/without: {statistics.median(w) / statistics.median(wo):.3f}")
PY
