"""Every call of the package, its errors included."""

import json
import os
import re
import warnings

import numpy as np
import pytest
from conftest import PRESETS, REPO, noise, run_auhost

import auhost
from auhost._lib import CDEF

REFERENCE = os.path.join(PRESETS, "reference.json")
GAIN_PRESET = json.dumps({"auhost": 1, "name": "gain", "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6.0206, "smoothing": 0}}], "chain": ["gain"]})


def test_every_declaration_is_in_the_header():
    with open(os.path.join(REPO, "include", "auhost.h")) as file:
        header = " ".join(file.read().split())
    for line in CDEF.strip().splitlines():
        assert " ".join(line.split()) in header, line


def test_units_are_auhost_list_json():
    listed = json.loads(run_auhost("list", "--type", "aufx", "--json").stdout)
    found = auhost.units(type="aufx")
    assert found == listed
    assert {unit["type"] for unit in found} == {"aufx"}
    delays = auhost.units("delay")
    assert delays and delays == json.loads(run_auhost("list", "delay", "--json").stdout)
    assert len(delays) < len(auhost.units())


def test_units_bad_type():
    with pytest.raises(auhost.AUHostError, match="type 'toolong': expected a code of 1 to 4 characters"):
        auhost.units(type="toolong")


def test_bad_presets(folder):
    with pytest.raises(auhost.AUHostError, match=re.escape(os.path.join(folder, "missing.json"))):
        auhost.Chain.from_preset(os.path.join(folder, "missing.json"))
    bad = os.path.join(folder, "bad.json")
    with open(bad, "w") as file:
        file.write('{"auhost": 1, "name": "x", "nodes": [')
    with pytest.raises(auhost.AUHostError) as caught:
        auhost.Chain.from_preset(bad)
    assert caught.value.args[0].startswith(bad + ":")
    # The same line auhost render prints.
    assert "auhost: " + caught.value.args[0] in run_auhost("render", bad, bad, "-o", os.path.join(folder, "o.wav"), expect=1).stderr
    with pytest.raises(auhost.AUHostError, match="block_size 0"):
        auhost.Chain.from_preset(REFERENCE, block_size=0)


def test_unknown_unit():
    with pytest.raises(auhost.AUHostError, match="lv2:http://example.org/no-such-plugin"):
        auhost.Chain(["lv2:http://example.org/no-such-plugin"])


def test_chain_of_units_with_parameters():
    chain = auhost.Chain(["aufx:gain:AUHs", "aufx:dely:AUHs", "aufx:gain:AUHs"], parameters={"gain.gain": -6, "dely.mix": 0}, tail=0)
    assert chain.parameters["gain.gain"] == -6
    assert chain.parameters["gain2.gain"] == 0
    assert "dely.time" in chain.parameters
    signal = noise(seconds=0.1)
    out = chain(signal, 48000)
    assert out.shape == signal.shape


def test_parameter_errors_are_the_set_messages(folder):
    chain = auhost.Chain.from_preset(REFERENCE)
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.01), 48000)
    for assignment in ["comp.nosuch=1", "nosuch.gain=1", "comp.threshold=1000", "comp.threshold"]:
        node_param, _, value = assignment.partition("=")
        with pytest.raises(auhost.AUHostError) as caught:
            if value:
                chain.parameters[node_param] = value
            else:
                chain._set(assignment)
        printed = run_auhost("render", REFERENCE, source, "-o", os.path.join(folder, "o.wav"), "--set", assignment, expect=None).stderr
        assert "auhost: " + caught.value.args[0].splitlines()[0] in printed
    before = chain.parameters["comp.threshold"]
    with pytest.raises(auhost.AUHostError):
        chain.parameters["comp.threshold"] = 1000
    assert chain.parameters["comp.threshold"] == before
    chain.parameters["comp.threshold"] = -20
    assert chain.parameters["comp.threshold"] == -20
    assert chain.parameters.info("comp.threshold")["min"] <= -20


