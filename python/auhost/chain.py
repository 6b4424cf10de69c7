"""auhost.Chain: a chain preset processing NumPy arrays as `auhost render` processes files."""

import json
import math
import os
import re
import threading
import warnings

import numpy as np

from ._audio import as_planar, channel_table, require_finite
from ._lib import AUHostError, check, error_slot, ffi, lib, raise_error, take_string
from ._smf import standard_midi_file

DEFAULT_BLOCK_SIZE = 512


def units(text=None, type=None):
    """The units on this machine whose name, identifier or codes contain `text` and whose
    type is `type` ("aufx", "aumu", ...), as the dicts `auhost list --json` prints."""
    error = error_slot()
    found = take_string(lib.auhost_units_json(_c(text), _c(type), error))
    if found is None:
        raise_error(error, "could not list the units")
    return json.loads(found)


def _c(text):
    return ffi.NULL if text is None else text.encode("utf-8")


def _node_id(reference, taken):
    """A node id for a unit reference: its subtype code (`aufx:dely:AUHs` → dely) or the last
    word of its URI, unique in the chain."""
    if reference.count(":") == 2 and not reference.startswith("lv2:"):
        base = reference.split(":")[1]
    else:
        base = re.split(r"[/#:]", reference.rstrip("/#"))[-1]
    base = re.sub(r"[^A-Za-z0-9_]", "", base).lower() or "unit"
    if base in ("input", "output"):
        base = "unit"
    name, number = base, 2
    while name in taken:
        name, number = f"{base}{number}", number + 1
    return name


class Parameters:
    """A chain's input parameters by `node.param`: reading gives the value, setting checks
    it as `auhost render --set` does (the same messages)."""

    def __init__(self, chain):
        self._chain = chain

    def _entries(self):
        with self._chain._lock:
            return json.loads(take_string(lib.auhost_chain_parameters_json(self._chain._handle)))

    def info(self, name):
        """The parameter's value, range, default, unit and label."""
        for entry in self._entries():
            if entry["name"] == name:
                return entry
        raise KeyError(name)

    def __getitem__(self, name):
        return self.info(name)["value"]

    def __setitem__(self, name, value):
        self._chain._set(f"{name}={value}")

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self._entries())

    def __contains__(self, name):
        return name in self.keys()

    def keys(self):
        return [entry["name"] for entry in self._entries()]

    def items(self):
        return [(entry["name"], entry["value"]) for entry in self._entries()]

    def __repr__(self):
        return f"Parameters({dict(self.items())!r})"


