#!/usr/bin/env bash
# The live benchmark of docs/BENCHMARKS.md: the reference chain (Presets/reference.json)
# at 64 frames and 48 kHz on JACK's dummy driver with real-time scheduling (-R), SECONDS
# long (default 60), run (1) as one auhost client and (2) as five jalv clients wired in
# series, one after the other on fresh servers, each watched by scripts/jack-monitor.c;
# first, the same time with no chain at all gives the machine's own xrun rate.
# Needs a release build (swift build -c release) and the jalv package.
#
# `scripts/bench-live.sh SECONDS threads [ROUNDS]` measures render workers instead: the
# two-branch graph (Presets/two-branches.json) as one auhost client with `--threads 1`
# (single-threaded) and `--threads 2` (JACK's thread and one render worker), alternating
# for ROUNDS rounds (default 3), each round after an idle server of its own, and the floor:
# one client whose chain is a single built-in EQ (what a client costs the server before
# any DSP).
#
# `scripts/bench-live.sh SECONDS pipeline [ROUNDS] [PERIOD]` measures pipelining: the
# reference chain with `--threads 1` and with `--threads 2 --pipeline` (two stages one
# period apart), alternating, at PERIOD frames (default 1024).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
mode=${2:-jalv}
period=64
[[ $mode == pipeline ]] && period=${4:-1024}
auhost=${AUHOST:-.build/release/auhost}
monitor=$(mktemp -d)/jack-monitor
cc -O2 -o "$monitor" scripts/jack-monitor.c -ljack
uris=(http://gareus.org/oss/lv2/fil4#stereo http://plugin.org.uk/swh-plugins/sc4
      http://drobilla.net/plugins/mda/Delay http://drobilla.net/plugins/mda/Ambience http://gareus.org/oss/lv2/dpl#stereo)

start_server() {
  server=bench-live-$$-$1
  jackd -R -n "$server" -d dummy -r 48000 -p "$period" >/dev/null 2>&1 &
  jackd_pid=$!
  for _ in $(seq 100); do JACK_DEFAULT_SERVER=$server jack_lsp >/dev/null 2>&1 && return; sleep 0.1; done
  echo "jackd did not start" >&2; exit 1
}
stop_server() { kill "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true; }

idle() {
  echo "== baseline, the server with no chain: $seconds s (the machine's own xruns)"
  start_server idle
  sleep 3
  echo "idle    $("$monitor" "$server" "$seconds")"
  stop_server
}

# run_auhost LABEL PRESET [ARGUMENTS...]: one auhost client on a fresh server, watched; then
# the graph's own load over the same seconds (`status` at the start and at the end).
run_auhost() {
  local label=$1 preset=$2 replies
  shift 2
  echo "== $label: $seconds s"
  start_server auhost
  replies=$(mktemp)
  (sleep 3; echo status; sleep "$seconds"; echo status; sleep 30) | "$auhost" run "$preset" --server "$server" --connect "$@" >"$replies" 2>/dev/null &
  auhost_pid=$!
  sleep 3
  echo "$label  $("$monitor" "$server" "$seconds")"
  sleep 0.5
  echo "$label  $(tail -1 "$replies" | grep -o 'graph_load=[^ ]*') $(tail -1 "$replies" | grep -o 'threads=[0-9]* plan=[a-z]*')"
  kill "$auhost_pid"; wait "$auhost_pid" 2>/dev/null || true
  rm -f "$replies"
  stop_server
}

if [[ $mode == threads ]]; then
  for round in $(seq "${3:-3}"); do
    echo "== round $round"
    idle
    run_auhost "floor" aufx:ipeq:AUHs --threads 1
    run_auhost "threads1" Presets/two-branches.json --threads 1
    run_auhost "threads2" Presets/two-branches.json --threads 2
  done
  exit 0
fi

if [[ $mode == pipeline ]]; then
  for round in $(seq "${3:-3}"); do
    echo "== round $round, $period-frame periods"
    idle
    run_auhost "threads1" Presets/reference.json --threads 1
    run_auhost "pipeline" Presets/reference.json --threads 2 --pipeline
  done
  exit 0
fi

idle
run_auhost auhost Presets/reference.json

echo "== five jalv clients in series: $seconds s"
start_server jalv
pids=()
for i in "${!uris[@]}"; do
  sleep "$((seconds + 30))" | JACK_DEFAULT_SERVER=$server jalv -x -n "jalv$i" "${uris[$i]}" >/dev/null 2>&1 &
  pids+=($!)
done
sleep 3
export JACK_DEFAULT_SERVER=$server
ports() { jack_lsp "$1" | grep -E "$2" || true; }
prev=(system:capture_1 system:capture_2)
for i in "${!uris[@]}"; do
  mapfile -t ins < <(jack_lsp -t "jalv$i" | paste - - | grep 'audio' | grep -v -i 'out' | cut -f1 | head -2)
  mapfile -t outs < <(jack_lsp -t "jalv$i" | paste - - | grep 'audio' | grep -i 'out' | cut -f1 | head -2)
  for c in 0 1; do jack_connect "${prev[$c]}" "${ins[$c]:-${ins[0]}}" 2>/dev/null || true; done
  prev=("${outs[0]}" "${outs[1]:-${outs[0]}}")
done
jack_connect "${prev[0]}" system:playback_1; jack_connect "${prev[1]}" system:playback_2
echo "jalv×5  $("$monitor" "$server" "$seconds")"
kill "${pids[@]}" 2>/dev/null || true
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
stop_server
