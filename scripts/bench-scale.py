#!/usr/bin/env python3
"""docs/SCALE.md's figures: FILES one-second stereo files (default 200) through
Presets/reference.json on this machine, three ways, on a release build:

  1. one `auhost render --jobs 2` over the list (--inputs-from, --relative-to, --results);
  2. two `auhost render --shard I/2` processes at once (a two-task Slurm array);
  3. auhost.dask.render on a distributed.LocalCluster of 2 worker processes, one thread each;

against the chain's pure DSP time: the C loop (lv2-chain-bench, the five plugins through
lilv at 512 frames a cycle, in memory) for the same audio, divided by the 2 cores; and against
the same batch's work in plain C: two `lv2-chain-bench --files` processes, each over half of
the files, reading each with libsndfile and writing it as 32-bit float, fsync'ed and renamed
into place, its folder fsync'ed, as `auhost render` does (`--sync`); once with the five
plugins instantiated anew for each file (`--fresh`: the clean start each of our files gets)
and once through one chain that carries its state from file to file; then both again
without `--sync` (written and renamed, nothing flushed: safe from a killed process, not from
a machine's crash), the barest file loop. Then, per
file, a long-lived chain from Python (a worker's): `chain(audio, 48000)` of one file
against the stream of the same audio (`reset=False`: the DSP alone, no clean start).

Every way writes 32-bit float outputs into a fresh folder; the script checks all three
wrote the same samples. TAIL (default 0.25) is `--tail`: 0 renders the same audio as the
C loop. python3 scripts/bench-scale.py [FILES]  (needs dask, distributed; lv2-chain-bench
built: swift build -c release --product lv2-chain-bench)
"""

import logging
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("AUHOST_LIBRARY", os.path.join(REPO, ".build", "release", "libAUHostC.so"))
os.environ["PYTHONPATH"] = os.path.join(REPO, "python") + os.pathsep + os.environ.get("PYTHONPATH", "")
sys.path.insert(0, os.path.join(REPO, "python"))

import numpy as np  # noqa: E402

import auhost  # noqa: E402
import auhost.dask  # noqa: E402

FILES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
TOOL = os.environ.get("AUHOST_BIN", os.path.join(REPO, ".build", "release", "auhost"))
PRESET = os.path.join(REPO, "Presets", "reference.json")
TAIL = os.environ.get("TAIL", "0.25")
CYCLES_PER_FILE = 48000 / 512


def c_loop_seconds(files):
    """The C loop's time for `files` one-second files: its median ns per 512-frame cycle
    (of 5 runs of 9,375 cycles, 100 s of audio) times the cycles of that audio."""
    loop = os.path.join(os.path.dirname(TOOL), "lv2-chain-bench")
    done = subprocess.run([loop, "9375", "512"], check=True, capture_output=True, text=True, timeout=3600)
    nanoseconds = float(re.search(r"ns/cycle=(\d+)", done.stdout).group(1))
    return nanoseconds * 1e-9 * CYCLES_PER_FILE * files


def c_file_loop_seconds(inputs, folder, fresh, durable=True):
    """Two lv2-chain-bench --files processes at once, each over half of `inputs`, as a batch
    writes (32-bit float, renamed into place, fsync'ed when `durable`), the plugins
    instantiated anew for each file when `fresh`: the batch's work in plain C."""
    loop = os.path.join(os.path.dirname(TOOL), "lv2-chain-bench")
    os.makedirs(folder)
    halves = []
    for half in range(2):
        listing = os.path.join(folder, f"half{half}.txt")
        with open(listing, "w") as file:
            file.write("\n".join(inputs[half::2]) + "\n")
        out = os.path.join(folder, f"out{half}")
        os.makedirs(out)
        halves.append([loop, "--files", listing, out, "--block", "512", "--float"] + (["--sync"] if durable else []) + (["--fresh"] if fresh else []))
    start = time.perf_counter()
    processes = [subprocess.Popen(command, stderr=subprocess.PIPE, text=True) for command in halves]
    assert all(process.wait(timeout=3600) == 0 for process in processes), [process.stderr.read() for process in processes]
    return time.perf_counter() - start


def per_file_milliseconds(runs=50):
    """A long-lived chain's median time per one-second file from Python: a render (a clean
    start, the tail) and the stream of the same audio (the DSP alone)."""
    audio = (np.random.default_rng(0).standard_normal((2, 48000)) * 0.1).astype(np.float32)
    chain = auhost.Chain.from_preset(PRESET, threads=1, tail=float(TAIL))

    def median(body):
        body()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            body()
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    return median(lambda: chain(audio, 48000)), median(lambda: chain.process(audio, 48000, reset=False))


