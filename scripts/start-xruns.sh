#!/usr/bin/env bash
# The xruns of a chain's first seconds live (issue 34, "a clean start"): starts a fresh
# `jackd -d dummy` and `auhost run PRESET` on it RUNS times, asks `status` SECONDS after
# auhost says it runs, and prints each run's xruns, then the median and the range.
#
#   scripts/start-xruns.sh PRESET.json [RUNS=10] [SECONDS=2] [PERIOD=256]
#   AUHOST=.build/release/auhost (default)
#   JACKD_REALTIME=0   a server without real-time scheduling (default: -R, as a real rig runs;
#                      without it, the other processes of a loaded machine decide the xruns)
set -uo pipefail
preset=${1:?usage: scripts/start-xruns.sh PRESET.json [RUNS] [SECONDS] [PERIOD]}
runs=${2:-10} seconds=${3:-2} period=${4:-256}
auhost=${AUHOST:-.build/release/auhost}
work=$(mktemp -d -t auhost-start-xruns-XXXXXX)
trap 'rm -rf "$work"' EXIT
counts=()
for run in $(seq 1 "$runs"); do
  server="xruns-$$-$run"
  jackd -n "$server" "$([ "${JACKD_REALTIME:-1}" = 1 ] && echo -R || echo -r)" -d dummy -r 48000 -p "$period" >"$work/jackd.log" 2>&1 &
  jackd_pid=$!
  for _ in $(seq 1 100); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
  mkfifo "$work/in"
  "$auhost" run "$preset" --server "$server" <"$work/in" >"$work/out" 2>"$work/err" &
  auhost_pid=$!
  exec 3>"$work/in"
  for _ in $(seq 1 300); do grep -q "auhost: running" "$work/err" && break; sleep 0.05; done
  sleep "$seconds"
  echo status >&3
  for _ in $(seq 1 100); do grep -q "^ok rate=" "$work/out" && break; sleep 0.05; done
  xruns=$(grep -o " xruns=[0-9]*" "$work/out" | head -1 | cut -d= -f2)
  echo quit >&3
  exec 3>&-
  wait "$auhost_pid"
  kill "$jackd_pid" 2>/dev/null; wait "$jackd_pid" 2>/dev/null
  rm -f "$work/in" "$work/out"
  echo "run $run: xruns=${xruns:-?}"
  counts+=("${xruns:-999}")
done
sorted=($(printf '%s\n' "${counts[@]}" | sort -n))
echo "median=${sorted[$((runs / 2))]} min=${sorted[0]} max=${sorted[$((runs - 1))]} runs=$runs"
