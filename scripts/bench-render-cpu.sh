#!/usr/bin/env bash
# Issue 32's four measurements of `auhost render`'s overhead over the package's C loop
# (lv2-chain-bench --file: the same five plugins through lilv, libsndfile in and out), in
# paired runs that alternate which side goes first, medians and spreads of each side and of
# the pairs' ratios (docs/BENCHMARKS.md, "Offline rendering: CPU against the C loop"):
#   1. the reference chain over 60 s of stereo, --block 64 --threads 1: CPU (user + system)
#      and wall against the C loop's (targets: CPU <= 1.10x, wall <= 1.05x);
#   2. the same with the default threads: wall against the C loop's (target <= 0.85x);
#   3. a 1 s file: wall of the whole process against the C loop process's (target <= 1.5x);
#   4. `auhost list`: wall (target <= 60 ms).
# Needs a release build: swift build -c release --product auhost; swift build -c release
# --product lv2-chain-bench. RUNS pairs per measurement (default 11).
#   AUHOST=.build/release/auhost RUNS=11 scripts/bench-render-cpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
auhost=$(realpath "${AUHOST:-.build/release/auhost}")
cloop=$(dirname "$auhost")/lv2-chain-bench
runs=${RUNS:-11}
preset=$PWD/Presets/reference.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import math, random, struct, sys, wave
random.seed(7)
def write(path, seconds, rate=48000):
    with wave.open(path, "wb") as f:
        f.setnchannels(2); f.setsampwidth(2); f.setframerate(rate)
        frames = bytearray()
        for n in range(seconds * rate):
            t = n / rate
            l = 0.3 * math.sin(2 * math.pi * 220 * t) + 0.05 * (random.random() - 0.5)
            r = 0.3 * math.sin(2 * math.pi * 330 * t) * (0.5 + 0.5 * math.sin(2 * math.pi * 0.5 * t))
            frames += struct.pack("<hh", int(l * 32767), int(r * 32767))
        f.writeframes(bytes(frames))
write(f"{sys.argv[1]}/in60.wav", 60)
write(f"{sys.argv[1]}/in1.wav", 1)
PY
cd "$work"
"$auhost" list > /dev/null   # fills the LV2 discovery cache

# time_run LABEL COMMAND...: appends "LABEL wall user system" (seconds) to times.txt.
time_run() {
    local label=$1; shift
    /usr/bin/time -f "$label %e %U %S" -a -o times.txt "$@" > /dev/null 2>> errors.txt
}

# pair NAME A-COMMAND B-COMMAND: RUNS pairs, the first side alternating, after one warm-up each.
pair() {
    local name=$1 a=$2 b=$3
    eval "$a" > /dev/null 2>&1; eval "$b" > /dev/null 2>&1
    for i in $(seq 1 "$runs"); do
        if (( i % 2 )); then
            eval "time_run $name:a $a"; eval "time_run $name:b $b"
        else
            eval "time_run $name:b $b"; eval "time_run $name:a $a"
        fi
    done
}

render="$auhost render $preset"
pair single "$render in60.wav -o out.wav --tail 0 --bit-depth 16 --force --block 64 --threads 1" \
            "$cloop --file in60.wav c.wav --block 64"
pair threads "$render in60.wav -o out.wav --tail 0 --bit-depth 16 --force --block 64" \
             "$cloop --file in60.wav c.wav --block 64"
pair short "$render in1.wav -o out1.wav --tail 0 --bit-depth 16 --force --block 64" \
           "$cloop --file in1.wav c1.wav --block 64"
for i in $(seq 1 "$runs"); do time_run list:a "$auhost" list; done

python3 - <<'PY'
import statistics as st
rows = {}
for line in open("times.txt"):
    parts = line.split()
    if len(parts) != 4: continue
    label, wall, user, system = parts[0], *map(float, parts[1:])
    rows.setdefault(label, []).append((wall, user + system))
def spread(values, scale=1.0, unit=""):
    return f"{st.median(values) * scale:.3f}{unit} (min {min(values) * scale:.3f}, max {max(values) * scale:.3f})"
def compare(name, title):
    a, b = rows[f"{name}:a"], rows[f"{name}:b"]
    print(f"{title}: {len(a)} pairs")
    print(f"  auhost  wall {spread([w for w, _ in a])} s, CPU {spread([c for _, c in a])} s")
    print(f"  C loop  wall {spread([w for w, _ in b])} s, CPU {spread([c for _, c in b])} s")
    print(f"  ratio   wall {spread([x[0] / y[0] for x, y in zip(a, b)])}x, CPU {spread([x[1] / y[1] for x, y in zip(a, b)])}x")
compare("single", "1. reference chain, 60 s, --block 64 --threads 1 (targets: CPU <= 1.10x, wall <= 1.05x)")
compare("threads", "2. reference chain, 60 s, --block 64, default threads (target: wall <= 0.85x)")
compare("short", "3. reference chain, 1 s file, whole process (target: wall <= 1.5x)")
lst = rows["list:a"]
print(f"4. auhost list ({len(lst)} runs; target <= 60 ms): wall {spread([w for w, _ in lst], 1000, ' ms')}, CPU {spread([c for _, c in lst], 1000, ' ms')}")
PY