def render(arguments):
    return subprocess.Popen([TOOL, "render", PRESET, *arguments, "--bit-depth", "32f", "--block", "512", "--tail", TAIL],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def main():
    import dask
    import distributed

    folder = tempfile.mkdtemp(prefix="auhost-scale-")
    try:
        root = os.path.join(folder, "in")
        inputs = []
        for index in range(FILES):
            path = os.path.join(root, f"{index % 10}", f"take{index // 10}.wav")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            auhost.write(path, (np.random.default_rng(index).standard_normal((2, 48000)) * 0.1).astype(np.float32), 48000, bit_depth="32f")
            inputs.append(path)
        listing = os.path.join(folder, "list.txt")
        with open(listing, "w") as file:
            file.write("\n".join(inputs) + "\n")
        common = ["--inputs-from", listing, "--relative-to", root]
        # The inputs just written go to disk first: their writeback would otherwise compete
        # with the first timed way's own (it made `render --jobs 2` 14 % slower than the shards).
        os.sync()

        start = time.perf_counter()
        process = render(common + ["--output-dir", os.path.join(folder, "jobs"), "--jobs", "2", "--results", os.path.join(folder, "jobs.jsonl")])
        assert process.wait(timeout=3600) == 0, process.stderr.read()
        jobs = time.perf_counter() - start

        start = time.perf_counter()
        shards = [render(common + ["--output-dir", os.path.join(folder, "shards"), "--shard", f"{shard}/2", "--jobs", "1"]) for shard in range(2)]
        assert all(shard.wait(timeout=3600) == 0 for shard in shards)
        sharded = time.perf_counter() - start

        c_fresh = c_file_loop_seconds(inputs, os.path.join(folder, "c-fresh"), fresh=True)
        c_carried = c_file_loop_seconds(inputs, os.path.join(folder, "c-carried"), fresh=False)
        c_fresh_unsynced = c_file_loop_seconds(inputs, os.path.join(folder, "c-fresh-unsynced"), fresh=True, durable=False)
        c_carried_unsynced = c_file_loop_seconds(inputs, os.path.join(folder, "c-carried-unsynced"), fresh=False, durable=False)

        with dask.config.set({"temporary-directory": os.path.join(folder, "dask")}):
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.CRITICAL) as cluster:
                with distributed.Client(cluster) as client:
                    client.run(lambda: __import__("auhost"))  # the library loaded in each worker before timing
                    start = time.perf_counter()
                    rows = auhost.dask.render(inputs, PRESET, client=client, out=os.path.join(folder, "dask-out"), relative_to=root, tail=float(TAIL), bit_depth="32f", threads=1)
                    on_dask = time.perf_counter() - start
        assert all(row["status"] == "rendered" for row in rows)

        for path in inputs[:: max(1, FILES // 20)]:
            relative = os.path.relpath(path, root)
            first = auhost.read(os.path.join(folder, "jobs", relative))[0]
            assert np.array_equal(first, auhost.read(os.path.join(folder, "shards", relative))[0])
            assert np.array_equal(first, auhost.read(os.path.join(folder, "dask-out", relative))[0])
        dsp = c_loop_seconds(FILES) / 2
        print(f"{FILES} one-second stereo files, reference chain, --tail {TAIL}: render --jobs 2 {jobs:.2f} s ({jobs / dsp:.2f}x), "
              f"two --shard I/2 processes {sharded:.2f} s ({sharded / dsp:.2f}x), Dask LocalCluster 2 workers {on_dask:.2f} s ({on_dask / dsp:.2f}x); "
              f"outputs equal; the C loop's time for the same audio over 2 cores {dsp:.2f} s")
        print(f"the same files through two C file loops (read, render, write, fsync, rename), the plugins instantiated anew for each file: "
              f"{c_fresh:.2f} s ({c_fresh / dsp:.2f}x the C loop's DSP over 2 cores); render --jobs 2 {jobs / c_fresh:.2f}x it, "
              f"shards {sharded / c_fresh:.2f}x, Dask {on_dask / c_fresh:.2f}x; one chain carried from file to file: {c_carried:.2f} s ({c_carried / dsp:.2f}x)")
        print(f"the same two C file loops without fsync (renamed into place, nothing flushed): fresh {c_fresh_unsynced:.2f} s "
              f"({c_fresh_unsynced / dsp:.2f}x), one chain carried {c_carried_unsynced:.2f} s ({c_carried_unsynced / dsp:.2f}x)")
        render_ms, stream_ms = per_file_milliseconds()
        print(f"per file, a long-lived chain from Python: chain(audio, 48000) {render_ms:.2f} ms, the stream of the same audio {stream_ms:.2f} ms")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
