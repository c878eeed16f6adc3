"""How many examples a generated test checks, scaled by the active Hypothesis profile.

The full run (``pytest -q``, what CI runs) uses Hypothesis's default profile: 100 examples for
a property test that names no count, and exactly ``n`` for a test that asks for
``examples(n)``.

The quick run (``--hypothesis-profile=quick``, registered in ``tests/conftest.py``) lowers the
profile's ``max_examples`` to 10, a share of 10 % of Hypothesis's default 100. An explicit
``@settings(max_examples=n)`` would override the profile, so property tests ask for
``examples(n)`` instead: in the quick run 10 % of ``n``, at least ``FLOOR`` and at most ``CAP``
(never more than ``n``): the tests with thousands of examples would otherwise dominate the time
of the quick run, and the full run still generates all of them.

The counts are computed when a test module is imported, after the pytest plugin of Hypothesis
has loaded the profile named on the command line. Seeded or derandomized tests stay
reproducible: a count fixes which cases run.
"""

from __future__ import annotations

from hypothesis import settings

#: Hypothesis's own ``max_examples`` default: the profile value at which ``examples(n) == n``
DEFAULT_MAX_EXAMPLES = 100

#: the fewest examples a scaled-down test still generates
FLOOR = 10

#: the most examples a scaled-down test generates
CAP = 30


def share(profile: settings | None = None) -> float:
    """``profile``'s ``max_examples`` over Hypothesis's default (1 in the full run); ``profile``
    is the active one unless given."""
    return (profile or settings.default).max_examples / DEFAULT_MAX_EXAMPLES


def examples(n: int, profile: settings | None = None) -> int:
    """``n`` in the full run; ``n`` times ``share()`` in a smaller profile, within
    ``[min(n, FLOOR), min(n, CAP)]``."""
    if share(profile) >= 1:
        return n
    return min(n, CAP, max(FLOOR, round(n * share(profile))))
