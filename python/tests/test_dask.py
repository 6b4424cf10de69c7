"""auhost.dask.render on a real distributed.LocalCluster of 2 worker processes, one killed
halfway: every output equals the single-process render, one result row per file. A plugin
that crashes, isolated (`--isolation per-unit`), fails its files and ends no worker."""

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from conftest import CHILD_TIMEOUT, PRESETS, REPO, fixture_bundles, noise

import auhost

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
import auhost.dask  # noqa: E402

REFERENCE = os.path.join(PRESETS, "reference.json")
# make test's count; AUHOST_DASK_FILES=1000 runs the thousand (docs/SCALE.md).
FILES = int(os.environ.get("AUHOST_DASK_FILES", "40"))


@contextlib.contextmanager
def local_cluster(folder):
    """A real LocalCluster of 2 worker processes, one thread each, its files in FOLDER/dask,
    and its client; both closed afterwards."""
    with dask.config.set({"temporary-directory": os.path.join(folder, "dask")}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            local_directory=os.path.join(folder, "dask"), silence_logs=logging.CRITICAL)
        client = distributed.Client(cluster)
        try:
            yield cluster, client
        finally:
            client.close()
            cluster.close()


def test_a_worker_killed_halfway_loses_nothing(folder, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.path.join(REPO, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    inputs = []
    for index in range(FILES):
        path = os.path.join(folder, "in", "ab"[index % 2], f"take{index // 2}.wav")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        auhost.write(path, noise(seconds=1.0, seed=index), 48000, bit_depth="32f")
        inputs.append(path)
    alone = auhost.Chain.from_preset(REFERENCE, tail=0.25, threads=1)
    expected = {path: alone(auhost.read(path)[0], 48000) for path in inputs}
    out = os.path.join(folder, "out")
    results = os.path.join(folder, "results.jsonl")

    with local_cluster(folder) as (_, client):
        pids = client.run(os.getpid)
        assert len(pids) == 2
        outcome = {}

        def run():
            try:
                outcome["rows"] = auhost.dask.render(
                    inputs, REFERENCE, client=client, out=out, relative_to=os.path.join(folder, "in"), shards=10,
                    results=results, tail=0.25, bit_depth="32f")
            except BaseException as error:  # reported by the assertion below
                outcome["error"] = error

        worker = threading.Thread(target=run)
        worker.start()
        deadline = time.monotonic() + CHILD_TIMEOUT
        written = 0
        while time.monotonic() < deadline and worker.is_alive():
            written = sum(len(names) for _, _, names in os.walk(out)) if os.path.isdir(out) else 0
            if written >= FILES // 2:
                break
            time.sleep(0.05)
        killed_while_running = worker.is_alive()
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        worker.join(CHILD_TIMEOUT)
        assert not worker.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert killed_while_running, "the batch ended before half of it was written"
    rows = outcome["rows"]
    assert [row["input"] for row in rows] == inputs
    assert all(row["status"] in ("rendered", "skipped") for row in rows), [row for row in rows if row["status"] not in ("rendered", "skipped")]
    with open(results) as file:
        assert len(file.readlines()) == FILES
    for path in inputs:
        output = os.path.join(out, os.path.relpath(path, os.path.join(folder, "in")))
        assert np.array_equal(auhost.read(output)[0], expected[path]), output
    assert sum(len(names) for _, _, names in os.walk(out)) == FILES


def test_an_isolated_crashing_plugin_fails_its_files_and_ends_no_worker(folder, monkeypatch):
    """`python -m auhost.dask --isolation per-unit` over the fixture that crashes in `run`:
    each file fails with the crash named in its result row, the driver exits 1, and both
    workers are the processes they were (in process, the crash ended a worker per try)."""
    bundles = fixture_bundles(folder, "crash-in-run")
    environment = {"LV2_PATH": bundles + ":/usr/lib/lv2", "XDG_CACHE_HOME": os.path.join(folder, "cache"),
                   "PYTHONPATH": os.path.join(REPO, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   "AUHOST_LIBRARY": auhost.library_path, "AUHOST_ISOLATION_TIMEOUT": "5"}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)  # the workers are started with it
    inputs = []
    for index in range(6):
        path = os.path.join(folder, "in", f"take{index}.wav")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        auhost.write(path, noise(channels=1, seconds=0.2, seed=index), 48000, bit_depth="32f")
        inputs.append(path)
    preset = os.path.join(folder, "bad.json")
    with open(preset, "w") as file:
        json.dump({"auhost": 1, "name": "bad", "nodes": [{"id": "bad", "unit": "lv2:urn:auhost:fixture:crash-in-run"}], "chain": ["bad"]}, file)
    out, results = os.path.join(folder, "out"), os.path.join(folder, "results.jsonl")
    with local_cluster(folder) as (cluster, client):
        pids = client.run(os.getpid)
        driver = subprocess.run(
            [sys.executable, "-m", "auhost.dask", "--scheduler", cluster.scheduler_address, "--preset", preset, "--out", out,
             "--results", results, "--tail", "0", "--isolation", "per-unit", *inputs],
            capture_output=True, text=True, timeout=CHILD_TIMEOUT, env=dict(os.environ), cwd=folder)
        after = client.run(os.getpid)
    assert driver.returncode == 1, f"exit {driver.returncode}: {driver.stdout}{driver.stderr}"
    assert "dask: 0 of 6 files rendered or present, 6 failed" in driver.stdout, driver.stdout
    with open(results) as file:
        rows = [json.loads(line) for line in file]
    assert sorted(row["input"] for row in rows) == sorted(inputs)
    for row in rows:
        assert row["status"] == "failed" and "crashed in render (SIGSEGV)" in row["error"], row
    assert after == pids, "a worker died"
    assert not os.path.isdir(out) or not any(names for _, _, names in os.walk(out))


def test_a_shard_puts_each_output_in_place_off_its_rendering_thread(folder, monkeypatch):
    """render_shard (what each worker runs) completes each output on a thread of its own
    while the next file renders: every output is whole at its path, equal to the chain's
    output, when the rows come back, and no output was completed on the rendering thread."""
    closed_on = []
    real_close = auhost.dask.AudioFile.close

    def close(self):
        if self._writer is not None:
            closed_on.append(threading.get_ident())
        real_close(self)

    rows = []
    for index in range(5):
        path = os.path.join(folder, "in", f"take{index}.wav")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        auhost.write(path, noise(seconds=0.3, seed=index), 48000, bit_depth="32f")
        rows.append({"input": path, "output": os.path.join(folder, "out", f"take{index}.wav"), "set": [], "index": index})
    monkeypatch.setattr(auhost.dask.AudioFile, "close", close)
    settings = {"sample_rate": 48000, "block_size": 512, "threads": 1, "tail": 0, "bit_depth": "32f", "isolation": "none"}
    results = auhost.dask.render_shard(REFERENCE, rows, settings)
    assert [row["status"] for row in results] == ["rendered"] * 5, results
    chain = auhost.Chain.from_preset(REFERENCE, tail=0, threads=1)  # as the shard renders, its levels metered over the same blocks
    for row, result in zip(rows, results):
        audio, rate = auhost.read(row["input"])
        written, _ = auhost.read(row["output"])
        np.testing.assert_array_equal(written, chain(audio, rate))
        assert (result["peak_dbfs"], result["rms_dbfs"]) == (chain.levels["peak_dbfs"], chain.levels["rms_dbfs"]), result
    assert len(closed_on) == 5 and threading.get_ident() not in closed_on, "an output was completed on the rendering thread"
