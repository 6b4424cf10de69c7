#!/usr/bin/env python3
"""docs/BENCHMARKS.md, "From Python": times, side by side in one run, on a release build
(swift build -c release --product auhost --product AUHostC; AUHOST_LIBRARY and AUHOST_BIN
default to .build/release):

  1. a 60 s stereo array through Presets/reference.json from Python (`chain(audio, 48000)`,
     a render: fresh graph, latency compensated, the tail) against `auhost render` of the
     same audio as a 32-bit float WAV (the process's whole wall time, reading and writing
     included), and checks the two outputs are equal;
  2. the same array through 8 native gain units (aufx:gain:AUHs) from Python, as a render
     (reset=True: a fresh graph, the tail checked) and as a stream (reset=False), against
     pip's pedalboard with 8 Gain plugins, `board(audio, rate)` (when `import pedalboard` works).

Each figure is the median of RUNS runs (default 5): python3 scripts/bench-python.py [RUNS]
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

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
TOOL = os.environ.get("AUHOST_BIN", os.path.join(REPO, ".build", "release", "auhost"))


def median_seconds(body, runs=RUNS):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def main():
    rate = 48000
    audio = (np.random.default_rng(60).standard_normal((2, 60 * rate)) * 0.1).astype(np.float32)
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

        gains = auhost.Chain(["aufx:gain:AUHs"] * 8, parameters={f"gain{'' if i == 0 else i + 1}.gain": -0.5 for i in range(8)}, tail=0, threads=1)
        ours, _ = median_seconds(lambda: gains(audio, rate))
        streamed, _ = median_seconds(lambda: gains.process(audio, rate, reset=False))
        large = auhost.Chain(["aufx:gain:AUHs"] * 8, parameters={f"gain{'' if i == 0 else i + 1}.gain": -0.5 for i in range(8)}, tail=0, threads=1, block_size=4096)
        large_streamed, _ = median_seconds(lambda: large.process(audio, rate, reset=False))
        line = (f"8 gain units, 60 s stereo: auhost {ours * 1000:.1f} ms (reset=True), {streamed * 1000:.1f} ms (reset=False), "
                f"{large_streamed * 1000:.1f} ms (reset=False, block_size=4096)")
        try:
            import pedalboard
        except ImportError:
            print(line + "; pedalboard not installed")
            return
        board = pedalboard.Pedalboard([pedalboard.Gain(gain_db=-0.5) for _ in range(8)])
        theirs, _ = median_seconds(lambda: board(audio, rate))
        difference = np.abs(gains(audio, rate) - board(audio, rate)).max()
        print(line + f", pedalboard {pedalboard.__version__} {theirs * 1000:.1f} ms; ratios {ours / theirs:.2f}, {streamed / theirs:.2f} "
              f"and {large_streamed / theirs:.2f}, largest difference {difference:.2e}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