def test_latency_and_tail_are_what_render_reports(folder):
    # The same threads on both sides: a short file renders on one thread unless --threads
    # asks otherwise, and a pipelined chain's latency includes its stage's slice.
    chain = auhost.Chain.from_preset(REFERENCE, threads=2)
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.1), 48000)
    printed = run_auhost("render", REFERENCE, source, "-o", os.path.join(folder, "o.wav"), "--block", "512", "--tail", "0", "--threads", "2").stdout
    assert f"latency {chain.latency} frames compensated" in printed
    assert chain.latency > 0
    assert chain.tail_seconds >= 0
    assert (chain.input_channels, chain.output_channels) == (2, 2)


def test_levels_are_what_render_results_report(folder):
    """chain.levels after a render: the output's sample peak and RMS over its channels in
    dBFS, the numbers `auhost render --results` writes for the same file; None before a
    render, and for silence."""
    chain = auhost.Chain.from_preset(REFERENCE, tail=0, threads=1)
    assert chain.levels is None
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.5), 48000, bit_depth="32f")
    audio, rate = auhost.read(source)
    out = chain(audio, rate)
    results = os.path.join(folder, "results.jsonl")
    run_auhost("render", REFERENCE, source, "-o", os.path.join(folder, "o.wav"), "--tail", "0", "--threads", "1", "--bit-depth", "32f", "--results", results)
    with open(results) as file:
        row = json.loads(file.readline())
    assert chain.levels["peak_dbfs"] == pytest.approx(row["peak_dbfs"], abs=1e-6)
    assert chain.levels["rms_dbfs"] == pytest.approx(row["rms_dbfs"], abs=1e-6)
    assert chain.levels["peak_dbfs"] == pytest.approx(20 * np.log10(np.abs(out).max()), abs=1e-4)
    assert chain.levels["rms_dbfs"] == pytest.approx(10 * np.log10(np.mean(out.astype(np.float64) ** 2)), abs=1e-4)
    gain = auhost.Chain(["aufx:gain:AUHs"], tail=0)
    gain(np.zeros((2, 4800), dtype=np.float32), 48000)
    assert gain.levels == {"peak_dbfs": None, "rms_dbfs": None}


def test_wrong_shape_dtype_and_nan():
    chain = auhost.Chain.from_preset(GAIN_PRESET)
    with pytest.raises(TypeError, match="dtype int16; expected float32"):
        chain(np.zeros((2, 100), dtype=np.int16), 48000)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        chain([0.0] * 100, 48000)
    with pytest.raises(ValueError, match=r"shape \(1, 2, 3\)"):
        chain(np.zeros((1, 2, 3), dtype=np.float32), 48000)
    with pytest.raises(ValueError, match=r"pass audio.T"):
        chain(np.zeros((48000, 2), dtype=np.float32), 48000)
    bad = np.zeros((2, 100), dtype=np.float32)
    bad[1, 42] = np.nan
    with pytest.raises(ValueError, match="1 NaN or infinite sample, the first at channel 1, frame 42"):
        chain(bad, 48000)
    with pytest.raises(auhost.AUHostError, match="sample_rate 1"):
        chain(np.zeros(100, dtype=np.float32), 1)
    for zero in (0, 0.0):
        with pytest.raises(auhost.AUHostError, match="sample_rate 0: expected a rate in 8000...768000 Hz, or None"):
            chain(np.zeros(100, dtype=np.float32), zero)
    reference = auhost.Chain.from_preset(REFERENCE)
    with pytest.raises(auhost.AUHostError, match="the chain runs at 48000 Hz"):
        reference(np.zeros((2, 100), dtype=np.float32), 44100)
    with pytest.raises(auhost.AUHostError, match="MIDI needs a unit that takes MIDI"):
        reference(midi=[(0, bytes([0x90, 60, 100]))], duration=0.1)
    with pytest.raises(ValueError, match=r"midi\[0\]"):
        auhost.Chain.from_preset(os.path.join(PRESETS, "synth-patch.json"))(midi=[(0, bytes([0x12]))])


