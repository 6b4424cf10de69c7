#!/usr/bin/env bash
# `make test`'s Python step: the package in python/ against this checkout's libauhost
# (.build/debug/libAUHostC.so) and auhost tool, with pytest. Installs what it needs itself
# into a virtual environment in .build/python-venv (seeing the system's packages, so what
# is installed already is not fetched again): cffi, numpy, pytest, and dask and distributed
# for the Dask test. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv --system-site-packages "$venv" 2>/dev/null || {
    echo "test-python: python3 -m venv failed; install python3-venv (make deps does)" >&2
    exit 1
  }
fi
"$venv/bin/python" -c 'import cffi, numpy, pytest, dask, distributed' 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet cffi numpy pytest dask distributed
export AUHOST_LIBRARY=${AUHOST_LIBRARY:-$PWD/.build/debug/libAUHostC.so}
export AUHOST_BIN=${AUHOST_BIN:-$PWD/.build/debug/auhost}
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
