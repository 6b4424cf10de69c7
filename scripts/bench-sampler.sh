#!/usr/bin/env bash
# The sampler benchmark of docs/BENCHMARKS.md ("The sampler against fluidsynth"): a
# General MIDI song of 2:19 on 11 channels (drums on 10, program changes), written by
# sampler-bench with a fixed seed (Presets/gm-song.mid), rendered by `auhost render` through the sampler
# (aumu:samp:AUHs) and by the fluidsynth tool's fast render, alternately, RUNS times each
# (default 7), with the same settings: the GM bank, 48 kHz, 32-bit float WAV, gain 0.2,
# polyphony 256, 4th-order interpolation, reverb and chorus on with FluidSynth's default
# amounts (the sampler's defaults are FluidSynth's; both are also given explicitly). Prints
# each run's wall time, the medians, min-max, the ratio auhost / fluidsynth, and how far the
# two outputs agree (sampler-bench compare). EFFECTS=0 renders with reverb and chorus off
# in both. Needs the release build of auhost and sampler-bench, and Debian's fluidsynth.
set -euo pipefail
cd "$(dirname "$0")/.."
auhost=$(realpath "${AUHOST:-.build/release/auhost}")
tool=$(dirname "$auhost")/sampler-bench
bank=$(realpath /usr/share/sounds/sf2/default-GM.sf2)
runs=${RUNS:-7}
effects=${EFFECTS:-1}
command -v fluidsynth >/dev/null || { echo "bench-sampler: fluidsynth is not installed (apt-get install fluidsynth)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" song "$work/song.mid"
cmp -s "$work/song.mid" Presets/gm-song.mid || echo "bench-sampler: note: the song written differs from Presets/gm-song.mid" >&2
# The sampler's node takes the same bank file fluidsynth gets.
cat > "$work/gm.json" <<JSON
{"auhost": 1, "name": "GM", "nodes": [{"id": "gm", "unit": "aumu:samp:AUHs", "soundbank": "$bank"}], "chain": ["gm"]}
JSON
# fluidsynth has no option for the interpolation: a command file sets it (4: 4th order, its default).
echo "interp 4" > "$work/interp.cfg"
# SDL's dummy audio driver: its PulseAudio one would leave a runtime folder in TMPDIR.
fs=(env SDL_AUDIODRIVER=dummy fluidsynth -ni -f "$work/interp.cfg" -g 0.2 -o synth.polyphony=256 -R "$effects" -C "$effects" -r 48000
    -O float -T wav -F "$work/fluidsynth.wav" "$bank" "$work/song.mid")
au=("$auhost" render "$work/gm.json" "$work/song.mid" -o "$work/auhost.wav" --bit-depth 32f --force
    --set gm.gain=0.2 --set gm.polyphony=256 --set gm.interpolation=2 --set gm.reverb="$effects" --set gm.chorus="$effects")
# One timed run: its wall time and its CPU time (user + system, all threads), in seconds.
timed() {
    local TIMEFORMAT='%R %U %S' line
    line=$( { time "$@" >/dev/null 2>"$work/stderr"; } 2>&1 ) || { cat "$work/stderr" >&2; exit 1; }
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<< "$line"
}
# One run of each to warm the page cache (the bank is 148 MB). fluidsynth renders past the
# song's end until its voices are released; auhost renders as long, with that as its tail.
timed "${fs[@]}" >/dev/null; timed "${au[@]}" --tail 0 >/dev/null
tail=$(awk -v f="$("$tool" seconds "$work/fluidsynth.wav")" -v a="$("$tool" seconds "$work/auhost.wav")" 'BEGIN {printf "%.6f", f - a}')
au+=(--tail "$tail")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "fluidsynth: ${fs[*]}"
echo "auhost:     ${au[*]}"
: > "$work/fs.times"; : > "$work/au.times"
for i in $(seq 1 "$runs"); do
    # Alternate which goes first, so neither always follows the other.
    if (( i % 2 )); then
        timed "${fs[@]}" >> "$work/fs.times"; timed "${au[@]}" >> "$work/au.times"
    else
        timed "${au[@]}" >> "$work/au.times"; timed "${fs[@]}" >> "$work/fs.times"
    fi
    read -r fw fc < <(tail -1 "$work/fs.times"); read -r aw ac < <(tail -1 "$work/au.times")
    echo "run $i: fluidsynth $fw s (CPU $fc s), auhost $aw s (CPU $ac s)"
done
# The median and the range of column $2 of file $1.
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
spread() { cut -d' ' -f"$2" "$1" | sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "-" hi}'; }
for column in 1 2; do
    what=$([[ $column == 1 ]] && echo "wall" || echo "CPU")
    fsm=$(median "$work/fs.times" $column); aum=$(median "$work/au.times" $column)
    echo "$what time: fluidsynth median $fsm s ($(spread "$work/fs.times" $column)), auhost median $aum s ($(spread "$work/au.times" $column)); ratio auhost / fluidsynth $(awk -v a="$aum" -v f="$fsm" 'BEGIN {printf "%.3f", a / f}')"
done
echo "agreement (auhost against fluidsynth):"
"$tool" compare "$work/auhost.wav" "$work/fluidsynth.wav"
