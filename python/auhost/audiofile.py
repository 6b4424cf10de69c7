"""auhost.AudioFile: audio files read and written in chunks through the library's reader and
(atomic) writer."""

import warnings

import numpy as np

from ._audio import as_planar, channel_table
from ._lib import check, error_slot, ffi, lib, raise_error, take_string


class AudioFile:
    """`AudioFile(path)` reads; `AudioFile(path, "w", sample_rate, num_channels)` writes
    atomically: the file appears, complete, at `close()` (or the end of a `with` block) and
    is abandoned when the block raises. `format`: wav, flac, aiff, caf or ogg (default: the
    extension); `bit_depth`: "16", "24" or "32f" (default 24)."""

    def __init__(self, path, mode="r", sample_rate=None, num_channels=None, format=None, bit_depth=None, overwrite=False):
        self.path = str(path)
        self.mode = mode
        self._reader = self._writer = None
        error = error_slot()
        if mode == "r":
            rate, channels, frames = ffi.new("double *"), ffi.new("int *"), ffi.new("int64_t *")
            reader = lib.auhost_reader_open(self.path.encode(), rate, channels, frames, error)
            if reader == ffi.NULL:
                raise_error(error, f"{self.path}: cannot read")
            self._reader = reader
            self.sample_rate, self.num_channels, self.frames = rate[0], channels[0], frames[0]
            self.position = 0
            warning = lib.auhost_reader_warning(reader)
            if warning != ffi.NULL:
                warnings.warn(take_string(warning), RuntimeWarning, stacklevel=2)
        elif mode == "w":
            if sample_rate is None or num_channels is None:
                raise ValueError(f"{self.path}: writing needs sample_rate and num_channels")
            writer = lib.auhost_writer_open(
                self.path.encode(), float(sample_rate), int(num_channels), ffi.NULL if format is None else format.encode(),
                ffi.NULL if bit_depth is None else str(bit_depth).encode(), 1 if overwrite else 0, error)
            if writer == ffi.NULL:
                raise_error(error, f"{self.path}: cannot write")
            self._writer = writer
            self.sample_rate, self.num_channels, self.frames = float(sample_rate), int(num_channels), 0
        else:
            raise ValueError(f"mode {mode!r}: expected 'r' or 'w'")

    @property
    def duration(self):
        return self.frames / self.sample_rate

    def read(self, frames=None):
        """The next `frames` frames (default: the rest) as float32 (channels, frames); fewer at the end."""
        if self._reader is None:
            raise ValueError(f"{self.path}: not open for reading")
        wanted = self.frames - self.position if frames is None else max(0, min(int(frames), self.frames - self.position))
        out = np.zeros((self.num_channels, wanted), dtype=np.float32)
        if wanted == 0:
            return out
        error = error_slot()
        count = lib.auhost_reader_read(self._reader, channel_table(out, writable=True), wanted, error)
        if count < 0:
            raise_error(error, f"{self.path}: read failed")
        self.position += count
        return out[:, :count]

    def write(self, audio):
        """Appends `audio` ((channels, frames) or (frames,) for mono) to the file."""
        if self._writer is None:
            raise ValueError(f"{self.path}: not open for writing")
        planar = as_planar(audio)
        if planar.shape[0] != self.num_channels:
            raise ValueError(f"audio: {planar.shape[0]} channels; expected {self.num_channels} for {self.path}")
        error = error_slot()
        check(lib.auhost_writer_write(self._writer, channel_table(planar), planar.shape[1], error), error)
        self.frames += planar.shape[1]

    def close(self):
        """Completes a written file (linked into place); closes a read one."""
        if self._reader is not None:
            lib.auhost_reader_close(self._reader)
            self._reader = None
        if self._writer is not None:
            writer, self._writer = self._writer, None
            error = error_slot()
            check(lib.auhost_writer_finish(writer, error), error)

    def cancel(self):
        """Abandons a written file: nothing is left at its path."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            lib.auhost_writer_cancel(writer)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            self.cancel()
        self.close()

    def __del__(self):
        if getattr(self, "_writer", None) is not None:
            self.cancel()
        if getattr(self, "_reader", None) is not None:
            lib.auhost_reader_close(self._reader)
            self._reader = None


def read(path):
    """The whole file as float32 (channels, frames) and its rate."""
    with AudioFile(path) as file:
        return file.read(), file.sample_rate


def write(path, audio, sample_rate, format=None, bit_depth=None, overwrite=False):
    """Writes `audio` ((channels, frames) or (frames,)) atomically."""
    planar = as_planar(audio)
    with AudioFile(path, "w", sample_rate, planar.shape[0], format=format, bit_depth=bit_depth, overwrite=overwrite) as file:
        file.write(planar)
