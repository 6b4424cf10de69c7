"""A plugin that crashes in its run (the hostile fixture of Tests/LV2Fixtures) ends the
Python process that hosts it, as it ends `auhost render`: plugins are not isolated in a
child process (docs/PYTHON.md). The crash happens in a child process here."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import CHILD_TIMEOUT, REPO

from auhost._lib import library_path

PREFIXES = """@prefix lv2: <http://lv2plug.in/ns/lv2core#> .
@prefix doap: <http://usefulinc.com/ns/doap#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""
URI = "urn:auhost:fixture:crash-in-run"
PLUGIN = f"""<{URI}> a lv2:Plugin , lv2:UtilityPlugin ;
    doap:name "Fixture Crash In Run" ;
    lv2:port [ a lv2:InputPort , lv2:AudioPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
             [ a lv2:OutputPort , lv2:AudioPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] .
"""
CHILD = f"""
import numpy, auhost
chain = auhost.Chain(["lv2:{URI}"], tail=0)
print("rendering", flush=True)
chain(numpy.zeros((1, 4800), dtype=numpy.float32), 48000)
print("survived", flush=True)
"""


def test_a_crashing_plugin_ends_the_process(folder):
    fixtures = os.path.join(os.path.dirname(library_path), "libLV2Fixtures.so")
    if not os.path.exists(fixtures):
        pytest.skip("no libLV2Fixtures.so beside the library (swift build --product LV2Fixtures)")
    bundle = os.path.join(folder, "lv2", "crash-in-run.lv2")
    os.makedirs(bundle)
    with open(os.path.join(bundle, "manifest.ttl"), "w") as file:
        file.write(PREFIXES + f"<{URI}> a lv2:Plugin ; lv2:binary <fixtures.so> ; rdfs:seeAlso <plugin.ttl> .\n")
    with open(os.path.join(bundle, "plugin.ttl"), "w") as file:
        file.write(PREFIXES + PLUGIN)
    shutil.copy(fixtures, os.path.join(bundle, "fixtures.so"))
    home = os.path.join(folder, "home")
    os.makedirs(home)
    environment = dict(os.environ, LV2_PATH=os.path.join(folder, "lv2"), HOME=home, AUHOST_LIBRARY=library_path,
                       PYTHONPATH=os.path.join(REPO, "python"), XDG_CACHE_HOME=os.path.join(home, ".cache"))
    child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=CHILD_TIMEOUT, env=environment, cwd=folder)
    assert "rendering" in child.stdout, child.stderr
    assert "survived" not in child.stdout
    assert child.returncode < 0, f"exit {child.returncode}: {child.stderr}"
