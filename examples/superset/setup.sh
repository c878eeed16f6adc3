#!/usr/bin/env bash
# Makes Superset's own environment for run_demo.py (from the package index and Debian's packages:
# this needs the network once), then runs the demo, which writes docs/img/superset_*.png.
#
#   examples/superset/setup.sh [SUPERSET_ENV_FOLDER]      (default: ../venv-superset)
#
# Run from anywhere, as root or with sudo rights for apt-get (headless Chromium), with the
# project's environment in .venv (pip install -e '.[test]'). Superset pins sqlglot 28 and
# sparkcep needs 30: they cannot share an environment, and need not (Superset only talks to
# `sparkcep serve` over the Thrift protocol).
set -euo pipefail
cd "$(dirname "$0")/../.."
superset_env=${1:-../venv-superset}
if ! command -v chromium > /dev/null; then
    apt-get install -y -q chromium
fi
if [ ! -x "$superset_env/bin/python" ]; then
    python3 -m venv "$superset_env"
fi
# apache-superset[spark]: PyHive, thrift, thrift-sasl. Two pins Superset 6.1.0 misses: it imports
# cachetools without declaring it, and Flask-Caching 2.4+ passes an argument its cache refuses.
"$superset_env/bin/pip" install -q 'apache-superset[spark]==6.1.0' 'flask-caching<2.4' cachetools rich playwright
"$superset_env/bin/pip" list 2>/dev/null | grep -i -E '^(apache.superset|sqlglot|pyhive|playwright|sqlalchemy) '
time "$superset_env/bin/python" examples/superset/run_demo.py
