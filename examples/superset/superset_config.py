"""Superset configuration for examples/superset/run_demo.py (read through SUPERSET_CONFIG_PATH).

Everything Superset writes (its SQLite metadata database) goes to SUPERSET_HOME, a temporary
folder the demo makes. The one setting sparkcep needs is SQLGLOT_DIALECTS_EXTENSIONS: Superset
parses and regenerates every statement with sqlglot, whose Hive dialect (the one Superset uses for
both "Apache Hive" and "Apache Spark SQL") does not know MATCH_RECOGNIZE.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sparkcep_sqlglot import SparkCepPassthrough  # noqa: E402

# SPARKCEP_SUPERSET_PLAIN=1 leaves Superset's own Hive dialect, to see what it does without this
SQLGLOT_DIALECTS_EXTENSIONS = {} if os.environ.get("SPARKCEP_SUPERSET_PLAIN") else {"hive": SparkCepPassthrough}

_home = os.environ["SUPERSET_HOME"]
SECRET_KEY = os.environ.get("SUPERSET_SECRET_KEY", "sparkcep-superset-demo-only-not-a-secret")
SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(_home, "superset.db")
DATA_DIR = _home
# one worker, no Celery: SQL Lab runs queries in the web process (the demo's only user)
SQLLAB_ASYNC_TIME_LIMIT_SEC = 300
SQLLAB_TIMEOUT = 300
SUPERSET_WEBSERVER_TIMEOUT = 300
WTF_CSRF_ENABLED = True
TALISMAN_ENABLED = False
FEATURE_FLAGS = {}
# no example dashboards, no telemetry
SUPERSET_LOAD_EXAMPLES = False
