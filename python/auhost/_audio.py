"""NumPy arrays as planar float32 channel tables for the library."""

import numpy as np

from ._lib import ffi

MAX_CHANNELS = 64


def as_planar(audio, what="audio", finite=True):
    """`audio` shaped (channels, frames) or (frames,) as a C-contiguous float32 (channels,
    frames) array; a clear error for any other shape, dtype, or (when `finite`) a NaN or
    infinity: a render checks that itself, and `require_finite` then says where."""
    if not isinstance(audio, np.ndarray):
        raise TypeError(f"{what}: a {type(audio).__name__}; expected a numpy.ndarray shaped (channels, frames) or (frames,)")
    if audio.dtype not in (np.float32, np.float64):
        raise TypeError(f"{what}: dtype {audio.dtype}; expected float32 (or float64, converted): audio.astype(numpy.float32)")
    if audio.ndim == 1:
        audio = audio.reshape(1, -1)
    elif audio.ndim != 2:
        raise ValueError(f"{what}: shape {audio.shape}; expected (channels, frames) or (frames,)")
    channels, frames = audio.shape
    if channels == 0 or channels > MAX_CHANNELS:
        hint = f"; if it is (frames, channels), pass {what}.T" if frames <= MAX_CHANNELS and channels > MAX_CHANNELS else ""
        raise ValueError(f"{what}: shape {audio.shape} has {channels} channels; expected 1...{MAX_CHANNELS} channels, shaped (channels, frames){hint}")
    planar = np.ascontiguousarray(audio, dtype=np.float32)
    if not finite:
        return planar
    # One pass that allocates nothing: a NaN or an infinity makes the sum non-finite (so may
    # samples too large for float32's sum: then the exact check below decides).
    with np.errstate(over="ignore", invalid="ignore"):
        total = planar.sum()
    if np.isfinite(total):
        return planar
    require_finite(planar, what)
    return planar


def require_finite(planar, what="audio"):
    """Raises ValueError naming how many samples of `planar` are NaN or infinite and where the first is."""
    finite = np.isfinite(planar)
    if not finite.all():
        bad = np.argwhere(~finite)
        channel, frame = (int(value) for value in bad[0])
        raise ValueError(f"{what}: {len(bad)} NaN or infinite sample{'s' if len(bad) != 1 else ''}, the first at channel {channel}, frame {frame}; expected finite samples")


def channel_table(planar, writable=False):
    """A `float *[]` of the rows of a C-contiguous (channels, frames) float32 array; keep
    the array alive while the table is used."""
    kind = "float *" if writable else "const float *"
    return ffi.new(kind + "[]", [ffi.cast(kind, ffi.from_buffer(row, require_writable=writable)) for row in planar])
