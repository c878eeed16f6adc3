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
from sparkcep.plan import expressions as p
from tests.evaluation import corpus
from tests.evaluation.harness import Refused, _Error, evaluate_all, evaluators, lower, recorded_rows
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


def _code(answer) -> str | None:
    if isinstance(answer, dict) and "error" in answer:
        match = re.match(r"\[([A-Z_]+)", answer["message"])
        return match.group(1) if match else answer["message"]
    return None


# Spark's errors without a class, and sparkcep's code for each
_UNCLASSED = {"Illegal sequence boundaries": "ILLEGAL_SEQUENCE_BOUNDARIES",
              "sequence step must be an interval day": "ILLEGAL_SEQUENCE_BOUNDARIES",
              "The key array and value array of MapData must have the same length": "MAP_KEY_VALUE_LENGTH_MISMATCH",
              "Cannot create array with": "COLLECTION_SIZE_LIMIT_EXCEEDED"}


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_collection_builders_raise_sparks_error_codes(setting):
    """Where Spark raised over the corpus's designed rows, every Python form raises the same
    class (``DUPLICATED_MAP_KEY``, ``NULL_MAP_KEY``, ``COLLECTION_SIZE_LIMIT_EXCEEDED``,
    ``INVALID_INDEX_OF_ZERO``, ``CAST_OVERFLOW`` of ``get``'s BIGINT index with ANSI on), or
    sparkcep's code for Spark's errors without a class; each of them is raised somewhere."""
    seen: dict[str, int] = {}
    wrong = []
    expressions = [q for q, _ in corpus._collection_builder_expressions()]
    for text, r, forms, row, answer in recorded_rows(RECORDED, setting, expressions, decode):
        code = _code(answer)
        if code is None:
            continue
        code = next((c for m, c in _UNCLASSED.items() if code.startswith(m)), code)
        for form, evaluate in forms.items():
            python = evaluate(row)
            if not isinstance(python, _Error) or python.error != code:
                wrong.append(f"{text} @ {r} ({form}): Spark {code}, Python {python!r}")
        seen[code] = seen.get(code, 0) + 1
    assert not wrong, "\n".join(wrong[:20])
    expected = {"DUPLICATED_MAP_KEY", "NULL_MAP_KEY", "COLLECTION_SIZE_LIMIT_EXCEEDED", "INVALID_INDEX_OF_ZERO",
                "ILLEGAL_SEQUENCE_BOUNDARIES", "MAP_KEY_VALUE_LENGTH_MISMATCH"} | (
        {"CAST_OVERFLOW"} if setting == "ansi" else set())
    assert expected <= set(seen), expected - set(seen)


def test_results_past_the_budget_are_refused_and_past_sparks_limit_are_sparks_error():
    """Hand-worked: up to MAX_RESULT_ELEMENTS elements are built; one more is sparkcep's
    MATCH_DEPENDENT_VALUE_TOO_LARGE (Spark would build it); past Spark's limit of 2,147,483,632
    elements, Spark's COLLECTION_SIZE_LIMIT_EXCEEDED (checked first)."""
    limit = b.MAX_RESULT_ELEMENTS
    assert len(b.array_repeat("x", limit)) == limit
    assert len(b.sequence(1, limit)) == limit
    assert len(b.array_insert([1], limit, 2)) == limit
    assert len(b.array_insert([1], -limit, 2)) == limit  # [2, NULL, ..., NULL, 1]
    for build in (lambda: b.array_repeat("x", limit + 1), lambda: b.sequence(1, limit + 1),
                  lambda: b.sequence(limit + 1, 1, -1), lambda: b.array_insert([1], limit + 1, 2),
                  lambda: b.array_insert([1], -limit - 1, 2), lambda: b.date_sequence(
                      __import__("datetime").date(1, 1, 1), __import__("datetime").date(9999, 12, 31))):
        with pytest.raises(MatchRuntimeError) as error:
            build()
        assert error.value.code == "MATCH_DEPENDENT_VALUE_TOO_LARGE"
    for build in (lambda: b.array_repeat("x", b.SPARK_MAX_ELEMENTS + 1), lambda: b.sequence(0, b.SPARK_MAX_ELEMENTS),
                  lambda: b.array_insert([], b.SPARK_MAX_ELEMENTS + 1, 2)):
        with pytest.raises(MatchRuntimeError) as error:
            build()
        assert error.value.code == "COLLECTION_SIZE_LIMIT_EXCEEDED"
    with pytest.raises(MatchRuntimeError) as error:  # the largest Spark builds: sparkcep's budget
        b.array_repeat("x", b.SPARK_MAX_ELEMENTS)
    assert error.value.code == "MATCH_DEPENDENT_VALUE_TOO_LARGE"


