"""Two chains render at once on two threads; a pickled chain renders the same in another process."""

import multiprocessing
import os
import pickle
import threading

import numpy as np
from conftest import CHILD_TIMEOUT, PRESETS, noise

import auhost

REFERENCE = os.path.join(PRESETS, "reference.json")


def test_two_threads_at_once():
    signals = [noise(seconds=1.0, seed=seed) for seed in (1, 2)]
    chains = [auhost.Chain.from_preset(REFERENCE, tail=0, threads=1) for _ in signals]
    alone = [chain(signal, 48000) for chain, signal in zip(chains, signals)]
    results = [None, None]
    start = threading.Barrier(2, timeout=CHILD_TIMEOUT)

    def work(index):
        start.wait()
        for _ in range(3):
            results[index] = chains[index](signals[index], 48000)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(CHILD_TIMEOUT)
        assert not thread.is_alive()
    for got, expected in zip(results, alone):
        assert np.array_equal(got, expected)


def _render_pickled(payload):
    chain = pickle.loads(payload)
    return chain(noise(seconds=0.5, seed=7), 48000), chain.parameters["comp.threshold"]


def test_pickled_into_a_worker_process():
    chain = auhost.Chain.from_preset(REFERENCE, tail=0.5)
    chain.parameters["comp.threshold"] = -24
    expected = chain(noise(seconds=0.5, seed=7), 48000)
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        got, threshold = pool.apply_async(_render_pickled, (pickle.dumps(chain),)).get(CHILD_TIMEOUT)
    assert threshold == -24
    assert np.array_equal(got, expected)
