#!/usr/bin/env bash
# The offline benchmark of docs/BENCHMARKS.md: auhost render of Presets/reference.json over
# a 60 s stereo 48 kHz 16-bit WAV against the same five plugins as a pipeline of lv2file
# processes and against the package's C loop doing the same read, process and write
# (lv2-chain-bench --file), in one hyperfine run; then --jobs 2 against --jobs 1 over 8
# such files. Needs a release build (swift build -c release) and the hyperfine and lv2file
# packages.
set -euo pipefail
cd "$(dirname "$0")/.."
auhost=$(realpath "${AUHOST:-.build/release/auhost}")
cloop=$(dirname "$auhost")/lv2-chain-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/bench-input.py "$work/in60.wav" 60
mkdir -p "$work/batch"
for i in $(seq 1 8); do cp "$work/in60.wav" "$work/batch/f$i.wav"; done
cat > "$work/pipeline.sh" <<'SH'
#!/usr/bin/env bash
set -e
d=$(mktemp -d)
lv2file -i "$1" -o $d/1.wav http://gareus.org/oss/lv2/fil4#stereo >/dev/null
lv2file -i $d/1.wav -o $d/2.wav http://plugin.org.uk/swh-plugins/sc4 >/dev/null
lv2file -i $d/2.wav -o $d/3.wav http://drobilla.net/plugins/mda/Delay >/dev/null
lv2file -i $d/3.wav -o $d/4.wav http://drobilla.net/plugins/mda/Ambience >/dev/null
lv2file -i $d/4.wav -o "$2" http://gareus.org/oss/lv2/dpl#stereo >/dev/null
rm -rf "$d"
SH
chmod +x "$work/pipeline.sh"
preset=$PWD/Presets/reference.json
mkdir -p "$work/out1" "$work/out2"
cd "$work"
hyperfine -N --warmup 1 --runs ${RUNS:-7} \
  -n "auhost render" "$auhost render $preset in60.wav -o out.wav --tail 0 --bit-depth 16 --force" \
  -n "lv2file pipeline" "./pipeline.sh in60.wav pipe-out.wav" \
  -n "C loop" "$cloop --file in60.wav c-out.wav --block 1024"
hyperfine -N --runs ${JOB_RUNS:-3} \
  -n "jobs 1" "$auhost render $preset $(echo batch/f{1..8}.wav) --output-dir out1 --tail 0 --bit-depth 16 --force --jobs 1" \
  -n "jobs 2" "$auhost render $preset $(echo batch/f{1..8}.wav) --output-dir out2 --tail 0 --bit-depth 16 --force --jobs 2"
