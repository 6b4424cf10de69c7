#!/usr/bin/env bash
# Builds and runs the outside packages in Examples/ against this one: GraphToFile renders a
# graph into a file (which must exist and not be silent); PlayLive plays a tone for ~2 s on
# a jackd of its own (-d dummy), and must fail with one line when the server is missing;
# CoreAudioSwift renders an AUGraph offline through the AudioToolbox C API from Swift;
# SamplerSequence (seed 002) plays a tune through MusicPlayer into an AUSampler, to a file.
# Exits non-zero on any failure. Needs jackd (jackd2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
jackd_pid=
cleanup() {
  if [ -n "$jackd_pid" ]; then kill "$jackd_pid" 2>/dev/null || true; wait "$jackd_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "run-examples: $*" >&2; exit 1; }

echo "== building the package (the native units GraphToFile loads) and the examples"
swift build
# One scratch folder for both examples: AUHost, their dependency, is built once for the two.
examples_build=$root/.build/examples
for example in GraphToFile PlayLive CoreAudioSwift SamplerSequence; do swift build --package-path "Examples/$example" --scratch-path "$examples_build"; done

echo "== GraphToFile"
AUHOST_PLUGIN_PATH="$root/.build/debug" "$examples_build/debug/GraphToFile" "$work/graph.wav"
[ -s "$work/graph.wav" ] || fail "GraphToFile wrote no file"
# Past the header, some byte is not zero: the file is not silent.
[ "$(tail -c +1025 "$work/graph.wav" | tr -d '\000' | head -c 16 | wc -c)" -gt 0 ] || fail "GraphToFile wrote silence"

echo "== PlayLive"
server=auhost-example-$$
jackd -n "$server" -d dummy -r 48000 -p 256 >"$work/jackd.log" 2>&1 &
jackd_pid=$!
for _ in $(seq 100); do
  JACK_DEFAULT_SERVER=$server jack_lsp >/dev/null 2>&1 && break
  kill -0 "$jackd_pid" 2>/dev/null || fail "jackd exited: $(cat "$work/jackd.log")"
  sleep 0.1
done
JACK_DEFAULT_SERVER=$server jack_lsp >/dev/null 2>&1 || fail "jackd -n $server did not come up"
output=$(timeout 30 "$examples_build/debug/PlayLive" 2 "$server") || fail "PlayLive failed: $output"
echo "$output"
grep -Eq "^rendered [1-9][0-9]* frames in [1-9][0-9]* cycles, 0 errors$" <<<"$output" || fail "PlayLive rendered nothing"
if errors=$(timeout 30 "$examples_build/debug/PlayLive" 1 "no-such-server-$$" 2>&1 >/dev/null); then
  fail "PlayLive succeeded without a server"
fi
[ "$(wc -l <<<"$errors")" -eq 1 ] || fail "a missing server should give one error line, not: $errors"
echo "$errors (as expected)"
echo "== CoreAudioSwift (Swift written for Apple's AudioToolbox, docs/AUDIOTOOLBOX.md)"
output=$("$examples_build/debug/CoreAudioSwift") || fail "CoreAudioSwift failed: $output"
echo "$output"
echo "== SamplerSequence (seed 002: MusicPlayer into an AUSampler, docs/AUDIOTOOLBOX.md)"
AUHOST_DEVICE="file:$work/tune.wav" timeout 60 "$examples_build/debug/SamplerSequence" || fail "SamplerSequence failed"
[ "$(tail -c +1025 "$work/tune.wav" | tr -d '\000' | head -c 16 | wc -c)" -gt 0 ] || fail "SamplerSequence wrote silence"
echo "== examples ok"
