#!/usr/bin/env bash
# Creates the peer venvs used by bench/peers.py. Not part of CI; each is optional.
#   bench/.venv-pmr    pandas-match-recognize (pins pandas<3, numpy<2.2, so it gets its own venv)
#   bench/.venv-flink  apache-flink (PyFlink, local mini-cluster; ~850 MB, ~1 min; needs Java 11+)
# Usage: bash bench/setup_peers.sh [pmr] [flink]     (no argument = both)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-python3}"
want="${*:-pmr flink}"
if [[ " $want " == *" pmr "* ]]; then
  [ -x "$here/.venv-pmr/bin/python" ] || "$py" -m venv "$here/.venv-pmr"
  "$here/.venv-pmr/bin/pip" install -q --upgrade pip
  "$here/.venv-pmr/bin/pip" install -q pandas-match-recognize pyarrow
  "$here/.venv-pmr/bin/python" -c "import pandas_match_recognize, pandas, numpy; print('pmr ok: pandas', pandas.__version__, 'numpy', numpy.__version__)"
fi
if [[ " $want " == *" flink "* ]]; then
  [ -x "$here/.venv-flink/bin/python" ] || "$py" -m venv "$here/.venv-flink"
  "$here/.venv-flink/bin/pip" install -q --upgrade pip
  "$here/.venv-flink/bin/pip" install -q apache-flink
  "$here/.venv-flink/bin/python" -c "import pyflink, importlib.metadata as m; print('flink ok:', m.version('apache-flink'))"
fi
