"""Shared fixtures: one local Spark session for the whole run (tests marked ``spark``)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark():
    from sparkcep.clients.session import local_session

    session = local_session("local[2]", "sparkcep-tests")
    yield session
    session.stop()
