"""libauhost.so through cffi in ABI mode (no compiler at install): the declarations of
include/auhost.h, the library found, and its errors turned into exceptions."""

import os
import shutil

from cffi import FFI

# include/auhost.h's declarations (tests/test_api.py checks each is in the header).
CDEF = """
typedef struct auhost_chain auhost_chain;
typedef struct auhost_reader auhost_reader;
typedef struct auhost_writer auhost_writer;
int auhost_api_version(void);
void auhost_free(void *pointer);
char *auhost_units_json(const char *text, const char *type, char **error);
auhost_chain *auhost_chain_new(const char *preset, const char *file, double sample_rate, int block_size, int threads, char **error);
auhost_chain *auhost_chain_new_isolated(const char *preset, const char *file, double sample_rate, int block_size, int threads, const char *isolation, char **error);
void auhost_chain_free(auhost_chain *chain);
int auhost_chain_set(auhost_chain *chain, const char *assignment, char **error);
int auhost_chain_set_tail(auhost_chain *chain, double seconds, char **error);
int auhost_chain_info(auhost_chain *chain, double sample_rate, double *chain_rate, int *input_channels, int *output_channels, int64_t *latency_frames, double *tail_seconds, char **error);
int auhost_chain_output_shape(auhost_chain *chain, int64_t frames, double sample_rate, int *output_channels, int64_t *output_frames, char **error);
int auhost_chain_process(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate, const uint8_t *smf, size_t smf_size, char **error);
int auhost_chain_process_into(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate, float *const *output, int output_channels, int64_t output_frames, char **error);
int auhost_chain_stream(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate, float *const *output, int output_channels, char **error);
int auhost_chain_output_channels(const auhost_chain *chain);
int64_t auhost_chain_output_frames(const auhost_chain *chain);
void auhost_chain_copy_output(const auhost_chain *chain, float *const *output);
char *auhost_chain_warnings_json(const auhost_chain *chain);
int64_t auhost_chain_nonfinite_input(const auhost_chain *chain);
void auhost_chain_levels(const auhost_chain *chain, double *peak_dbfs, double *rms_dbfs);
char *auhost_chain_parameters_json(const auhost_chain *chain);
char *auhost_chain_preset_json(const auhost_chain *chain, char **error);
auhost_reader *auhost_reader_open(const char *path, double *sample_rate, int *channels, int64_t *frames, char **error);
int64_t auhost_reader_read(auhost_reader *reader, float *const *output, int64_t frames, char **error);
void auhost_reader_close(auhost_reader *reader);
char *auhost_reader_warning(const auhost_reader *reader);
auhost_writer *auhost_writer_open(const char *path, double sample_rate, int channels, const char *format, const char *bit_depth, int overwrite, char **error);
int auhost_writer_write(auhost_writer *writer, const float *const *input, int64_t frames, char **error);
int auhost_writer_finish(auhost_writer *writer, char **error);
void auhost_writer_cancel(auhost_writer *writer);
"""

API_VERSION = 7

ffi = FFI()
ffi.cdef(CDEF)


class AUHostError(Exception):
    """What the library refused or failed at: one line per problem, as `auhost` prints them."""


def _candidates():
    """Where libauhost is looked for: $AUHOST_LIBRARY, the build folders of the checkout this
    package sits in (release first), PREFIX/lib of the `auhost` on the PATH (`make install`
    puts libauhost.so there), then the system's loader."""
    given = os.environ.get("AUHOST_LIBRARY")
    if given:
        return [given]
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = [os.path.join(repo, ".build", config, "libAUHostC.so") for config in ("release", "debug")]
    tool = shutil.which("auhost")
    if tool:
        found.append(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(tool))), "lib", "libauhost.so"))
    return [path for path in found if os.path.exists(path)] + ["libauhost.so"]


def _load():
    problems = []
    for candidate in _candidates():
        try:
            library = ffi.dlopen(candidate)
        except OSError as error:
            problems.append(f"{candidate}: {error}")
            continue
        if library.auhost_api_version() != API_VERSION:
            problems.append(f"{candidate}: API version {library.auhost_api_version()}; expected {API_VERSION}")
            continue
        return library, candidate
    raise ImportError("auhost: libauhost not found (" + "; ".join(problems) + "); build it with `swift build` or `make install`, or set AUHOST_LIBRARY")


lib, library_path = _load()

# Native units sit beside the library in a build folder, in PREFIX/lib/auhost/plugins when
# installed: the registry looks where AUHOST_PLUGIN_PATH says, read at the first discovery.
_folder = os.path.dirname(os.path.realpath(library_path)) if os.path.sep in library_path else None
if _folder:
    _extra = [_folder, os.path.join(_folder, "auhost", "plugins")]
    _given = [path for path in os.environ.get("AUHOST_PLUGIN_PATH", "").split(":") if path]
    os.environ["AUHOST_PLUGIN_PATH"] = ":".join(_given + [path for path in _extra if path not in _given])


def take_string(pointer):
    """The library's malloc'ed string as str, freed."""
    if pointer == ffi.NULL:
        return None
    try:
        return ffi.string(pointer).decode("utf-8")
    finally:
        lib.auhost_free(pointer)


def error_slot():
    return ffi.new("char **")


def raise_error(slot, fallback):
    message = take_string(slot[0]) or fallback
    raise AUHostError(message)


def check(status, slot, fallback="the library failed"):
    if status < 0:
        raise_error(slot, fallback)
    return status
