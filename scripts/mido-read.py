#!/usr/bin/env python3
"""Reads a Standard MIDI File with mido RUNS times (default 15) and prints the median.

    python3 scripts/mido-read.py PATH [RUNS]

PATH: the file written by `midi-read-bench --write PATH`.
"""
import importlib.metadata
import statistics
import sys
import time

import mido


def main() -> None:
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    times = []
    messages = 0
    for _ in range(runs):
        start = time.perf_counter()
        midi = mido.MidiFile(path)
        times.append((time.perf_counter() - start) * 1000)
        messages = sum(len(track) for track in midi.tracks)
    times.sort()
    print(f"mido {importlib.metadata.version('mido')} read {path}: {messages} messages")
    print(f"mido {runs} runs: median {statistics.median(times):.1f} ms, "
          f"spread {times[0]:.1f}..{times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
