"""Evaluating match-dependent expressions the way the executors do, for the differential test.

``lower`` compiles the DEFINE of B in ``PATTERN (A B)`` with sparkcep's own analysis and lowering
(the tree the plan carries); ``evaluate_all`` binds it to the Spark types of its value columns
(as registration does) and runs it with the interpreter, the generated code and the matcher's
specialized code over a two-row match (row 0 mapped to A, row 1 the candidate for B) whose rows
hold the same values, so ``A.x`` and ``B.x`` both denote x of the one row Spark evaluates.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

from sqlglot import exp  # the dialect registers its nodes on import

from sparkcep import dialect
from sparkcep.compiler.analysis import analyze
from sparkcep.compiler.lowering import Lowering, ValueColumns
from sparkcep.dialect import expressions as dx
from sparkcep.errors import AnalysisError, MatchRuntimeError, SparkCepError
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.codegen import generate, specialize
from sparkcep.evaluation.interpreter import compile_expression

NAMES = ("A", "B")


class Refused(Exception):
    """The Python side refused the expression (at analysis or binding): allowed, counted."""


def lower(qualified: str, values: ValueColumns):
    """The tree sparkcep evaluates for ``qualified`` inside the DEFINE of B. A DEFINE must be
    boolean, so the clause holds ``(qualified) IS NULL`` (analysis checks the whole), and the
    operand alone is lowered: numeric, string and datetime expressions are lowered as any
    operand of a condition (or a measure) is."""
    sql = f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r PATTERN (A B) DEFINE B AS ({qualified}) IS NULL)"
    tree = dialect.parse_one(sql)
    clause = next(n for n in tree.walk() if isinstance(n, dx.MatchRecognize))
    analysis = analyze(clause, sql)
    lowering = Lowering(analysis.scope, "ORDER BY r", values)
    lowering.current = 1
    node = analysis.definitions[1]
    while isinstance(node, exp.Paren):
        node = node.this
    assert isinstance(node, exp.Is), node
    node = node.this
    return lowering.lower_dependent(node, lowering.classify(node))


class TwoRowMatch:
    """A MatchContext: row 0 mapped to A, row 1 the candidate for B; both rows hold ``values``."""

    row = 1
    var = 1
    match_number = 1

    def __init__(self, values):
        self.values = values

    def mapped_rows(self, variables):
        return [r for r in (0, 1) if variables is None or r in variables]

    def value(self, column, row):
        return self.values[column]

    def label_of(self, row):
        return row

    def navigate(self, variables, from_start, offset):
        rows = self.mapped_rows(variables)
        position = offset if from_start else len(rows) - 1 - offset
        return rows[position] if 0 <= position < len(rows) else None


class PrefixMatch:
    """A match whose rows mapped to A are ``group``'s rows (dicts, in order): value column c of
    a row is its ``columns[c]`` entry. For aggregates over a running window's prefixes."""

    row = 0
    match_number = 1

    def __init__(self, group: list[dict], columns: list[str]) -> None:
        self.group, self.columns = group, columns

    def mapped_rows(self, variables):
        return list(range(len(self.group)))

    def value(self, column, row):
        return self.group[row][self.columns[column]]


class _Error:
    def __init__(self, error):
        self.error = error

    def __repr__(self):
        return f"<error {self.error}>"


def _run(function):
    try:
        return function()
    except MatchRuntimeError as error:
        return _Error(error.code)


def bound(expression, column_types, semantics: Semantics, never_null_columns: frozenset = frozenset()):
    try:
        return bind(expression, column_types, semantics, never_null_columns=never_null_columns)
    except AnalysisError as error:
        raise Refused(error.code) from None


def evaluators(expression, column_types, semantics: Semantics, never_null_columns: frozenset = frozenset()) -> dict:
    """{form: function(values) -> value or _Error}: the interpreter, the generated code and the
    matcher's specialized code, each compiled once (``values``: one value per value column;
    ``never_null_columns``: the value columns Spark's analysis knows are never NULL)."""
    typed = bound(expression, column_types, semantics, never_null_columns)
    interpreted = compile_expression(typed, NAMES)
    fallback = lambda e: compile_expression(e, NAMES)  # noqa: E731
    generated = generate(typed, NAMES, fallback)
    forms = {"interpreter": lambda values: _run(lambda: interpreted(TwoRowMatch(values))),
             "generated": lambda values: _run(lambda: generated(TwoRowMatch(values)))}
    slots: dict = {}
    special = specialize(typed, NAMES, 1, slots)
    if special is not None:
        tracks = [[0] if 0 in variables else [] for variables, _ in sorted(slots.items(), key=lambda kv: kv[1])]

        def specialized(values):
            cols = [[v, v] for v in values]
            return _run(lambda: special(1, 0, cols, [list(t) for t in tracks], 1))

        forms["specialized"] = specialized
    return forms


