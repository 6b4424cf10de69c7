"""The output for a file equals `auhost render`'s, sample for sample, for every shipped preset."""

import os

import numpy as np
import pytest
from conftest import PRESETS, noise, run_auhost

import auhost

AUDIO_PRESETS = ["reference", "guitar-amp", "mastering", "podcast-cleanup", "stereo-widener", "two-branches", "vocal", "test-signal"]
SONG_PRESETS = [("gm-sampler", "gm-song.mid"), ("synth-patch", "arpeggio-chords.mid"), ("arpeggiated-synth", "arpeggio-chords.mid"), ("two-part-band", "two-part-song.mid")]


def rendered(folder, preset, source, *options):
    output = os.path.join(folder, "out.wav")
    run_auhost("render", preset, source, "-o", output, "--bit-depth", "32f", "--block", "512", *options)
    audio, rate = auhost.read(output)
    os.remove(output)
    return audio, rate


@pytest.mark.parametrize("name", AUDIO_PRESETS)
def test_audio_preset_equals_auhost_render(folder, name):
    preset = os.path.join(PRESETS, name + ".json")
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.5), 48000, bit_depth="32f")
    expected, rate = rendered(folder, preset, source, "--tail", "2")
    chain = auhost.Chain.from_preset(preset, tail=2)
    audio, audio_rate = auhost.read(source)
    got = chain(audio, audio_rate)
    # A file gets the more of its and the chain's channels: a mono chain comes back copied.
    assert expected.shape[1] == got.shape[1]
    assert np.array_equal(expected[: got.shape[0]], got)
    # A second render starts clean: the same samples again.
    assert np.array_equal(chain(audio, audio_rate), got)


def test_native_effects_render_after_other_audio_equals_auhost_render(folder):
    """A series of native effects is not built anew for each render: its units are reset
    (delay lines, envelopes, ramps cleared). Straight after other audio, every delay line
    and envelope still busy, a render equals `auhost render` of that file alone."""
    units = ["aufx:dely:AUHs", "aufx:rvrb:AUHs", "aufx:comp:AUHs", "aufx:peq :AUHs", "aufx:gain:AUHs"]
    chain = auhost.Chain(units, parameters={"dely.mix": 50, "dely.feedback": 60, "gain.gain": -3}, tail=0)
    preset = os.path.join(folder, "natives.json")
    with open(preset, "w") as file:
        file.write(chain.to_preset())
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.5), 48000, bit_depth="32f")
    expected, _ = rendered(folder, preset, source, "--tail", "0")
    audio, rate = auhost.read(source)
    assert np.abs(chain(noise(seconds=0.3, seed=7, level=0.5), rate)).max() > 0.01
    assert np.array_equal(expected, chain(audio, rate))


@pytest.mark.parametrize("name,song", SONG_PRESETS)
def test_song_preset_equals_auhost_render(folder, name, song):
    preset = os.path.join(PRESETS, name + ".json")
    song_path = os.path.join(PRESETS, song)
    expected, _ = rendered(folder, preset, song_path, "--tail", "1")
    chain = auhost.Chain.from_preset(preset, tail=1)
    with open(song_path, "rb") as file:
        got = chain(midi=file.read())
    assert np.array_equal(expected, got)


def test_midi_events_equal_auhost_render_of_the_same_song(folder):
    preset = os.path.join(PRESETS, "synth-patch.json")
    events = [(0.0, bytes([0x90, 60, 100])), (0.25, bytes([0x90, 64, 90])), (0.5, [0x80, 60, 0]), (0.75, (0x80, 64, 0))]
    song_path = os.path.join(folder, "song.mid")
    with open(song_path, "wb") as file:
        file.write(auhost.chain.standard_midi_file(events, duration=1.5))
    expected, rate = rendered(folder, preset, song_path, "--tail", "0")
    chain = auhost.Chain.from_preset(preset, tail=0)
    got = chain(midi=events, duration=1.5)
    assert got.shape[1] == int(1.5 * rate)
    assert np.abs(got).max() > 0.01
    assert np.array_equal(expected, got)


def test_set_equals_render_with_set(folder):
    preset = os.path.join(PRESETS, "test-signal.json")
    source = os.path.join(folder, "in.wav")
    auhost.write(source, noise(seconds=0.25), 48000, bit_depth="32f")
    expected, _ = rendered(folder, preset, source, "--tail", "0", "--set", "tone.frequency=440", "--set", "echo.mix=0")
    chain = auhost.Chain.from_preset(preset, tail=0)
    chain.parameters["tone.frequency"] = 440
    chain.parameters["echo.mix"] = 0
    assert chain.parameters["tone.frequency"] == 440
    got = chain(auhost.read(source)[0], 48000)
    assert np.array_equal(expected, got)
