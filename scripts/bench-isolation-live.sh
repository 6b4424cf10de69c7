#!/usr/bin/env bash
# What running plugins out of process costs live (docs/BENCHMARKS.md, "Plugins out of process"):
# `auhost run` of the reference chain on a `jackd -d dummy` of its own at a PERIOD-frame
# period (default 64), in process and with every plugin isolated (per-unit, together), RUNS
# times each, alternating the modes (and, with BASELINE, the builds); each run's `status`
# after SECONDS_LONG seconds (default 10): the graph's render time over the audio's
# (`graph_load`), and each isolated node's round trip (`isolated.NODE=…,mean_us=`); EXTRA adds
# options to every `auhost run` (EXTRA=--pipeline: a serial chain in two stages a period apart,
# a chain in one child one period behind). Release build:
#
#     swift build -c release --product auhost && swift build -c release --product auhost-unit-host
#     AUHOST=.build/release/auhost RUNS=3 [BASELINE=/tmp/old/auhost] scripts/bench-isolation-live.sh
set -euo pipefail
AUHOST=${AUHOST:-.build/release/auhost}
RUNS=${RUNS:-3}
PERIOD=${PERIOD:-64}
PRESET=${PRESET:-Presets/reference.json}
SECONDS_LONG=${SECONDS_LONG:-10}
MODES=${MODES:-none per-unit together}
EXTRA=${EXTRA:-}
server=auhost-bench-isolation-$$
jackd -n "$server" -d dummy -r 48000 -p "$PERIOD" > /dev/null 2>&1 &
jack=$!
trap 'kill "$jack" 2>/dev/null || true' EXIT
for _ in $(seq 50); do jack_lsp -s "$server" > /dev/null 2>&1 && break; sleep 0.2; done
jack_lsp -s "$server" > /dev/null 2>&1 || { echo "bench-isolation-live: jackd -n $server did not start" >&2; exit 1; }
builds=(new)
declare -A binary=([new]=$AUHOST)
if [ -n "${BASELINE:-}" ]; then builds=(baseline new); binary[baseline]=$BASELINE; fi
printf '%-9s %-10s %-12s %-6s %s\n' build isolation graph_load load "isolated round trips (mean_us)"
for _ in $(seq "$RUNS"); do
  for mode in $MODES; do
    for build in "${builds[@]}"; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      status=$( (sleep "$SECONDS_LONG"; echo status; sleep 1; echo quit) | "${binary[$build]}" run "$PRESET" --server "$server" --isolation "$mode" $EXTRA 2>&1 || true)
      graph=$(grep -o 'graph_load=[0-9.]*%' <<< "$status" | tail -1 | cut -d= -f2 || true)
      trips=$(grep -o 'isolated\.[a-z]*=[a-z]*,[^ ]*mean_us=[0-9.]*' <<< "$status" | sed 's/isolated\.\([a-z]*\)=.*mean_us=\(.*\)/\1:\2/' | paste -sd' ' - || true)
      printf '%-9s %-10s %-12s %-6s %s\n' "$build" "$mode" "${graph:-?}" "$load" "$trips"
    done
  done
done
