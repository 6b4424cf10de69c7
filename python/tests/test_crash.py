"""A plugin that crashes in its run (the hostile fixture of Tests/LV2Fixtures): in this
process it ends the Python process that hosts it, as it ends `auhost render`; isolated
(`isolation="per-unit"` or "together") the call raises AUHostError naming the node and the
crash, and the process goes on (docs/PYTHON.md). Each case runs in a child process."""

import json
import os
import subprocess
import sys

import pytest
from conftest import CHILD_TIMEOUT, REPO, fixture_bundles

from auhost._lib import library_path

# What the child prints: a line per step, then the outcome of each call as JSON.
CHILD = """
import json, sys, numpy, auhost
fixture, isolation = sys.argv[1], sys.argv[2]
chain = auhost.Chain([("bad", "lv2:urn:auhost:fixture:" + fixture)], tail=0, isolation=isolation)
audio = (numpy.sin(numpy.arange(4800) * 0.02) * 0.5).astype(numpy.float32).reshape(1, -1)
print("rendering", flush=True)
for attempt in range(2):
    try:
        out = chain(audio, 48000)
        print(json.dumps({"output": out.tolist()}), flush=True)
    except auhost.AUHostError as error:
        print(json.dumps({"error": str(error)}), flush=True)
print("survived", flush=True)
"""


def run_fixture(folder, fixture, isolation):
    """Runs CHILD over the fixture `fixture` with `isolation` in a fresh Python process."""
    bundles = fixture_bundles(folder, fixture)
    home = os.path.join(folder, "home")
    os.makedirs(home, exist_ok=True)
    environment = dict(os.environ, LV2_PATH=bundles, HOME=home, AUHOST_LIBRARY=library_path,
                       PYTHONPATH=os.path.join(REPO, "python"), XDG_CACHE_HOME=os.path.join(home, ".cache"),
                       AUHOST_ISOLATION_TIMEOUT="5")
    child = subprocess.run([sys.executable, "-c", CHILD, fixture, isolation], capture_output=True, text=True,
                           timeout=CHILD_TIMEOUT, env=environment, cwd=folder)
    calls = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    return child, calls


def test_a_crashing_plugin_in_this_process_ends_it(folder):
    child, calls = run_fixture(folder, "crash-in-run", "none")
    assert "rendering" in child.stdout, child.stderr
    assert "survived" not in child.stdout and not calls
    assert child.returncode < 0, f"exit {child.returncode}: {child.stderr}"


@pytest.mark.parametrize("isolation", ["per-unit", "together"])
def test_a_crashing_isolated_plugin_raises_and_the_process_goes_on(folder, isolation):
    child, calls = run_fixture(folder, "crash-in-run", isolation)
    assert child.returncode == 0 and "survived" in child.stdout, f"exit {child.returncode}: {child.stderr}"
    # Each call crashes a fresh child: both raise, naming the node, the unit and the signal.
    assert len(calls) == 2, child.stdout
    for call in calls:
        assert "'bad' (Fixture crash-in-run) crashed in render (SIGSEGV)" in call.get("error", ""), call


def test_an_isolated_plugin_renders_what_it_renders_in_this_process(folder):
    _, in_process = run_fixture(folder, "passthrough", "none")
    child, isolated = run_fixture(folder, "passthrough", "per-unit")
    assert child.returncode == 0, child.stderr
    assert len(in_process) == 2 and len(isolated) == 2, (in_process, isolated)
    assert all("output" in call for call in in_process + isolated), (in_process, isolated)
    assert isolated[0]["output"] == in_process[0]["output"]
    assert max(abs(sample) for sample in in_process[0]["output"][0]) > 0.1


def test_the_library_stays_loaded_when_its_handle_is_closed():
    """An isolated chain's child is watched by a thread of the library; cffi closes its handle
    when Python exits, maybe before that thread has ended: the library must not be unmapped
    under it (the Python process died of SIGSEGV at exit once). It is linked `-z nodelete`."""
    probe = (
        "import cffi, sys\n"
        "ffi = cffi.FFI()\n"
        "ffi.cdef('int auhost_api_version(void);')\n"
        "lib = ffi.dlopen(sys.argv[1])\n"
        "lib.auhost_api_version()\n"
        "ffi.dlclose(lib)\n"
        "print(any(sys.argv[1] in line for line in open('/proc/self/maps')))\n"
    )
    child = subprocess.run([sys.executable, "-c", probe, os.path.realpath(library_path)], capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "True", "the library was unmapped once its handle closed"
