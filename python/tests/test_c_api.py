"""include/auhost.h from C: a program compiled against the header and linked with the
library renders a gain chain, reads back its parameters and reports an error."""

import os
import shutil
import subprocess

import pytest
from conftest import CHILD_TIMEOUT, REPO

from auhost._lib import library_path

PROGRAM = r"""
#include <auhost.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char *error = NULL;
    const char *preset = "{\"auhost\": 1, \"name\": \"g\", \"nodes\": [{\"id\": \"gain\", \"unit\": \"aufx:gain:AUHs\", "
                         "\"parameters\": {\"gain\": -6.0206, \"smoothing\": 0}}], \"chain\": [\"gain\"]}";
    auhost_chain *chain = auhost_chain_new(preset, "chain.json", 48000, 256, 1, &error);
    if (!chain) { printf("new: %s\n", error); return 1; }
    if (auhost_chain_set_tail(chain, 0, &error) != 0) { printf("tail: %s\n", error); return 1; }
    double rate; int inputs, outputs; int64_t latency; double tail;
    if (auhost_chain_info(chain, 0, &rate, &inputs, &outputs, &latency, &tail, &error) != 0) { printf("info: %s\n", error); return 1; }
    if (rate != 48000 || inputs != 2 || outputs != 2 || latency != 0) { printf("info: %g %d %d\n", rate, inputs, outputs); return 1; }
    float left[1000], right[1000];
    for (int i = 0; i < 1000; i++) { left[i] = (float)i / 1000; right[i] = -(float)i / 1000; }
    const float *input[2] = {left, right};
    if (auhost_chain_process(chain, input, 2, 1000, 48000, NULL, 0, &error) != 0) { printf("process: %s\n", error); return 1; }
    int channels = auhost_chain_output_channels(chain);
    long long frames = (long long)auhost_chain_output_frames(chain);
    float out_left[1000], out_right[1000];
    float *output[2] = {out_left, out_right};
    auhost_chain_copy_output(chain, output);
    printf("%d %lld %.4f %.4f\n", channels, frames, out_left[500], out_right[500]);
    float streamed_left[1000], streamed_right[1000];
    float *streamed[2] = {streamed_left, streamed_right};
    if (auhost_chain_stream(chain, input, 2, 1000, 48000, streamed, 2, &error) != 0) { printf("stream: %s\n", error); return 1; }
    for (int i = 0; i < 1000; i++) if (streamed_left[i] != out_left[i] || streamed_right[i] != out_right[i]) { printf("stream differs at %d\n", i); return 1; }
    if (auhost_chain_set(chain, "gain.nope=1", &error) == 0) return 1;
    printf("%s\n", error);
    auhost_free(error);
    auhost_chain_free(chain);
    return 0;
}
"""


def test_a_c_program_renders_through_the_header(folder):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    source, program = os.path.join(folder, "prog.c"), os.path.join(folder, "prog")
    with open(source, "w") as file:
        file.write(PROGRAM)
    library = os.path.dirname(library_path)
    build = subprocess.run(
        [compiler, "-std=c99", "-Wall", "-Werror", source, "-I", os.path.join(REPO, "include"), library_path, "-Wl,-rpath," + library, "-o", program],
        capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([program], capture_output=True, text=True, timeout=CHILD_TIMEOUT, cwd=folder)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "2 1000 0.2500 -0.2500"
    assert "gain.nope" in lines[1] and "unknown parameter of 'Gain'" in lines[1]
