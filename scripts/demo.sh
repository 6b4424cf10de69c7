#!/usr/bin/env bash
# The demo: what AUHost finds on this machine, a close look at one unit, then a shipped
# chain preset rendered offline over a test signal that auhost generates itself.
# Usage: scripts/demo.sh [AUHOST] (default .build/debug/auhost); results go to build/demo/.
set -euo pipefail
auhost=${1:-.build/debug/auhost}
demo=${DEMO_DIR:-build/demo}
preset=${DEMO_PRESET:-Presets/vocal.json}

echo "== auhost --version"
"$auhost" --version
echo
echo "== units by format"
for format in builtin native lv2; do
  printf '%-8s %s units\n' "$format" "$("$auhost" list --format "$format" 2>/dev/null | wc -l)"
done
echo
# Lists are captured before they are cut or searched: 'auhost list | head' under pipefail
# fails (status 141, SIGPIPE) as soon as the list is longer than head reads.
echo "== auhost list --type aumu (instruments)"
instruments=$("$auhost" list --type aumu 2>/dev/null)
if [ -n "$instruments" ]; then head -n 12 <<< "$instruments"; fi
echo
unit=aufx:splt:AUHs
lv2_units=$("$auhost" list --format lv2 2>/dev/null)
if grep -qF 'http://plugin.org.uk/swh-plugins/amp' <<< "$lv2_units"; then unit=http://plugin.org.uk/swh-plugins/amp; fi
echo "== auhost info $unit"
"$auhost" info "$unit"
echo

mkdir -p "$demo"
echo "== auhost graph $preset"
"$auhost" graph "$preset"
if command -v dot >/dev/null 2>&1; then
  "$auhost" graph "$preset" --svg "$demo/$(basename "$preset" .json).svg"
else
  echo "(Graphviz is not installed: no drawing; 'make deps' installs it)"
fi
echo

seconds=4
bash "$(dirname "$0")/silence-wav.sh" "$seconds" > "$demo/silence.wav"

echo "== the input: Presets/test-signal.json (a generator chain) rendered over $seconds s of silence"
"$auhost" render Presets/test-signal.json "$demo/silence.wav" -o "$demo/input.wav" --tail 0 --force
echo
output="$demo/$(basename "$preset" .json).wav"
echo "== auhost render $preset $demo/input.wav -o $output"
"$auhost" render "$preset" "$demo/input.wav" -o "$output" --force
echo
echo "The result is $output ($(du -h "$output" | cut -f1)): the input above through '$preset'."
echo "Compare it with $demo/input.wav; 'auhost graph $preset' shows the chain."
echo
echo "== MIDI between units: auhost render Presets/arpeggiated-synth.json Presets/arpeggio-chords.mid"
"$auhost" graph Presets/arpeggiated-synth.json | sed -n '/MIDI connections/,/Latency/p'
"$auhost" render Presets/arpeggiated-synth.json Presets/arpeggio-chords.mid -o "$demo/arpeggiated-synth.wav" \
  --midi-out "$demo/arpeggiated-synth.mid" --force
echo "Four held chords (Am F C G) became sixteenth-note arpeggios: $demo/arpeggiated-synth.wav,"
echo "and the notes the arpeggiator played are in $demo/arpeggiated-synth.mid."
echo

echo "== A two-track song: auhost midi info Presets/two-part-song.mid, then through Presets/two-part-band.json"
"$auhost" midi info Presets/two-part-song.mid
"$auhost" render Presets/two-part-band.json Presets/two-part-song.mid -o "$demo/two-part-song.wav" --force
echo "A MusicPlayer played it: track 1 (the melody) on the lead synth, track 2 (the bass) on the bass synth,"
echo "as the preset's \"tracks\" say, across its tempo change and 3/4 bar: $demo/two-part-song.wav."
echo "Live on JACK: auhost play Presets/two-part-song.mid --preset Presets/two-part-band.json --connect"
echo

echo "== The same song on the General MIDI sampler: auhost render Presets/gm-sampler.json Presets/two-part-song.mid"
"$auhost" render Presets/gm-sampler.json Presets/two-part-song.mid -o "$demo/two-part-song-gm.wav" --force
echo "The song's own programs (1, Acoustic Grand Piano; 34, Electric Bass) from the GM SoundFont: $demo/two-part-song-gm.wav."
