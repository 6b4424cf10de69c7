"""auhost.dask: a batch of files through one chain on a Dask `distributed` cluster
(docs/SCALE.md). The batch is cut into shards by the same stable hash as `auhost render
--shard`; each shard is one task, and each worker process keeps one chain per preset for
all the files of its tasks. Outputs are written atomically and an existing output is left
alone, so a worker killed mid-run loses nothing: the scheduler runs its tasks again
elsewhere, which render only what is missing, and each input gets one result row.

Command line: python -m auhost.dask --scheduler tcp://HOST:8786 --preset P.json --out DIR
[--relative-to ROOT] [--manifest ROWS.jsonl] [--results R.jsonl] [FILE ...]
"""

import json
import os
import time
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from ._lib import AUHostError
from .audiofile import AudioFile, read
from .chain import Chain

# The formats auhost writes, by extension (else wav), as `auhost render --output-dir` names outputs.
_FORMATS = {"wav": "wav", "wave": "wav", "flac": "flac", "aif": "aiff", "aiff": "aiff", "aifc": "aiff", "caf": "caf", "ogg": "ogg", "oga": "ogg"}


def shard_hash(key):
    """FNV-1a over the UTF-8 bytes: `auhost render --shard`'s split."""
    value = 0xCBF29CE484222325
    for byte in key.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def uniform(seed, name):
    """A number in [0, 1) from a row's seed and a parameter's name: `--manifest`'s draw."""
    state = (seed ^ shard_hash(name)) + 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF
    state = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    state = ((state ^ (state >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    state ^= state >> 31
    return (state >> 11) / float(1 << 53)


def _key(path, relative_to):
    if relative_to is None:
        return path
    root = os.path.abspath(relative_to).rstrip("/") + "/"
    full = os.path.abspath(path)
    if not full.startswith(root):
        raise ValueError(f"{path}: not under relative_to {relative_to}; expected every input inside it")
    return full[len(root):]


def _output(path, out, relative_to, bit_depth):
    name = os.path.basename(path)
    stem, dot, extension = name.rpartition(".")
    stem = stem if dot and stem else name
    extension = _FORMATS.get(extension.lower(), "wav") if dot else "wav"
    folder = os.path.join(out, os.path.dirname(_key(path, relative_to))) if relative_to is not None else out
    return os.path.join(folder, f"{stem}.{extension}")


def _rows(files, manifest, out, relative_to):
    rows = [{"input": os.fspath(path)} for path in files or []]
    if isinstance(manifest, (str, os.PathLike)):
        with open(manifest) as file:
            manifest = [json.loads(line) for line in file if line.strip()]
    rows += [dict(row) for row in manifest or []]
    for row in rows:
        if "output" not in row:
            if out is None:
                raise ValueError(f"{row['input']}: no output; pass out= or give the row an \"output\"")
            row["output"] = _output(row["input"], out, relative_to, None)
        sets = []
        for target, value in sorted((row.get("set") or {}).items()):
            if isinstance(value, (list, tuple)):
                low, high = value
                if "seed" not in row:
                    raise ValueError(f"{row['input']}: set {target}: a range needs the row's \"seed\"")
                value = low + (high - low) * uniform(int(row["seed"]), target)
            sets.append(f"{target}={value}")
        row["set"] = sets
    outputs = [os.path.abspath(row["output"]) for row in rows]
    if len(set(outputs)) != len(outputs):
        seen = {}
        for row, output in zip(rows, outputs):
            if output in seen:
                raise ValueError(f"{seen[output]} and {row['input']} would both be written to {row['output']}; pass relative_to=ROOT")
            seen[output] = row["input"]
    return rows


# Per worker process: one chain per preset, settings and per-file settings, for every task.
_CHAINS = {}


def _chain(preset, settings, sets):
    key = (preset, tuple(sorted(settings.items())), tuple(sets))
    if key not in _CHAINS:
        chain = Chain.from_preset(preset, sample_rate=settings["sample_rate"], block_size=settings["block_size"], threads=settings["threads"], tail=settings["tail"],
                                  isolation=settings["isolation"])
        for assignment in sets:
            chain._set(assignment)
        _CHAINS[key] = chain
    return _CHAINS[key]


def render_shard(preset, rows, settings):
    """Renders `rows` on this worker; returns one result row per input (rendered, skipped
    because its output exists, or failed with the error). Each output is completed (flushed
    to disk and linked into place) on a thread of its own while the next file renders, at
    most `_COMMITS_WAITING` at a time; a row's result is final once its output is in place."""
    results = []
    waiting = deque()
    with ThreadPoolExecutor(max_workers=1) as committer:
        for row in rows:
            result = {"input": row["input"], "output": row["output"], "set": row["set"], "index": row.get("index")}
            started = time.monotonic()
            commit = None
            try:
                if os.path.exists(row["output"]):
                    result["status"] = "skipped"
                else:
                    audio, rate = read(row["input"])
                    chain = _chain(preset, settings, row["set"])
                    rendered = chain(audio, rate)
                    os.makedirs(os.path.dirname(os.path.abspath(row["output"])), exist_ok=True)
                    file = AudioFile(row["output"], "w", chain._info(rate)["sample_rate"], rendered.shape[0], bit_depth=settings["bit_depth"])
                    try:
                        file.write(rendered)
                    except BaseException:
                        file.cancel()
                        raise
                    commit = committer.submit(_timed, file.close)
                    result.update(status="rendered", frames=int(rendered.shape[1]), **chain.levels)
            except (AUHostError, ValueError, TypeError, OSError) as error:
                result.update(status="failed", error=str(error))
            result["seconds"] = time.monotonic() - started
            result["worker_pid"] = os.getpid()
            results.append(result)
            if commit is not None:
                waiting.append((result, commit))
                if len(waiting) > _COMMITS_WAITING:
                    _committed(*waiting.popleft())
        while waiting:
            _committed(*waiting.popleft())
    return results


_COMMITS_WAITING = 8


def _timed(work):
    started = time.monotonic()
    work()
    return time.monotonic() - started


def _committed(result, commit):
    """`result` once its output's commit is over: its time added, or failed with the error."""
    try:
        result["seconds"] += commit.result()
    except (AUHostError, OSError) as error:
        for key in ("frames", "peak_dbfs", "rms_dbfs"):
            result.pop(key, None)
        result.update(status="failed", error=str(error))


def render(files, preset, client=None, out=None, manifest=None, relative_to=None, shards=None, results=None,
           sample_rate=48000, block_size=512, threads=1, tail=None, bit_depth=None, isolation="none"):
    """Renders `files` (and the `manifest`'s rows: dicts or a JSON Lines file of
    {"input", "output", "set", "seed"}, as `auhost render --manifest`) through `preset` (a
    file or JSON text) on `client`'s cluster (default: the current one), into `out`
    (mirroring `relative_to`'s tree when given). Returns the result rows in input order and
    writes them to `results` (JSON Lines) when given. `isolation` ("per-unit", "together")
    runs each worker's plugins in child processes: a plugin that crashes fails the file it
    was rendering (its row says why) instead of ending the worker."""
    if client is None:
        from distributed import get_client
        client = get_client()
    text = os.fspath(preset)
    if not text.lstrip().startswith("{"):
        with open(text) as file:
            text = file.read()
    Chain.from_preset(text, isolation=isolation)  # a bad preset fails here, once, not on every worker
    rows = _rows(files, manifest, out, relative_to)
    workers = max(1, len(client.scheduler_info()["workers"]))
    count = shards or min(len(rows), 4 * workers) or 1
    split = [[] for _ in range(count)]
    for index, row in enumerate(rows):
        split[shard_hash(_key(row["input"], relative_to)) % count].append(dict(row, index=index))
    settings = {"sample_rate": sample_rate, "block_size": block_size, "threads": threads, "tail": tail, "bit_depth": bit_depth, "isolation": isolation}
    batch = uuid.uuid4().hex
    futures = [client.submit(render_shard, text, share, settings, pure=False, key=f"auhost-{batch}-shard-{number}-of-{count}") for number, share in enumerate(split) if share]
    ordered = [None] * len(rows)
    for future in futures:
        for row in future.result():
            ordered[row.pop("index")] = row
    if results is not None:
        with open(results, "a") as file:
            for row in ordered:
                file.write(json.dumps(row, sort_keys=True) + "\n")
    return ordered


def _main():
    import argparse

    from distributed import Client

    parser = argparse.ArgumentParser(prog="python -m auhost.dask", description="auhost render on a Dask cluster (docs/SCALE.md)")
    parser.add_argument("--scheduler", required=True, help="the scheduler's address, tcp://HOST:8786")
    parser.add_argument("--preset", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--relative-to")
    parser.add_argument("--manifest")
    parser.add_argument("--inputs-from")
    parser.add_argument("--results")
    parser.add_argument("--tail", type=float)
    parser.add_argument("--bit-depth")
    parser.add_argument("--isolation", default="none", choices=["none", "together", "per-unit"],
                        help="run the plugins in child processes: a crash fails its file, not the worker")
    parser.add_argument("files", nargs="*")
    arguments = parser.parse_args()
    files = list(arguments.files)
    if arguments.inputs_from:
        with open(arguments.inputs_from) as file:
            files += [line.rstrip("\n") for line in file if line.strip()]
    with Client(arguments.scheduler) as client:
        rows = render(files, arguments.preset, client=client, out=arguments.out, manifest=arguments.manifest, relative_to=arguments.relative_to,
                      results=arguments.results, tail=arguments.tail, bit_depth=arguments.bit_depth, isolation=arguments.isolation)
    failed = [row for row in rows if row["status"] == "failed"]
    for row in failed:
        print(f"auhost: {row['error']}", flush=True)
    print(f"dask: {len(rows) - len(failed)} of {len(rows)} files rendered or present, {len(failed)} failed")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    _main()
