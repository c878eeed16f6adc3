"""Higher-order functions with lambdas between rows (``sparkcep.evaluation.higher_order_functions``,
their typing in ``binding/higher_order.py``), without Spark: the settings the corpus cannot vary
(``spark.sql.legacy.followThreeValuedLogicInArrayExists``, ``spark.sql.mapKeyDedupPolicy``), the
types Spark 4.3's analyzer gives (measured: ``SELECT typeof(...)`` on Spark 4.3), Spark's
analysis errors, and evaluators that keep no state. Values are worked out by hand from Spark's
``ArrayExists``, ``ArrayAggregate``, ``TransformKeys``, ... (the corpus checks the rest against
Spark's recorded answers)."""

from __future__ import annotations

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation.binding import Semantics
from tests.evaluation.harness import bound, forms_of, lower, one_value, Refused

TYPES = {"(`ai`)": "array<int>", "(`ai2`)": "array<int>", "(`vi`)": "int", "(`vl`)": "bigint",
         "(`mi`)": "map<int,string>", "(`ms`)": "map<string,int>", "(`vs`)": "string", "(`vd`)": "double",
         "(`ad`)": "array<double>", "(`vx`)": "decimal(3,1)", "(`as1`)": "array<string>"}


def _forms(qualified: str, values: dict, semantics: Semantics = Semantics()) -> dict:
    return forms_of(qualified, values, TYPES, semantics)


def _one(qualified: str, values: dict, semantics: Semantics = Semantics()):
    return one_value(qualified, values, TYPES, semantics)


def _type(qualified: str) -> str:
    columns = ValueColumns()
    expression = lower(qualified, columns)
    return bound(expression, [TYPES[t] for t in columns.texts], Semantics()).type


@pytest.mark.parametrize("three_valued, expected", [(True, None), (False, False)])
def test_exists_without_a_true_predicate_and_with_a_null_one(three_valued, expected):
    values = {"(`ai`)": [1, None, 2], "(`vi`)": 2}
    semantics = Semantics(exists_three_valued=three_valued)
    assert _one("exists(A.ai, x -> x > B.vi)", values, semantics) is expected
    assert _one("exists(A.ai, x -> x + 1 > B.vi)", values, semantics) is True
    # forall is three-valued whatever the setting
    assert _one("forall(A.ai, x -> x - 1 < B.vi)", values, semantics) is None


def test_exists_and_forall_stop_at_the_deciding_element():
    # 10 / (x - 1): DIVIDE_BY_ZERO at x = 1, after the deciding element only
    values = {"(`ai`)": [3, 1], "(`vi`)": 10}
    assert _one("exists(A.ai, x -> B.vi / (x - 1) > 0)", values) is True
    assert _one("forall(A.ai, x -> B.vi / (x - 1) < 0)", values) is False
    assert repr(_one("exists(A.ai, x -> B.vi / (x - 1) < 0)", values)) == "<error DIVIDE_BY_ZERO>"


@pytest.mark.parametrize("policy, expected", [("EXCEPTION", "<error DUPLICATED_MAP_KEY>"),
                                              ("LAST_WIN", "[(0, None)]")])
def test_transform_keys_onto_equal_keys(policy, expected):
    values = {"(`mi`)": [(1, "a"), (2, None)], "(`vi`)": 0}
    assert repr(_one("transform_keys(A.mi, (k, v) -> k * B.vi)", values, Semantics(map_key_dedup_policy=policy))) \
        == expected


def test_aggregate_merges_in_order_then_finishes():
    values = {"(`ai`)": [1, 2, 3], "(`vl`)": 10, "(`as1`)": ["a", None, "b"], "(`vs`)": ">"}
    assert _one("aggregate(A.ai, B.vl, (acc, x) -> acc * 2 + x)", values) == ((10 * 2 + 1) * 2 + 2) * 2 + 3
    assert _one("aggregate(A.ai, B.vl, (acc, x) -> acc + x, acc -> acc * 10)", values) == 160
    assert _one("aggregate(A.as1, B.vs, (acc, x) -> concat(acc, coalesce(x, '-')))", values) == ">a-b"
    assert _one("aggregate(A.ai, B.vl, (acc, x) -> acc + x)", {"(`ai`)": None, "(`vl`)": 1}) is None


def test_zip_with_pads_the_shorter_array_with_nulls():
    values = {"(`ai`)": [1, 2, 3], "(`ai2`)": [10]}
    assert _one("zip_with(A.ai, B.ai2, (x, y) -> coalesce(x, 0) + coalesce(y, 0))", values) == [11, 2, 3]
    assert _one("zip_with(B.ai2, A.ai, (x, y) -> y IS NULL)", values) == [False, False, False]
    assert _one("zip_with(A.ai, B.ai2, (x, y) -> x)", {"(`ai`)": [1], "(`ai2`)": None}) is None


