"""What the tests share: the auhost tool of this checkout, a temporary folder removed after
each test (nothing is left in the system's), and child processes with timeouts."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRESETS = os.path.join(REPO, "Presets")
sys.path.insert(0, os.path.join(REPO, "python"))

# The longest any child process may take (a debug build on a loaded machine).
CHILD_TIMEOUT = 600


def auhost_tool():
    given = os.environ.get("AUHOST_BIN")
    if given:
        return given
    for config in ("debug", "release"):
        path = os.path.join(REPO, ".build", config, "auhost")
        if os.path.exists(path):
            return path
    pytest.fail("no auhost tool: build it with swift build (or set AUHOST_BIN)")


def run_auhost(*arguments, expect=0):
    done = subprocess.run([auhost_tool(), *map(str, arguments)], capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    if expect is not None:
        assert done.returncode == expect, f"auhost {' '.join(map(str, arguments))}: exit {done.returncode}\n{done.stderr}"
    return done


@pytest.fixture
def folder():
    path = tempfile.mkdtemp(prefix="auhost-python-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def noise(channels=2, seconds=1.0, rate=48000, seed=1, level=0.1):
    """A reproducible test signal: pink-ish noise with a decaying tone."""
    generator = np.random.default_rng(seed)
    frames = int(seconds * rate)
    time = np.arange(frames) / rate
    tone = 0.3 * np.sin(2 * np.pi * 220 * time) * np.exp(-3 * time)
    return (generator.standard_normal((channels, frames)) * level + tone).astype(np.float32)


# The fixtures' Turtle, which the Swift tests fill in too (Tests/AUTestSupport/LV2FixtureBundle.swift).
FIXTURE_TURTLE = os.path.join(REPO, "Tests", "LV2Fixtures", "bundle")


def fixture_bundles(folder, fixture):
    """Writes the LV2 bundle of the hostile fixture `fixture` (Tests/LV2Fixtures: a mono
    plugin, urn:auhost:fixture:FIXTURE, named "Fixture FIXTURE") into FOLDER/lv2, once;
    returns that folder, for LV2_PATH. Skips the test when the fixtures' library is not
    beside the auhost library."""
    from auhost._lib import library_path

    fixtures = os.path.join(os.path.dirname(library_path), "libLV2Fixtures.so")
    if not os.path.exists(fixtures):
        pytest.skip("no libLV2Fixtures.so beside the library (swift build --product LV2Fixtures)")
    bundles = os.path.join(folder, "lv2")
    bundle = os.path.join(bundles, f"{fixture}.lv2")
    if not os.path.exists(bundle):
        os.makedirs(bundle)
        for name in ("manifest.ttl", "plugin.ttl"):
            with open(os.path.join(FIXTURE_TURTLE, name)) as file:
                text = file.read().replace("@FIXTURE@", fixture).replace("@NAME@", f"Fixture {fixture}").replace("@EXTRA_PORTS@", "")
            with open(os.path.join(bundle, name), "w") as file:
                file.write(text)
        shutil.copy(fixtures, os.path.join(bundle, "fixtures.so"))
    return bundles
