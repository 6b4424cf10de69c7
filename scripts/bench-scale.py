#!/usr/bin/env python3
"""docs/SCALE.md's figures: FILES one-second stereo files (default 200) through
Presets/reference.json on this machine, three ways, on a release build:

  1. one `auhost render --jobs 2` over the list (--inputs-from, --relative-to, --results);
  2. two `auhost render --shard I/2` processes at once (a two-task Slurm array);
  3. auhost.dask.render on a distributed.LocalCluster of 2 worker processes, one thread each.

Every way writes 32-bit float outputs into a fresh folder; the script checks all three
wrote the same samples. python3 scripts/bench-scale.py [FILES]  (needs dask, distributed)
"""

import logging
import os
import shutil
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


def render(arguments):
    return subprocess.Popen([TOOL, "render", PRESET, *arguments, "--bit-depth", "32f", "--block", "512", "--tail", "0.25"],
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

        start = time.perf_counter()
        process = render(common + ["--output-dir", os.path.join(folder, "jobs"), "--jobs", "2", "--results", os.path.join(folder, "jobs.jsonl")])
        assert process.wait(timeout=3600) == 0, process.stderr.read()
        jobs = time.perf_counter() - start

        start = time.perf_counter()
        shards = [render(common + ["--output-dir", os.path.join(folder, "shards"), "--shard", f"{shard}/2", "--jobs", "1"]) for shard in range(2)]
        assert all(shard.wait(timeout=3600) == 0 for shard in shards)
        sharded = time.perf_counter() - start

        with dask.config.set({"temporary-directory": os.path.join(folder, "dask")}):
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.CRITICAL) as cluster:
                with distributed.Client(cluster) as client:
                    client.run(lambda: __import__("auhost"))  # the library loaded in each worker before timing
                    start = time.perf_counter()
                    rows = auhost.dask.render(inputs, PRESET, client=client, out=os.path.join(folder, "dask-out"), relative_to=root, tail=0.25, bit_depth="32f", threads=1)
                    on_dask = time.perf_counter() - start
        assert all(row["status"] == "rendered" for row in rows)

        for path in inputs[:: max(1, FILES // 20)]:
            relative = os.path.relpath(path, root)
            first = auhost.read(os.path.join(folder, "jobs", relative))[0]
            assert np.array_equal(first, auhost.read(os.path.join(folder, "shards", relative))[0])
            assert np.array_equal(first, auhost.read(os.path.join(folder, "dask-out", relative))[0])
        print(f"{FILES} one-second stereo files, reference chain: render --jobs 2 {jobs:.2f} s, "
              f"two --shard I/2 processes {sharded:.2f} s, Dask LocalCluster 2 workers {on_dask:.2f} s; outputs equal")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
