"""``sparkcep.evaluation.java_tim_sort`` against Java's own ``Arrays.sort(Object[], Comparator)``:
the outcome (order, contract violation, the comparator's exception), the number of comparator
calls and the order, for the 3,000 recorded cases of ``record_tim_sort_calls.py`` (consistent and
inconsistent comparators, some throwing at a given call; arrays of 0 to 300 elements), without
Java. ``java_tim_sort`` was written from TimSort's published description, not Java's code, so
agreeing here on every case is the evidence that it makes Java's calls."""

from __future__ import annotations

import json

import pytest

from sparkcep.evaluation import java_tim_sort
from tests.evaluation import record_tim_sort_calls as recording


class Thrown(Exception):
    pass


def python_outcome(kind, param, throw_at, keys, table) -> list:
    compare, calls = recording.comparator(kind, param, throw_at, keys, table, Thrown)
    try:
        order = java_tim_sort.sort(list(range(len(keys))), compare)
    except Thrown:
        return ["THROW", calls[0]]
    except java_tim_sort.ComparisonContractViolation:
        return ["IAE", calls[0]]
    return ["OK", calls[0], recording.order_crc(order)]


def test_every_recorded_case_makes_javas_calls():
    recorded = json.loads(recording.ANSWERS.read_text())
    assert recorded["seed"] == recording.SEED and recorded["count"] == recording.COUNT
    cases = recording.cases()
    differences = [(i, case[0], len(case[3]), case[2], answer, python_outcome(*case))
                   for i, (case, answer) in enumerate(zip(cases, recorded["answers"], strict=True))
                   if python_outcome(*case) != answer]
    assert not differences, differences[:5]


def test_the_recording_covers_what_matters():
    """Every outcome, merges (arrays of at least MIN_MERGE elements) under each comparator, and
    contract violations from both merge directions' sizes."""
    recorded = json.loads(recording.ANSWERS.read_text())["answers"]
    cases = recording.cases()
    outcomes = {a[0] for a in recorded}
    assert outcomes == {"OK", "IAE", "THROW"}
    long_kinds = {c[0] for c, a in zip(cases, recorded) if len(c[3]) >= 2 * java_tim_sort.MIN_MERGE and a[0] == "OK"}
    assert long_kinds == set(recording.KINDS)
    assert sum(a[0] == "IAE" for a in recorded) >= 50


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 64, 65, 255, 300])
def test_a_consistent_comparator_sorts_stably(n):
    """The order of a consistent comparator is the stable sort's (an independent check of the
    whole order, not only its CRC)."""
    keys = [(i * 7919) % 5 for i in range(n)]
    order = java_tim_sort.sort(list(range(n)), lambda x, y: (keys[x] > keys[y]) - (keys[x] < keys[y]))
    assert order == sorted(range(n), key=lambda i: keys[i])


def test_min_run_length():
    # Java's MIN_MERGE is 32 (listsort.txt's 64): 2112 -> 17 there, 33 in CPython
    assert [java_tim_sort.min_run_length(n) for n in (31, 32, 33, 63, 64, 65, 2048, 2112)] == [31, 16, 17, 32, 16, 17, 16, 17]
