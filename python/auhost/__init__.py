"""AUHost from Python: chains of LV2 and native units on NumPy arrays, rendered exactly as
`auhost render` renders files (docs/PYTHON.md)."""

from ._lib import AUHostError, library_path
from .audiofile import AudioFile, read, write
from .chain import Chain, Parameters, units

__all__ = ["AUHostError", "AudioFile", "Chain", "Parameters", "library_path", "read", "units", "write"]
