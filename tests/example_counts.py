"""How many examples a Hypothesis property test generates, scaled by the active settings profile.

The full run (``pytest -q``, what CI runs) uses Hypothesis's default profile: 100 examples for
a test that names no count, and exactly ``n`` for a test that asks for ``examples(n)``.

The quick run (``--hypothesis-profile=quick``, registered in ``tests/conftest.py``) lowers the
profile's ``max_examples``; an explicit ``@settings(max_examples=n)`` would override the
profile, so property tests ask for ``examples(n)`` instead, which scales ``n`` by the profile's
share of Hypothesis's default (``quick``: 15 of 100, so 1500 becomes 225) and never goes below
``FLOOR`` examples (or ``n`` itself, when ``n`` is smaller).

The count is computed when the test module is imported, after the pytest plugin of Hypothesis
has loaded the profile named on the command line.
"""

from __future__ import annotations

from hypothesis import settings

#: Hypothesis's own ``max_examples`` default: the profile value at which ``examples(n) == n``
DEFAULT_MAX_EXAMPLES = 100

#: the fewest examples a scaled-down test still generates
FLOOR = 20


def examples(n: int) -> int:
    """``n`` under the default profile; ``n`` times the active profile's ``max_examples`` / 100
    otherwise, at least ``min(n, FLOOR)``."""
    share = settings.default.max_examples / DEFAULT_MAX_EXAMPLES
    if share >= 1:
        return round(n * share)
    return max(min(n, FLOOR), round(n * share))
