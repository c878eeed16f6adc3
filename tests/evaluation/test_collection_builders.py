"""Array-building and map functions between rows of a match
(``sparkcep.evaluation.collection_builders``): the types Spark gives them over every pair of
operand types, the error codes Spark raises, and what Spark's recorded answers cannot show (the
size budget, ``spark.sql.mapKeyDedupPolicy`` LAST_WIN, which operators are pushed into a
navigation).

The values are checked against Spark's recorded answers for the corpus by
``test_recorded_spark_answers.py`` (ANSI on and off); the types against
``collection_types.json`` (written by ``record_collection_types.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, MatchRuntimeError, SparkCepError
from sparkcep.evaluation import collection_builders as b
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p
from tests.evaluation import corpus
from tests.evaluation.harness import Refused, _Error, evaluate_all, evaluators, lower
from tests.evaluation.spark_oracle import decode

TYPES = json.loads(Path(__file__).with_name("collection_types.json").read_text(encoding="utf-8"))
RECORDED = json.loads(Path(__file__).with_name("spark_answers.json").read_text(encoding="utf-8"))

# function of the recording -> (sparkcep's expression over A.x and B.y, the type of x, of y)
_FORMS = {
    "array_union": ("array_union(A.x, B.y)", "array<{a}>", "array<{b}>"),
    "array_intersect": ("array_intersect(A.x, B.y)", "array<{a}>", "array<{b}>"),
    "array_except": ("array_except(A.x, B.y)", "array<{a}>", "array<{b}>"),
    "concat": ("concat(A.x, B.y)", "array<{a}>", "array<{b}>"),
    "array_remove": ("array_remove(A.x, B.y)", "array<{a}>", "{b}"),
    "array_append": ("array_append(A.x, B.y)", "array<{a}>", "{b}"),
    "array_prepend": ("array_prepend(A.x, B.y)", "array<{a}>", "{b}"),
    "array_insert": ("array_insert(A.x, 1, B.y)", "array<{a}>", "{b}"),
    "array_insert_position": ("array_insert(A.y, coalesce(A.x, B.x), 1)", "{a}", "array<int>"),
    "map_keys": ("map(A.x, 1, B.y, 2)", "{a}", "{b}"),
    "map_values": ("map(1, A.x, 2, B.y)", "{a}", "{b}"),
    "map_from_arrays": ("map_from_arrays(A.x, B.y)", "array<{a}>", "array<{b}>"),
    "sequence": ("sequence(A.x, B.y)", "{a}", "{b}"),
    "sequence_step": ("sequence(1, 2, coalesce(A.x, B.x))", "{a}", "int"),
    "sequence3": ("sequence(A.x, B.x, A.y)", "{a}", "{b}"),
    "array_repeat": ("array_repeat(A.x, B.y)", "{a}", "{b}"),
    "get": ("get(A.y, coalesce(A.x, B.x))", "{a}", "array<int>"),
    "array_join": ("array_join(coalesce(A.x, B.x), ',')", "array<{a}>", "int"),
    "array_join_separator": ("array_join(A.y, coalesce(A.x, B.x))", "{a}", "array<string>"),
    "sort_array": ("sort_array(coalesce(A.x, B.x))", "array<{a}>", "int"),
    "array_sort": ("array_sort(coalesce(A.x, B.x))", "array<{a}>", "int"),
    "array_compact": ("array_compact(coalesce(A.x, B.x))", "array<{a}>", "int"),
    "reverse": ("reverse(coalesce(A.x, B.x))", "array<{a}>", "int"),
    "flatten": ("flatten(coalesce(A.x, B.x))", "array<array<{a}>>", "int"),
}


def _bound_type(form: str, x: str, y: str, semantics: Semantics) -> str | None:
    """sparkcep's type of ``form`` over columns x and y of these types (None: refused)."""
    values = ValueColumns()
    expression = lower(form, values)
    types = {"(`x`)": x, "(`y`)": y}
    try:
        return bind(expression, [types[t] for t in values.texts], semantics).type
    except AnalysisError:
        return None


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_types_are_sparks_on_every_pair_of_operand_types(setting):
    """Each combination sparkcep accepts has the type Spark gives it; each Spark refuses,
    sparkcep refuses too."""
    semantics = Semantics(ansi=setting == "ansi", time_zone="UTC")
    wrong, accepted = [], 0
    for function, results in TYPES[setting].items():
        form, x, y = _FORMS[function]
        for pair, spark in results.items():
            a, b_ = pair.split("|")
            ours = _bound_type(form, x.format(a=a, b=b_), y.format(a=a, b=b_), semantics)
            if ours is None:
                continue
            accepted += 1
            if spark.startswith("error") or ours != spark:
                wrong.append(f"{function}({a}, {b_}): sparkcep {ours}, Spark {spark}")
    assert not wrong, "\n".join(wrong[:40])
    assert accepted >= 1000, accepted
