#!/usr/bin/env python3
"""One `auhost render` of a one-second stereo file through Presets/reference.json, the whole
process, against the C loop process (lv2-chain-bench --file, the same five plugins) at the
same block size (docs/SCALE.md; the issue's target: within 1.5x). With BASELINE (another
build's auhost, its native unit libraries beside it as in a build folder), its runs
alternate with AUHOST's and the C loop's in the same minutes. Medians of RUNS triples:

    AUHOST=.build/release/auhost [BASELINE=/path/to/old/auhost] [RUNS=41] [BLOCK=512] python3 scripts/bench-start.py
"""

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AUHOST = os.path.realpath(os.environ.get("AUHOST", os.path.join(REPO, ".build", "release", "auhost")))
RUNS = int(os.environ.get("RUNS", "41"))
BLOCK = os.environ.get("BLOCK", "512")


def timed(command):
    """Wall seconds and CPU seconds (user + system, every thread) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"failed ({status}): {command}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main():
    folder = tempfile.mkdtemp(prefix="auhost-bench-start-")
    try:
        source = os.path.join(folder, "in1.wav")
        subprocess.run([sys.executable, os.path.join(REPO, "scripts", "bench-input.py"), source, "1"], check=True)
        preset = os.path.join(REPO, "Presets", "reference.json")
        render = f"render {preset} {source} -o {folder}/out.wav --tail 0 --bit-depth 16 --force --block {BLOCK}"
        commands = {"auhost": f"{AUHOST} {render}"}
        if os.environ.get("BASELINE"):
            commands["baseline"] = f"{os.path.realpath(os.environ['BASELINE'])} {render}"
        commands["C loop"] = f"{os.path.join(os.path.dirname(AUHOST), 'lv2-chain-bench')} --file {source} {folder}/c.wav --block {BLOCK}"
        for command in commands.values():
            timed(command)  # warm-up: the discovery cache, the page cache
        load = os.getloadavg()[0]
        times = {name: [] for name in commands}
        for run in range(RUNS):
            names = list(commands) if run % 2 == 0 else list(reversed(commands))
            for name in names:
                times[name].append(timed(commands[name]))
        loop = times.pop("C loop")
        print(f"one 1 s file, whole process, --block {BLOCK}, {RUNS} alternating runs, load average {load:.2f} -> {os.getloadavg()[0]:.2f}")
        for name, runs in times.items():
            ratios = [ours[0] / theirs[0] for ours, theirs in zip(runs, loop)]
            print(f"  {name:8} wall {statistics.median([w for w, _ in runs]) * 1000:.1f} ms, CPU {statistics.median([c for _, c in runs]) * 1000:.1f} ms;"
                  f" against the C loop: median {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})")
        print(f"  C loop   wall {statistics.median([w for w, _ in loop]) * 1000:.1f} ms, CPU {statistics.median([c for _, c in loop]) * 1000:.1f} ms")
    finally:
        subprocess.run(["rm", "-rf", folder], check=False)


if __name__ == "__main__":
    main()
