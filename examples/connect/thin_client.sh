#!/usr/bin/env bash
# The thin Spark Connect client (pyspark-client, no JVM) against `sparkcep serve --connect`:
# makes its own environment (from the package index: this needs the network once), then runs
# tests/clients/test_connect_server.py with it. The test starts and stops its own server.
#
#   examples/connect/thin_client.sh [CLIENT_ENV_FOLDER] [PYSPARK_CLIENT_VERSION]
#
# Run from the repository with the project's environment in .venv (pip install -e '.[test]').
# Defaults: ../venv-connect-client, the newest pyspark-client.
set -euo pipefail
cd "$(dirname "$0")/../.."
client_env=${1:-../venv-connect-client}
version=${2:-}
if [ ! -x "$client_env/bin/python" ]; then
    python3 -m venv "$client_env"
fi
"$client_env/bin/pip" install -q "pyspark-client${version:+==$version}"
"$client_env/bin/pip" list 2>/dev/null | grep -i -E '^(pyspark-client|grpcio|protobuf|pyarrow|pandas) '
SPARKCEP_THIN_CLIENT_PYTHON="$(cd "$client_env" && pwd)/bin/python" \
    .venv/bin/python -m pytest -q -x tests/clients/test_connect_server.py