def _evaluate(qualified: str, columns: dict, semantics: Semantics) -> dict:
    values = ValueColumns()
    expression = lower(qualified, values)
    names = [t.strip("()`") for t in values.texts]
    return evaluate_all(expression, [columns[n][1] for n in names], [columns[n][0] for n in names], semantics)


def test_map_keys_deduplicated_last_win():
    """With spark.sql.mapKeyDedupPolicy LAST_WIN a key equal to an earlier one (0.0 and -0.0,
    NaN and NaN) gives its value to the earlier key, at the earlier key's place (Spark's
    ArrayBasedMapBuilder; checked against Spark end to end by test_collections_spark.py)."""
    last_win = Semantics(ansi=True, time_zone="UTC", map_key_dedup_policy="LAST_WIN")
    columns = {"k": ("double", -0.0), "j": ("double", 0.0), "v": ("string", "a"), "w": ("string", "b"),
               "n": ("double", float("nan"))}
    got = _evaluate("map(A.k, B.v, B.n, A.w, A.j, B.w, B.n, A.v)", columns, last_win)
    assert all(repr(r) == repr([(-0.0, "b"), (float("nan"), "a")]) for r in got.values()), got
    got = _evaluate("map(A.k, B.v, B.j, A.w)", columns, Semantics(ansi=True, time_zone="UTC"))
    assert all(isinstance(r, _Error) and r.error == "DUPLICATED_MAP_KEY" for r in got.values()), got
    got = _evaluate("map_from_arrays(A.ks, B.vs)", {"ks": ("array<int>", [1, 2, 1]), "vs": ("array<string>", ["x", "y", None])},
                    last_win)
    assert all(r == [(1, None), (2, "y")] for r in got.values()), got


def _python_side(qualified: str) -> bool:
    """Whether ``qualified`` (the DEFINE of B) is evaluated in Python rather than pushed into a
    navigation that Spark computes per row."""
    return isinstance(lower(qualified, ValueColumns()), p.Operator)


@pytest.mark.parametrize("qualified", ["array_append(A.ai, A.vi)", "array_prepend(A.ai, A.vi)",
                                       "array_insert(A.ai, A.vn, A.vi)", "array_repeat(A.vi, A.vn)",
                                       "map(A.vi, A.vs)", "map_from_arrays(A.ai, A.as1)"])
def test_functions_not_null_for_a_null_operand_are_not_pushed(qualified):
    """array_append(arr, NULL) is [.., NULL], array_repeat(NULL, 2) [NULL, NULL], map(1, NULL)
    {1: NULL}: over a row that may not exist they are evaluated in Python over the navigation's
    NULL, not computed per row (where a missing row would give NULL)."""
    assert _python_side(qualified)


@pytest.mark.parametrize("qualified", ["array_intersect(A.ai, A.ai2)", "sort_array(A.ai)", "array_remove(A.ai, A.vi)",
                                       "flatten(A.aai)", "sequence(A.vi, A.vn)", "map_keys(A.mi)"])
def test_strict_functions_of_one_row_are_pushed(qualified):
    assert not _python_side(qualified)


@pytest.mark.parametrize("qualified, code", [
    ("sort_array(concat(A.ai, B.ai), A.vb)", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"),  # Spark: a constant order
    ("sort_array(concat(A.ai, B.ai), (l, r) -> l - r)", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"),  # the order, not a comparator
])
def test_refused_at_the_call(qualified, code):
    with pytest.raises(SparkCepError) as error:
        lower(qualified, ValueColumns())
    assert error.value.code == code


def test_operators_of_the_module_are_registered():
    from sparkcep.evaluation.operators import OPERATORS

    assert set(b.COLLECTION_BUILDERS) <= OPERATORS
    assert Refused  # (the harness's refusal, imported for the evaluators above)


@pytest.mark.parametrize("qualified", ["size(map(A.k, B.v, B.k, A.v))", "cardinality(map(A.k, B.v))",
                                       "size(coalesce(map(A.k, B.v), map(B.k, A.v)))"])
def test_size_of_a_map_constructor_is_refused(qualified):
    """Spark's optimizer counts the entries written without building the map (no
    DUPLICATED_MAP_KEY) when they are columns, and builds it for other operands (measured):
    refused rather than answered differently; size(map_keys(map(...))) is evaluated."""
    types = {"k": "int", "v": "string"}
    values = ValueColumns()
    expression = lower(qualified, values)
    with pytest.raises(Refused) as caught:
        evaluators(expression, [types[t.strip("()`")] for t in values.texts], Semantics())
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"
    values = ValueColumns()
    counted = lower("size(map_keys(map(A.k, B.v, B.k, A.v)))", values)
    got = evaluate_all(counted, [1 if t.strip("()`") == "k" else "x" for t in values.texts],
                       [types[t.strip("()`")] for t in values.texts], Semantics())
    assert all(isinstance(r, _Error) and r.error == "DUPLICATED_MAP_KEY" for r in got.values()), got
