"""auhost.dask.render on a real distributed.LocalCluster of 2 worker processes, one killed
halfway: every output equals the single-process render, one result row per file."""

import logging
import os
import signal
import threading
import time

import numpy as np
import pytest
from conftest import CHILD_TIMEOUT, PRESETS, REPO, noise

import auhost

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
import auhost.dask  # noqa: E402

REFERENCE = os.path.join(PRESETS, "reference.json")
FILES = 40


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

    dask_config = dask.config.set({"temporary-directory": os.path.join(folder, "dask")})
    dask_config.__enter__()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        local_directory=os.path.join(folder, "dask"), silence_logs=logging.CRITICAL)
    client = distributed.Client(cluster)
    try:
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
    finally:
        client.close()
        cluster.close()
        dask_config.__exit__(None, None, None)
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
