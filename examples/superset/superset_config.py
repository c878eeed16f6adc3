"""Superset configuration for examples/superset/run_demo.py (read through SUPERSET_CONFIG_PATH).

Everything Superset writes (its SQLite metadata database) goes to SUPERSET_HOME, a temporary
folder the demo makes. sparkcep needs two things here:

- SQLGLOT_DIALECTS_EXTENSIONS: Superset parses and regenerates every statement with sqlglot, whose
  Hive dialect (the one Superset uses for both "Apache Hive" and "Apache Spark SQL") knows neither
  MATCH_RECOGNIZE nor row pattern recognition in a WINDOW clause (sparkcep_sqlglot.py, beside this
  file);
- the SQLAlchemy dialect ``hive`` replaced by sparkcep's (sparkcep/clients/sqlalchemy_dialect.py,
  which imports only SQLAlchemy and PyHive): PyHive's reads Spark's ``SHOW TABLES`` wrong, so the
  table browser (SQL Lab's left pane, Datasets -> +) would list no table. Hive's answers are
  read as PyHive reads them. Outside this repository, copy that file beside this one.
"""

import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)

from sparkcep_sqlglot import SparkCepPassthrough
from sqlalchemy.dialects import registry


def _register_sqlalchemy_dialect() -> None:
    """sparkcep's SQLAlchemy dialect as ``hive`` (and ``hive.sparkcep``): the file beside this
    one, else the repository's (sparkcep itself is not installed here: Superset pins sqlglot 28)."""
    path = os.path.join(_here, "sparkcep_sqlalchemy.py")
    if not os.path.exists(path):
        path = os.path.join(_here, "..", "..", "sparkcep", "clients", "sqlalchemy_dialect.py")
    spec = importlib.util.spec_from_file_location("sparkcep_sqlalchemy", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sparkcep_sqlalchemy"] = module
    spec.loader.exec_module(module)
    for name in ("hive", "hive.sparkcep"):
        registry.register(name, "sparkcep_sqlalchemy", "SparkHiveDialect")


if not os.environ.get("SPARKCEP_SUPERSET_PLAIN"):
    _register_sqlalchemy_dialect()

# SPARKCEP_SUPERSET_PLAIN=1 leaves Superset's own dialects, to see what it does without these
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
