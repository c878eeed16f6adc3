"""Shared fixtures: one local Spark session for the whole run (tests marked ``spark``), and the
run order: fast tests first, Spark tests next, the standalone-cluster test last, so that
``pytest -q`` reports its first results within seconds."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The quick run (README: `--hypothesis-profile=quick`): a property test generates 10 examples
# where the full run generates Hypothesis's default 100; tests sized by `examples(n)`
# (tests/example_counts.py) a tenth of their count, 10 to 30 examples.
# No deadline: the machine may be shared. The full run (`pytest -q`, CI) keeps Hypothesis's
# default profile and every test's own count.
settings.register_profile("quick", max_examples=10, deadline=None)


def _stage(item) -> int:
    """0: pure Python, 1: local Spark, 2: standalone cluster (slow start-up)."""
    if item.get_closest_marker("cluster") is not None:
        return 2
    if item.get_closest_marker("spark") is not None:
        return 1
    return 0


def pytest_collection_modifyitems(session, config, items):
    # a stable sort: within a stage the collection order (file by file) is kept
    items.sort(key=_stage)


@pytest.fixture(scope="session")
def spark():
    from sparkcep.clients.session import local_session

    # a runaway Python worker stops at this bound instead of taking the machine
    session = local_session("local[2]", "sparkcep-tests", spark_executor_pyspark_memory="2g")
    # SPARKCEP_TEST_PATH=catalyst|auto|python runs every Spark test on one path (default: the
    # session's default, python; docs/semantics.md "The Catalyst path"), so the whole corpus
    # checks each path
    path = os.environ.get("SPARKCEP_TEST_PATH")
    if path:
        session.conf.set("spark.sparkcep.path", path)
    yield session
    session.stop()
