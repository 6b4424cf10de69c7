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
python3 scripts/bench-input.py "$work/in60.wav" 60
python3 scripts/bench-input.py "$work/in1.wav" 1
cd "$work"
"$auhost" list > /dev/null   # fills the LV2 discovery cache

render="$auhost render $preset"
RUNS=$runs python3 - "$render" "$cloop" <<'PY'
# Each command runs under os.wait4: wall time from perf_counter, CPU (user + system, all
# its threads) from the child's rusage, to the microsecond (/usr/bin/time rounds to 10 ms).
import os, shlex, statistics as st, subprocess, sys, time
render, cloop = sys.argv[1], sys.argv[2]
runs = int(os.environ["RUNS"])
def timed(command):
    start = time.perf_counter()
    child = subprocess.Popen(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0: sys.exit(f"failed ({status}): {command}")
    return wall, usage.ru_utime + usage.ru_stime
def spread(values, scale=1.0, unit=""):
    return f"{st.median(values) * scale:.3f}{unit} (min {min(values) * scale:.3f}, max {max(values) * scale:.3f})"
def loadAverage():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
def pair(title, a, b):
    load = loadAverage()  # the other processes' share of the cores, which the wall times include
    timed(a); timed(b)  # warm-up
    ours, theirs = [], []
    for i in range(runs):
        if i % 2 == 0:
            ours.append(timed(a)); theirs.append(timed(b))
        else:
            theirs.append(timed(b)); ours.append(timed(a))
    print(f"{title}: {runs} pairs, first side alternating; load average {load} before, {loadAverage()} after")
    print(f"  auhost  wall {spread([w for w, _ in ours])} s, CPU {spread([c for _, c in ours])} s")
    print(f"  C loop  wall {spread([w for w, _ in theirs])} s, CPU {spread([c for _, c in theirs])} s")
    print(f"  ratio   wall {spread([x[0] / y[0] for x, y in zip(ours, theirs)])}x, CPU {spread([x[1] / y[1] for x, y in zip(ours, theirs)])}x")
    sys.stdout.flush()
pair("1. reference chain, 60 s, --block 64 --threads 1 (targets: CPU <= 1.10x, wall <= 1.05x)",
     f"{render} in60.wav -o out.wav --tail 0 --bit-depth 16 --force --block 64 --threads 1", f"{cloop} --file in60.wav c.wav --block 64")
pair("2. reference chain, 60 s, --block 64, default threads (target: wall <= 0.85x)",
     f"{render} in60.wav -o out.wav --tail 0 --bit-depth 16 --force --block 64", f"{cloop} --file in60.wav c.wav --block 64")
pair("3. reference chain, 1 s file, whole process (target: wall <= 1.5x)",
     f"{render} in1.wav -o out1.wav --tail 0 --bit-depth 16 --force --block 64", f"{cloop} --file in1.wav c1.wav --block 64")
auhost = shlex.split(render)[0]
timed(f"{auhost} list")
load = loadAverage()
listed = [timed(f"{auhost} list") for _ in range(runs)]
print(f"4. auhost list ({runs} runs; target <= 60 ms; load average {load} before, {loadAverage()} after): wall {spread([w for w, _ in listed], 1000, ' ms')}, CPU {spread([c for _, c in listed], 1000, ' ms')}")
PY
