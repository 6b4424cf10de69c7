"""auhost.AudioFile: chunked reading and atomic writing."""

import os

import numpy as np
import pytest
from conftest import noise

import auhost


def test_chunks_round_trip(folder):
    signal = noise(channels=3, seconds=0.3)
    path = os.path.join(folder, "chunks.flac")
    with auhost.AudioFile(path, "w", 48000, 3, bit_depth="24") as file:
        for part in np.array_split(signal, 7, axis=1):
            file.write(part)
    with auhost.AudioFile(path) as file:
        assert (file.sample_rate, file.num_channels, file.frames) == (48000, 3, signal.shape[1])
        parts = []
        while True:
            part = file.read(5000)
            if part.shape[1] == 0:
                break
            parts.append(part)
    read = np.concatenate(parts, axis=1)
    assert np.allclose(read, signal, atol=2.0 ** -22)


def test_float_files_are_exact(folder):
    signal = noise(seconds=0.1)
    path = os.path.join(folder, "exact.wav")
    auhost.write(path, signal, 44100, bit_depth="32f")
    read, rate = auhost.read(path)
    assert rate == 44100 and np.array_equal(read, signal)


def test_writes_are_atomic_and_refuse_to_replace(folder):
    path = os.path.join(folder, "atomic.wav")
    with pytest.raises(RuntimeError):
        with auhost.AudioFile(path, "w", 48000, 2) as file:
            file.write(noise(seconds=0.1))
            assert not os.path.exists(path)
            raise RuntimeError("stop")
    assert os.listdir(folder) == []
    auhost.write(path, noise(seconds=0.1), 48000)
    with pytest.raises(auhost.AUHostError, match="atomic.wav"):
        auhost.write(path, noise(seconds=0.1), 48000)
    auhost.write(path, noise(seconds=0.2), 48000, overwrite=True)
    assert auhost.read(path)[0].shape[1] == 9600
    with pytest.raises(ValueError, match="3 channels; expected 2"):
        with auhost.AudioFile(os.path.join(folder, "other.wav"), "w", 48000, 2) as file:
            file.write(noise(channels=3, seconds=0.01))
    assert sorted(os.listdir(folder)) == ["atomic.wav"]


def test_read_errors(folder):
    with pytest.raises(auhost.AUHostError, match="missing.wav"):
        auhost.AudioFile(os.path.join(folder, "missing.wav"))
    junk = os.path.join(folder, "junk.wav")
    with open(junk, "wb") as file:
        file.write(b"not audio at all" * 10)
    with pytest.raises(auhost.AUHostError, match="junk.wav"):
        auhost.read(junk)


def test_a_file_cut_short_reads_what_it_holds_with_a_warning(folder):
    signal = noise(channels=2, seconds=0.1)
    whole, cut = os.path.join(folder, "whole.wav"), os.path.join(folder, "cut.wav")
    auhost.write(whole, signal, 48000, bit_depth="32f")
    with open(whole, "rb") as file:
        data = file.read()
    with open(cut, "wb") as file:
        file.write(data[: len(data) - 8000])  # 1,000 of its 4,800 frames (8 bytes each) gone
    with pytest.warns(RuntimeWarning, match=r"cut\.wav: cut short: its header gives 38400 bytes of audio, the file holds 30400 \(3800 frames\)"):
        audio, rate = auhost.read(cut)
    assert audio.shape == (2, 3800) and rate == 48000
    assert np.array_equal(audio, signal[:, :3800])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert auhost.read(whole)[0].shape == (2, 4800)