def evaluate_all(expression, values, column_types, semantics: Semantics) -> dict:
    """{form: value or _Error} for the interpreter, the generated code and the specialized code."""
    return {form: f(values) for form, f in evaluators(expression, column_types, semantics).items()}


def same(python, spark) -> bool:
    """Python's value is Spark's: the same type family and value (NaN equal to NaN, -0.0 equal
    to 0.0 as Spark's = has it), NULL only for NULL."""
    if python is None or spark is None:
        return python is None and spark is None
    if isinstance(spark, (list, tuple)):  # an ARRAY (a MAP: a list of (key, value) entries), whose
        # elements are output as they are: 0.0 and -0.0 differ there (a NaN's sign bit is no value)
        return type(python) is type(spark) and len(python) == len(spark) and \
            all(same(p, s) and (not isinstance(s, float) or math.isnan(s) or math.copysign(1.0, p) == math.copysign(1.0, s))
                for p, s in zip(python, spark))
    if isinstance(spark, dict):  # a STRUCT: the same fields in the same order, each the same value
        return type(python) is dict and list(python) == list(spark) and \
            all(same(python[name], value) and (not isinstance(value, float) or math.isnan(value)
                                               or math.copysign(1.0, python[name]) == math.copysign(1.0, value))
                for name, value in spark.items())
    if isinstance(spark, bool) or isinstance(python, bool):
        return type(python) is type(spark) and python == spark
    if isinstance(spark, float):
        if not isinstance(python, float):
            return False
        return (math.isnan(python) and math.isnan(spark)) or python == spark
    if isinstance(spark, Decimal):
        return isinstance(python, Decimal) and python == spark
    if isinstance(spark, int):
        return type(python) is int and python == spark
    if isinstance(spark, dt.datetime):
        if not isinstance(python, dt.datetime) or (python.tzinfo is None) != (spark.tzinfo is None):
            return False
        if spark.tzinfo is None:
            return python == spark
        # the same instant: compared in UTC (Python's == between zones is False for a local
        # time in a daylight-saving gap, PEP 495)
        return python.astimezone(dt.timezone.utc) == spark.astimezone(dt.timezone.utc)
    return type(python) is type(spark) and python == spark


__all__ = ["Refused", "SparkCepError", "evaluate_all", "evaluators", "lower", "same", "_Error"]


def recorded_rows(recorded: dict, setting: str, expressions, decode):
    """Spark's recorded answers (``spark_answers.json``, read as ``recorded``) for the corpus
    expressions ``expressions`` (qualified texts) under ``setting`` (``"ansi"`` / ``"legacy"``),
    with the Python forms of each: one (expression, row number, Python forms, the row's values,
    Spark's answer) per recorded row. ``decode`` reads a recorded value (``spark_oracle.decode``)."""
    semantics = Semantics(ansi=setting == "ansi", time_zone=recorded["zone"])
    columns = {text: (column["type"], [decode(v) for v in column["values"]])
               for text, column in recorded[setting]["columns"].items()}
    wanted = set(expressions)
    for record in recorded[setting]["cases"]:
        if record["expression"] not in wanted:
            continue
        values = ValueColumns()
        expression = lower(record["expression"], values)
        forms = evaluators(expression, [columns[t][0] for t in values.texts], semantics)
        for r, answer in enumerate(record["answers"]):
            yield record["expression"], r, forms, [columns[t][1][r] for t in values.texts], answer


def forms_of(qualified: str, values: dict, types: dict, semantics: Semantics = Semantics()) -> dict:
    """{form: value} of ``qualified`` (a DEFINE expression over A and B) with each value column's
    value and Spark type taken from ``values`` and ``types`` (keyed by the column's text)."""
    columns = ValueColumns()
    expression = lower(qualified, columns)
    return evaluate_all(expression, [values[t] for t in columns.texts], [types[t] for t in columns.texts],
                        semantics)


def one_value(qualified: str, values: dict, types: dict, semantics: Semantics = Semantics()):
    """The value every Python form gives ``qualified`` (they must agree)."""
    forms = forms_of(qualified, values, types, semantics)
    assert len({repr(v) for v in forms.values()}) == 1, forms
    return next(iter(forms.values()))
