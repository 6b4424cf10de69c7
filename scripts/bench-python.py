#!/usr/bin/env python3
"""docs/BENCHMARKS.md, "From Python": times, side by side in one run, on a release build
(swift build -c release --product auhost --product AUHostC; AUHOST_LIBRARY and AUHOST_BIN
default to .build/release):

  1. a 60 s stereo array through Presets/reference.json from Python (`chain(audio, 48000)`,
     a render: fresh graph, latency compensated, the tail) against `auhost render` of the
     same audio as a 32-bit float WAV (the process's whole wall time, reading and writing
     included), and checks the two outputs are equal;
  2. the same array through 8 native gain units (aufx:gain:AUHs) from Python: with the
     package's defaults, with tail=0 and threads=1 (Pedalboard's output: as many frames as
     in, one thread), as a stream (reset=False) and at block_size=8192 (Pedalboard's
     buffer_size), against pip's pedalboard with 8 Gain plugins and its defaults,
     `board(audio, rate)` (buffer_size=8192, reset=True), when `import pedalboard` works;
     alternating runs, wall and CPU time;
  3. the same gain chains again, each in a fresh Python process of its own that makes one
     chain and times RUNS calls of it (alternating processes, three rounds): what a script
     that uses only one of them sees. Pedalboard's time depends on the process's history:
     glibc serves its large buffers from fresh mmap'd pages (a page fault per 4 KB each
     call) until something in the process has freed a larger block (raising glibc's
     dynamic mmap threshold), as the renders of parts 1 and 2 do.

Each figure is the median of RUNS runs (default 5): python3 scripts/bench-python.py [RUNS]
(`scripts/bench-python.py --one-way NAME RUNS` is part 3's child: one way, its median CPU
and wall time in ms on one line.)
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("AUHOST_LIBRARY", os.path.join(REPO, ".build", "release", "libAUHostC.so"))
sys.path.insert(0, os.path.join(REPO, "python"))

import numpy as np  # noqa: E402

import auhost  # noqa: E402

RUNS = int(sys.argv[1]) if len(sys.argv) == 2 else 5
TOOL = os.environ.get("AUHOST_BIN", os.path.join(REPO, ".build", "release", "auhost"))


def median_seconds(body, runs=RUNS):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def test_audio(rate):
    """60 s of stereo noise at 0.1 RMS, the same in every process."""
    return (np.random.default_rng(60).standard_normal((2, 60 * rate)) * 0.1).astype(np.float32)


def gain_ways(audio, rate):
    """The gain chains by name (with Pedalboard's when it imports), and Pedalboard's board,
    the defaults chain and the tail=0 chain for the outputs' comparison."""
    parameters = {f"gain{'' if i == 0 else i + 1}.gain": -0.5 for i in range(8)}
    defaults = auhost.Chain(["aufx:gain:AUHs"] * 8, parameters=parameters)
    gains = auhost.Chain(["aufx:gain:AUHs"] * 8, parameters=parameters, tail=0, threads=1)
    large = auhost.Chain(["aufx:gain:AUHs"] * 8, parameters=parameters, tail=0, threads=1, block_size=8192)
    ways = {
        "auhost defaults (block_size=512, reset=True, tail auto, threads: the cores)": lambda: defaults(audio, rate),
        "auhost tail=0, threads=1 (reset=True)": lambda: gains(audio, rate),
        "auhost tail=0, threads=1, reset=False": lambda: gains.process(audio, rate, reset=False),
        "auhost tail=0, threads=1, block_size=8192 (reset=True)": lambda: large(audio, rate),
    }
    try:
        import pedalboard

        board = pedalboard.Pedalboard([pedalboard.Gain(gain_db=-0.5) for _ in range(8)])
        ways[f"pedalboard {pedalboard.__version__} defaults, board(audio, rate) (buffer_size=8192, reset=True)"] = lambda: board(audio, rate)
    except ImportError:
        board = None
    return ways, board, defaults, gains


def time_calls(body, runs):
    """The median wall and CPU seconds of `runs` calls of `body`, after one."""
    body()
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        body()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(wall), statistics.median(cpu)


def one_way(name, runs):
    """Part 3's child: makes only the way `name` and prints its medians in ms."""
    rate = 48000
    ways = gain_ways(test_audio(rate), rate)[0]
    wall, cpu = time_calls(ways[name], runs)
    print(f"{cpu * 1000:.3f} {wall * 1000:.3f}")


def fresh_processes(names):
    """Part 3: each way in a process of its own, alternating, three rounds."""
    results = {name: [] for name in names}
    for _ in range(3):
        for name in names:
            done = subprocess.run([sys.executable, os.path.abspath(__file__), "--one-way", name, str(RUNS)],
                                  check=True, capture_output=True, text=True, timeout=600)
            results[name].append(tuple(float(field) for field in done.stdout.split()))
    print(f"the same, each in a fresh process of its own ({RUNS} calls after one, three alternating rounds; "
          f"each round's median CPU ms), load average {os.getloadavg()[0]:.1f}:")
    for name, rounds in results.items():
        print(f"  {name}: cpu " + ", ".join(f"{cpu:.1f}" for cpu, _ in rounds))


def main():
    rate = 48000
    audio = test_audio(rate)
    folder = tempfile.mkdtemp(prefix="auhost-bench-")
    try:
        source, output = os.path.join(folder, "in.wav"), os.path.join(folder, "out.wav")
        auhost.write(source, audio, rate, bit_depth="32f")
        reference = os.path.join(REPO, "Presets", "reference.json")
        chain = auhost.Chain.from_preset(reference)
        python, _ = median_seconds(lambda: chain(audio, rate))

        def render():
            subprocess.run([TOOL, "render", reference, source, "-o", output, "--bit-depth", "32f", "--block", "512", "--force"],
                           check=True, capture_output=True, timeout=600)

        tool, _ = median_seconds(render)
        equal = np.array_equal(chain(audio, rate), auhost.read(output)[0])
        print(f"reference chain, 60 s stereo: python {python * 1000:.0f} ms, auhost render {tool * 1000:.0f} ms, "
              f"ratio {python / tool:.3f}, outputs equal: {equal}")

        # The gain chains, in alternating runs: wall and CPU time (process_time) of each call.
        ways, board, defaults, gains = gain_ways(audio, rate)
        timings = {name: ([], []) for name in ways}
        for body in ways.values():
            body()
        for _ in range(RUNS):
            for name, body in ways.items():
                wall, cpu = time.perf_counter(), time.process_time()
                body()
                timings[name][1].append(time.process_time() - cpu)
                timings[name][0].append(time.perf_counter() - wall)
        print(f"8 gain units, -0.5 dB each, 60 s stereo, {RUNS} alternating runs, median (min-max) in ms, load average {os.getloadavg()[0]:.1f}:")
        for name, (wall, cpu) in timings.items():
            print(f"  {name}: wall {statistics.median(wall) * 1000:.1f} ({min(wall) * 1000:.1f}-{max(wall) * 1000:.1f}), "
                  f"cpu {statistics.median(cpu) * 1000:.1f} ({min(cpu) * 1000:.1f}-{max(cpu) * 1000:.1f})")
        if board is not None:
            theirs = board(audio, rate)
            print(f"  largest difference from pedalboard: tail=0 {np.abs(gains(audio, rate) - theirs).max():.2e}, "
                  f"defaults {np.abs(defaults(audio, rate)[:, : theirs.shape[1]] - theirs).max():.2e} (their length {theirs.shape[1]}, "
                  f"ours with tail auto {defaults(audio, rate).shape[1]})")
        fresh_processes(list(ways))
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one-way":
        one_way(sys.argv[2], int(sys.argv[3]))
    else:
        main()
