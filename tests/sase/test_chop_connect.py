"""Chop-Connect (A-Seq, Qi 2013, Chapter 4): queries sharing a sub-pattern counted with it
computed once give the counts of each query counted alone -- by a brute force over the rows and
by the aggregation engine (``AggregationEngine``) -- on random streams and windows."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.aggregation import AggregationEngine
from sparkcep.engines.sase.chop_connect import ChopConnectCounts, NonSharedCounts

from .harness import ANY, L, seq, spec_of


def brute_force(query, kinds, keys, within) -> int:
    """Every increasing choice of rows whose types spell the query, within the window."""
    count = 0
    for rows in itertools.combinations(range(len(kinds)), len(query)):
        spelled = all(kinds[r] == t for r, t in zip(rows, query))
        if spelled and keys[rows[-1]] - keys[rows[0]] < within:
            count += 1
    return count


def engine_count(query, n_types, kinds, keys, within) -> int:
    spec = spec_of(seq(*[L(t) for t in query]), n_types, ANY, within=within)
    masks = np.asarray([[k == t for k in kinds] for t in range(n_types)], dtype=bool)
    engine = AggregationEngine(spec)
    engine.feed(RowBlock(masks, (), np.asarray(keys)))
    return engine.totals().matches


@pytest.mark.parametrize("seed", range(40))
def test_shared_counts_equal_each_query_alone(seed):
    rnd = random.Random(seed)
    n_types = 7
    types = list(range(n_types))
    rnd.shuffle(types)
    shared = tuple(types[:rnd.randint(2, 3)])
    rest = types[len(shared):]
    prefixes = [tuple(rnd.sample(rest, rnd.randint(1, 2))) for _ in range(rnd.randint(1, 3))]
    queries = [p + shared for p in prefixes]
    n = rnd.randint(0, 16 if seed % 2 else 40)
    kinds = [rnd.randrange(n_types) for _ in range(n)]
    keys, key = [], 0
    for _ in range(n):
        key += rnd.choice([0, 1, 1, 2])
        keys.append(key)
    within = rnd.choice([3, 5, 8, 1000])
    shared_counts = ChopConnectCounts(prefixes, shared, within)
    shared_counts.feed(kinds, keys)
    alone = NonSharedCounts(queries, within)
    alone.feed(kinds, keys)
    expected = [engine_count(q, n_types, kinds, keys, within) for q in queries]
    assert shared_counts.counts == alone.counts == expected
    if n <= 16:
        assert expected == [brute_force(q, kinds, keys, within) for q in queries]