def test_finite_samples_whose_sum_overflows_are_accepted():
    # A stream's NaN check sums the samples first: a sum beyond float32's range is no NaN.
    chain = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    loud = np.full((2, 100), 3e38, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.allclose(chain.process(loud, 48000, reset=False), loud * 0.5)
    with pytest.warns(RuntimeWarning) as found:
        assert np.allclose(chain(loud, 48000), loud * 0.5)
    # The render's clipping warning alone: no overflow warning from the quick pass.
    assert [re.sub(r"[\d.]+ dBFS", "N dBFS", str(warning.message)) for warning in found] == ["output: clipping: sample peak N dBFS reaches full scale"]


def test_process_into_writes_only_an_output_of_its_length():
    """auhost_chain_process_into fills the caller's array when the output is exactly as
    long (1); else the chain keeps the output (0), read as after auhost_chain_process."""
    from auhost._audio import channel_table
    from auhost._lib import error_slot, lib

    chain = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    signal = noise(seconds=0.1)
    table = channel_table(signal)
    for extra, placed in ((0, 1), (10, 0), (-10, 0)):
        out = np.zeros((2, signal.shape[1] + extra), dtype=np.float32)
        error = error_slot()
        assert lib.auhost_chain_process_into(chain._handle, table, 2, signal.shape[1], 48000, channel_table(out, writable=True), 2, out.shape[1], error) == placed
        if placed:
            assert np.allclose(out, signal * 0.5, atol=1e-6)
        else:
            assert lib.auhost_chain_output_frames(chain._handle) == signal.shape[1]
            kept = np.empty((2, signal.shape[1]), dtype=np.float32)
            lib.auhost_chain_copy_output(chain._handle, channel_table(kept, writable=True))
            assert np.allclose(kept, signal * 0.5, atol=1e-6)


def test_a_render_in_the_callers_memory_equals_one_kept_by_the_chain():
    """The render reads the input where it is and writes into the output array in place
    (auhost_chain_process_into); the samples are those of a render into the chain's own
    buffers, also when the output array is the input array itself."""
    from auhost._audio import channel_table
    from auhost._lib import error_slot, ffi, lib

    chain = auhost.Chain.from_preset(REFERENCE, tail=0)
    signal = noise(seconds=0.5)
    frames = signal.shape[1]
    error = error_slot()
    assert lib.auhost_chain_process(chain._handle, channel_table(signal), 2, frames, 48000, ffi.NULL, 0, error) == 0
    kept = np.empty((2, frames), dtype=np.float32)
    lib.auhost_chain_copy_output(chain._handle, channel_table(kept, writable=True))
    placed = np.empty((2, frames), dtype=np.float32)
    assert lib.auhost_chain_process_into(chain._handle, channel_table(signal), 2, frames, 48000, channel_table(placed, writable=True), 2, frames, error) == 1
    assert np.array_equal(placed, kept)
    shared = signal.copy()
    table = channel_table(shared, writable=True)
    assert lib.auhost_chain_process_into(chain._handle, table, 2, frames, 48000, table, 2, frames, error) == 1
    assert np.array_equal(shared, kept)


def test_a_nan_deep_in_the_input_is_named_and_left_where_it_was():
    """A render finds NaN and infinity as it reads the input (Python makes no pass of its
    own); the error names them; the caller's array is not written."""
    chain = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    bad = noise(seconds=1)
    bad[0, 30000] = np.nan
    bad[1, 40000] = np.inf
    before = bad.copy()
    with pytest.raises(ValueError, match="2 NaN or infinite samples, the first at channel 0, frame 30000"):
        chain(bad, 48000)
    assert np.array_equal(bad, before, equal_nan=True)
    assert np.allclose(chain(noise(seconds=1), 48000), noise(seconds=1) * 0.5, atol=1e-6)


def test_the_output_shape_is_the_shortest_a_render_gives():
    """auhost_chain_output_shape: the input and the tail's fewest frames (a fixed tail
    exactly; auto: the TailTime and the half second of quiet), which is what a render of a
    chain whose tail is quiet from its start returns (into the caller's array)."""
    from auhost._lib import ffi, lib

    channels, frames = ffi.new("int *"), ffi.new("int64_t *")
    auto = auhost.Chain(["aufx:gain:AUHs"])
    assert lib.auhost_chain_output_shape(auto._handle, 48000, 48000, channels, frames, ffi.NULL) == 0
    assert (channels[0], frames[0]) == (2, 48000 + 24000)
    assert auto(noise(seconds=1), 48000).shape == (2, 72000)
    fixed = auhost.Chain(["aufx:gain:AUHs"], tail=1.25)
    assert lib.auhost_chain_output_shape(fixed._handle, 1000, 48000, channels, frames, ffi.NULL) == 0
    assert frames[0] == 1000 + 60000
    assert lib.auhost_chain_output_shape(fixed._handle, -1, 48000, channels, frames, ffi.NULL) == -1


def test_a_gain_whose_output_overflows_is_muted_and_named():
    """The gain checks its output as it writes it, and the graph trusts a call the gain says
    it checked: an overflow to infinity must still reach the graph's scan, which mutes the
    node from that cycle on and says so."""
    chain = auhost.Chain(["aufx:gain:AUHs"], parameters={"gain.gain": 24, "gain.smoothing": 0}, tail=0)
    loud = np.full((2, 4096), 0.5, dtype=np.float32)
    loud[1, 1500] = 3e38
    with pytest.warns(RuntimeWarning, match=r"'gain' \(Gain\) produced NaN or infinity in the cycle starting at frame 1024"):
        out = chain(loud, 48000)
    assert np.isfinite(out).all()
    assert np.allclose(out[:, :1024], 0.5 * 10 ** (24 / 20), rtol=1e-6)
    assert not out[:, 1024:].any()


@pytest.mark.parametrize("channel,frame", [(0, 0), (1, 8191), (0, 8192), (1, 16383), (0, 47999)])
def test_a_lone_nan_at_any_frame_is_found(channel, frame):
    """The render screens the caller's array ahead, 8,192 frames at a time: a lone NaN at
    either edge of a screened stretch, or at the last frame, is found all the same."""
    chain = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    bad = noise(seconds=1)
    bad[channel, frame] = np.nan
    with pytest.raises(ValueError, match=f"1 NaN or infinite sample, the first at channel {channel}, frame {frame};"):
        chain(bad, 48000)


def test_mono_gain_in_and_out():
    chain = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    signal = noise(channels=1, seconds=0.1)[0]
    out = chain(signal, 48000)
    # The gain is stereo: a mono input goes to both channels, as a mono file's does.
    assert out.shape == (chain.output_channels, signal.shape[0]) == (2, 4800)
    assert np.allclose(out, signal * 0.5, atol=1e-6)
    assert chain(signal.astype(np.float64), 48000).dtype == np.float32


def test_stream_continues_and_is_latency_late():
    # A unit may depend on where cycles start (an LV2 plugin smoothing per block): the parts
    # are whole cycles of a pipelined chain (16 blocks of 512); see the gain test for any cut.
    chain = auhost.Chain.from_preset(REFERENCE, tail=0)
    signal = noise(seconds=0.5)
    whole = chain(signal, 48000)
    streamed = auhost.Chain.from_preset(REFERENCE)
    parts = [streamed.process(part, 48000, reset=False) for part in np.array_split(signal, [8192, 16384], axis=1)]
    joined = np.concatenate(parts, axis=1)
    assert joined.shape == signal.shape
    latency = streamed.latency
    assert np.array_equal(joined[:, latency:], whole[:, : signal.shape[1] - latency])


def test_stream_in_any_parts():
    whole = auhost.Chain.from_preset(GAIN_PRESET, tail=0)(noise(seconds=0.2), 48000)
    streamed = auhost.Chain.from_preset(GAIN_PRESET)
    parts = [streamed.process(part, 48000, reset=False) for part in np.array_split(noise(seconds=0.2), [1, 1000, 1001, 7000], axis=1)]
    assert np.array_equal(np.concatenate(parts, axis=1), whole)


def test_to_preset_round_trip(folder):
    chain = auhost.Chain.from_preset(REFERENCE, tail=0)
    chain.parameters["comp.threshold"] = -20
    text = chain.to_preset()
    preset = json.loads(text)
    assert preset["nodes"][1]["id"] == "comp"
    again = auhost.Chain.from_preset(text, tail=0)
    assert again.parameters["comp.threshold"] == -20
    signal = noise(seconds=0.2)
    assert np.array_equal(chain(signal, 48000), again(signal, 48000))


def test_render_warnings_are_python_warnings():
    loud = auhost.Chain.from_preset(GAIN_PRESET, tail=0)
    loud.parameters["gain.gain"] = 12
    with pytest.warns(RuntimeWarning, match="clip"):
        loud(np.full((1, 1000), 0.9, dtype=np.float32), 48000)
