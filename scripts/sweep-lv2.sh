#!/usr/bin/env bash
# Renders every installed LV2 plugin as a one-node chain, offline: plugins that take audio
# over 1 s of the test signal, plugins that take no audio (instruments, MIDI processors,
# generators) from a 1 s MIDI file of a few notes; what a plugin sends to the MIDI output
# goes to a .mid file. Every plugin with an audio or MIDI output must render; one with
# neither must fail with one "nothing to render" line. Prints one line per plugin that did
# not render and the counts per outcome; exits 1 when any plugin crashed, hung or failed
# otherwise (a plugin the loader refuses, or whose instantiate() returns NULL, is counted
# apart: its one error line names it).
# Usage: scripts/sweep-lv2.sh [AUHOST] (default .build/debug/auhost, which `swift build`
# builds with every native unit beside it; a release auhost needs `swift build -c release`)
set -uo pipefail
auhost=${1:-.build/debug/auhost}
work=$(mktemp -d "${TMPDIR:-/tmp}/auhost-sweep.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1 s of silence (16-bit stereo 48 kHz), then the test signal rendered over it.
bash "$(dirname "$0")/silence-wav.sh" 1 > "$work/silence.wav"
"$auhost" render Presets/test-signal.json "$work/silence.wav" -o "$work/audio.wav" --tail 0 >/dev/null 2>&1 \
  || { echo "sweep: cannot make the test signal with $auhost" >&2; exit 1; }
# A C major chord and a melody note on channel 1, 480 ticks a quarter at 120 BPM: 1 s.
{
  printf 'MThd\x00\x00\x00\x06\x00\x00\x00\x01\x01\xe0'
  printf 'MTrk\x00\x00\x00\x26'
  printf '\x00\x90\x3c\x64\x00\x90\x40\x64\x00\x90\x43\x64'   # C4 E4 G4 on
  printf '\x83\x60\x80\x3c\x00\x00\x80\x40\x00'               # after a half note: off
  printf '\x00\x80\x43\x00\x00\x90\x48\x64'                   # G4 off, C5 on
  printf '\x83\x60\x80\x48\x00\x00\xff\x2f\x00'               # after a half note: off, end
} > "$work/notes.mid"

declare -A count=()
failed=0
total=0
while read -r uri; do
  [ -n "$uri" ] || continue
  total=$((total + 1))
  preset="$work/p.json"
  printf '{"auhost": 1, "name": "sweep", "nodes": [{"id": "p", "unit": "lv2:%s"}], "chain": ["p"]}\n' "$uri" > "$preset"
  input="$work/audio.wav"
  if "$auhost" info "lv2:$uri" 2>/dev/null | grep -q '^  inputs: none'; then input="$work/notes.mid"; fi
  # render INPUT [--midi-out FILE]: sets errors and status.
  render() {
    errors=$(timeout -k 5 60 "$auhost" render "$preset" "$1" -o "$work/out.wav" "${@:2}" --tail 0 --force 2>&1 >/dev/null)
    status=$?
  }
  render "$input" --midi-out "$work/out.mid"
  if [ $status -ne 0 ] && echo "$errors" | grep -q "a MIDI file needs a unit that takes MIDI"; then
    # A generator that takes neither audio nor MIDI: render it over the audio's length.
    input="$work/audio.wav"
    render "$input" --midi-out "$work/out.mid"
  fi
  if [ $status -ne 0 ] && echo "$errors" | grep -q "sends MIDI to the graph's MIDI output"; then
    # No MIDI output: render the audio alone.
    render "$input"
  fi
  if [ $status -eq 0 ]; then
    outcome=rendered
  elif echo "$errors" | grep -q "nothing to render"; then
    outcome="nothing to render"
  elif [ $status -eq 124 ] || [ $status -eq 137 ]; then
    outcome=hung; failed=1
  elif [ $status -ge 128 ]; then
    outcome="crashed (signal $((status - 128)))"; failed=1
  elif echo "$errors" | grep -q -E "probe|requires|unavailable|cannot be made|could not be made|instantiate\(\) returned NULL"; then
    outcome="refused (by the loader, or the plugin's instantiate)"
  else
    outcome="failed"; failed=1
  fi
  count[$outcome]=$(( ${count[$outcome]:-0} + 1 ))
  [ "$outcome" = rendered ] || echo "$outcome: $uri: $(echo "$errors" | grep -v '^$' | tail -n 1)"
done < <(lv2ls 2>/dev/null)

echo "sweep: $total LV2 plugins"
for outcome in "${!count[@]}"; do echo "  $outcome: ${count[$outcome]}"; done | sort
exit $failed