class Chain:
    """A chain of units (a preset, or a list of unit references) rendering arrays.

    `chain(audio, sample_rate)` renders as `auhost render` renders a file: a clean start,
    the latency compensated, the tail rendered (`tail`: seconds, or None for auto). With
    `reset=False` the stream goes on from the chain's state instead: as many frames out as
    in, `latency` frames late, no tail. The GIL is released while rendering.

    `isolation` runs the chain's plugins out of process (`auhost render --isolation`):
    "none" (in this process, the default), "together" (one child process for all) or
    "per-unit" (one each); a preset node's "isolation" key overrides it. A plugin that
    crashes, exits or hangs in its child raises AUHostError naming the node and what
    happened, and the next call gets a fresh child; in this process the same crash ends
    the Python process (docs/PYTHON.md).
    """

    def __init__(self, units, parameters=None, sample_rate=48000, block_size=DEFAULT_BLOCK_SIZE, threads=0, tail=None, name="Python chain", isolation="none"):
        if isinstance(units, str) or not all(isinstance(unit, (str, tuple)) for unit in units):
            raise TypeError("units: expected a list of unit references (\"lv2:URI\", \"aufx:dely:AUHs\", a name) or (id, reference) pairs")
        nodes, taken = [], set()
        for unit in units:
            node_id, reference = unit if isinstance(unit, tuple) else (_node_id(unit, taken), unit)
            taken.add(node_id)
            nodes.append({"id": node_id, "unit": reference})
        preset = {"auhost": 1, "name": name, "nodes": nodes, "chain": [node["id"] for node in nodes]}
        self._open(json.dumps(preset), os.path.join(os.getcwd(), "chain.json"), sample_rate, block_size, threads, tail, isolation)
        for key, value in (parameters or {}).items():
            self.parameters[key] = value

    @classmethod
    def from_preset(cls, path_or_json, sample_rate=48000, block_size=DEFAULT_BLOCK_SIZE, threads=0, tail=None, isolation="none"):
        """A chain preset from its file, or from its JSON text (paths relative to the current folder)."""
        chain = cls.__new__(cls)
        text = os.fspath(path_or_json)
        if text.lstrip().startswith("{"):
            chain._open(text, os.path.join(os.getcwd(), "preset.json"), sample_rate, block_size, threads, tail, isolation)
        else:
            chain._open(text, None, sample_rate, block_size, threads, tail, isolation)
        return chain

    def _open(self, preset, file, sample_rate, block_size, threads, tail, isolation):
        self._lock = threading.Lock()
        self._handle = None
        self._levels = None
        if not isinstance(isolation, str):
            raise TypeError(f"isolation: expected one of none|together|per-unit, got {isolation!r}")
        error = error_slot()
        handle = lib.auhost_chain_new_isolated(preset.encode("utf-8"), _c(file), float(sample_rate), int(block_size), int(threads), isolation.encode("utf-8"), error)
        if handle == ffi.NULL:
            raise_error(error, "the preset did not load")
        self._handle = ffi.gc(handle, lib.auhost_chain_free)
        self._file = file if file is not None else os.path.abspath(preset)
        self.sample_rate = float(sample_rate)
        self.block_size = int(block_size)
        self.threads = int(threads)
        self.tail = tail
        self.isolation = isolation
        if tail is not None:
            check(lib.auhost_chain_set_tail(self._handle, float(tail), error), error)
        self.parameters = Parameters(self)

    def _set(self, assignment):
        error = error_slot()
        with self._lock:
            check(lib.auhost_chain_set(self._handle, assignment.encode("utf-8"), error), error)

    def _info(self, sample_rate=None):
        error = error_slot()
        rate, inputs, outputs = ffi.new("double *"), ffi.new("int *"), ffi.new("int *")
        latency, tail = ffi.new("int64_t *"), ffi.new("double *")
        with self._lock:
            check(lib.auhost_chain_info(self._handle, float(sample_rate or self.sample_rate), rate, inputs, outputs, latency, tail, error), error)
        return {"sample_rate": rate[0], "input_channels": inputs[0], "output_channels": outputs[0], "latency": latency[0], "tail_seconds": tail[0]}

    @property
    def latency(self):
        """The chain's latency in frames at its rate (compensated by a render with reset)."""
        return self._info()["latency"]

    @property
    def tail_seconds(self):
        """The chain's TailTime: the sum of its units' (infinite when one's is)."""
        return self._info()["tail_seconds"]

    @property
    def levels(self):
        """The last render's levels over its output channels, as `auhost render --results`
        writes them: {"peak_dbfs": sample peak, "rms_dbfs": RMS}, None for silence; None
        before the first render (`process` with `reset=True`, or a call)."""
        return self._levels

    @property
    def input_channels(self):
        return self._info()["input_channels"]

    @property
    def output_channels(self):
        return self._info()["output_channels"]

    def process(self, audio=None, sample_rate=None, reset=True, midi=None, duration=None):
        """Renders `audio` ((channels, frames) or (frames,), float32) at `sample_rate`, or
        plays `midi` ([(seconds, bytes), ...], lasting `duration` seconds, or a Standard MIDI
        File's bytes, as `auhost render` plays a .mid) into the chain's
        instruments; returns float32 shaped (chain's output channels, frames), or (frames,)
        for a (frames,) input through a mono chain. The render's warnings (faults, clipping)
        are issued as RuntimeWarning."""
        rate = float(sample_rate if sample_rate is not None else self.sample_rate)
        if not rate > 0:  # the C API takes 0 as "the chain's own rate"; here that is sample_rate=None
            raise AUHostError(f"audio: sample_rate {rate:g}: expected a rate in 8000...768000 Hz, or None for the chain's")
        if midi is not None or duration is not None:
            if audio is not None:
                raise ValueError("audio and midi: give one; an instrument plays midi over silence")
            if not reset:
                raise ValueError("midi renders with reset=True (a song from its start)")
            if isinstance(midi, (bytes, bytearray)):
                if duration is not None:
                    raise ValueError("duration: a Standard MIDI File says its own length; duration goes with an event list")
                song = bytes(midi)
            else:
                song = standard_midi_file(midi or [], duration)
            return self._render(None, rate, song, True, False)
        if audio is None:
            raise ValueError("audio: None; expected a numpy.ndarray, or midi= for an instrument")
        flat = isinstance(audio, np.ndarray) and audio.ndim == 1
        # A render finds NaN and infinity in the input as it reads it (no pass of its own); a stream does not.
        return self._render(as_planar(audio, finite=not reset), rate, None, reset, flat)

    __call__ = process

    def _render(self, planar, rate, song, reset, flat):
        error = error_slot()
        channels, frames = (0, 0) if planar is None else planar.shape
        table = ffi.NULL if planar is None else channel_table(planar)
        if not reset:
            out = np.empty((self._info(rate)["output_channels"], frames), dtype=np.float32)
            with self._lock:
                check(lib.auhost_chain_stream(self._handle, table, channels, frames, rate, channel_table(out, writable=True), out.shape[0], error), error)
            return out[0] if flat and out.shape[0] == 1 else out
        smf = ffi.NULL if song is None else ffi.from_buffer("uint8_t[]", song)
        # The render writes straight into the array returned when it is as long as the
        # shortest output (always with a tail of fixed length; with auto, when the tail is
        # quiet from its start); a longer output stays in the chain and is copied. A rate the
        # chain refuses is left to the render, which says why.
        outputs, length = ffi.new("int *"), ffi.new("int64_t *")
        with self._lock:
            if song is None and lib.auhost_chain_output_shape(self._handle, frames, float(rate), outputs, length, ffi.NULL) == 0:
                out = np.empty((outputs[0], length[0]), dtype=np.float32)
                placed = check(lib.auhost_chain_process_into(self._handle, table, channels, frames, rate, channel_table(out, writable=True), out.shape[0], out.shape[1], error), error)
            else:
                placed = check(lib.auhost_chain_process(self._handle, table, channels, frames, rate, smf, 0 if song is None else len(song), error), error)
            if not placed:
                out = np.empty((lib.auhost_chain_output_channels(self._handle), lib.auhost_chain_output_frames(self._handle)), dtype=np.float32)
                lib.auhost_chain_copy_output(self._handle, channel_table(out, writable=True))
            if planar is not None and lib.auhost_chain_nonfinite_input(self._handle) > 0:
                require_finite(planar)
            found = json.loads(take_string(lib.auhost_chain_warnings_json(self._handle)))
            peak, rms = ffi.new("double *"), ffi.new("double *")
            lib.auhost_chain_levels(self._handle, peak, rms)
            self._levels = {"peak_dbfs": _finite(peak[0]), "rms_dbfs": _finite(rms[0])}
        for warning in found:
            warnings.warn(warning, RuntimeWarning, stacklevel=3)
        return out[0] if flat and out.shape[0] == 1 else out

    def to_preset(self):
        """The chain as it is now, as preset JSON text (what `auhost save` writes)."""
        error = error_slot()
        with self._lock:
            text = take_string(lib.auhost_chain_preset_json(self._handle, error))
        if text is None:
            raise_error(error, "could not capture the chain")
        return text

    def __reduce__(self):
        return (_restore, (self.to_preset(), self._file, self.sample_rate, self.block_size, self.threads, self.tail, self.isolation))

    def __repr__(self):
        return f"<auhost.Chain {self._file} at {self.sample_rate:g} Hz>"


def _finite(value):
    """`value`, or None when it is not finite (a level of silence)."""
    return value if math.isfinite(value) else None


def _restore(preset, file, sample_rate, block_size, threads, tail, isolation="none"):
    chain = Chain.__new__(Chain)
    chain._open(preset, file, sample_rate, block_size, threads, tail, isolation)
    return chain


__all__ = ["AUHostError", "Chain", "Parameters", "units"]