def test_index_variables_and_closures_over_both_rows():
    values = {"(`ai`)": [5, None, 7], "(`vi`)": 1}
    assert _one("transform(A.ai, (x, i) -> x * i + B.vi)", values) == [1, None, 15]
    assert _one("filter(A.ai, (x, i) -> i <> B.vi)", values) == [5, 7]
    assert _one("transform(A.ai, x -> transform(B.ai2, y -> x * y + A.vi))",
                {"(`ai`)": [1, 2], "(`ai2`)": [10, 20], "(`vi`)": 3}) == [[13, 23], [23, 43]]
    # an inner variable hides an outer one of the same name; names are case-insensitive
    assert _one("transform(A.ai, x -> transform(B.ai2, X -> x + A.vi))",
                {"(`ai`)": [1, 2], "(`ai2`)": [10], "(`vi`)": 3}) == [[13], [13]]


@pytest.mark.parametrize("qualified, spark_type", [  # Spark's rules (the corpus's types are Spark's:
    # test_spark_differential.py::test_corpus_result_types_are_sparks)
    ("transform(A.ai, x -> x + B.vl)", "array<bigint>"),
    ("transform(A.ai, (x, i) -> i + B.vx)", "array<decimal(12,1)>"),
    ("filter(A.ai, x -> x > B.vd)", "array<int>"),
    ("exists(A.ai, x -> x > B.vi)", "boolean"),
    ("aggregate(A.ai, B.vl, (acc, x) -> acc + x, acc -> acc / 2)", "double"),
    ("zip_with(A.ai, B.as1, (x, y) -> concat(x, y))", "array<string>"),
    ("transform_values(A.mi, (k, v) -> k + B.vl)", "map<int,bigint>"),
    ("transform_keys(A.mi, (k, v) -> concat(v, B.vs))", "map<string,string>"),
    ("map_filter(A.ms, (k, v) -> v > B.vi)", "map<string,int>"),
])
def test_result_types_are_sparks(qualified, spark_type):
    assert _type(qualified) == spark_type


@pytest.mark.parametrize("qualified", [
    "aggregate(A.ai, B.vi, (acc, x) -> acc + B.vl)",  # the merge is a BIGINT, the start an INT
    "filter(A.ai, x -> x + B.vi)",  # not a predicate
    "exists(A.ai, x -> concat(x, B.vs))",
    "transform(A.vi, x -> x + B.vi)",  # not an array
    "map_filter(A.ai, (k, v) -> k > B.vi)",  # not a map
    "transform_keys(A.mi, (k, v) -> map(k, B.vi))",  # a MAP key
])
def test_what_spark_refuses_at_analysis_is_refused(qualified):
    columns = ValueColumns()
    expression = lower(qualified, columns)
    with pytest.raises(Refused):
        bound(expression, [TYPES[t] for t in columns.texts], Semantics())


def test_evaluators_keep_no_state_between_calls():
    """The same compiled evaluator, called again (and from inside itself, through a nested
    lambda over the same variables), gives each call its own variables."""
    columns = ValueColumns()
    expression = lower("transform(A.ai, x -> aggregate(B.ai2, x, (acc, y) -> acc + y))", columns)
    types = [TYPES[t] for t in columns.texts]
    from tests.evaluation.harness import evaluators
    forms = evaluators(expression, types, Semantics())
    for values, expected in ((([1, 2], [10, 20]), [31, 32]), (([5], []), [5]), (([1, 2], [10, 20]), [31, 32])):
        by_text = dict(zip(("(`ai`)", "(`ai2`)"), values))
        for evaluate in forms.values():
            assert evaluate([by_text[t] for t in columns.texts]) == expected


def test_map_zip_with_takes_the_keys_in_order_once_normalized():
    """Spark 4.3 (measured): map_zip_with(map(-0.0D, 1), map(1.0D, 2), ...) is {0.0: 1, 1.0: NULL};
    NaN meets NaN and -0.0 meets 0.0 (Java collections, spark.sql.mapZipWithUsesJavaCollections)."""
    TYPES["(`mdk`)"] = "map<double,int>"
    TYPES["(`mdk2`)"] = "map<double,int>"
    nan = float("nan")
    forms = _forms("map_zip_with(A.mdk, B.mdk2, (k, x, y) -> coalesce(x, 0) * 10 + coalesce(y, 0))",
                   {"(`mdk`)": [(-0.0, 1), (nan, 2), (3.0, 4)], "(`mdk2`)": [(5.0, 6), (0.0, 7), (nan, 8)]})
    for value in forms.values():
        assert [repr(k) for k, _ in value] == ["0.0", "nan", "3.0", "5.0"]
        assert [v for _, v in value] == [17, 28, 40, 6]
    assert _one("map_zip_with(A.mi, B.mi, (k, x, y) -> x)", {"(`mi`)": None}) is None
