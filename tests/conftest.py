"""Shared fixtures: one local Spark session for the whole run (tests marked ``spark``)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark():
    from sparkcep.clients.session import local_session

    # a runaway Python worker stops at this bound instead of taking the machine
    session = local_session("local[2]", "sparkcep-tests", spark_executor_pyspark_memory="2g")
    yield session
    session.stop()
