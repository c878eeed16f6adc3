"""Differential test: match-dependent expressions evaluated by sparkcep's Python side agree with
Spark's own evaluation of the same expression (issue 11: "one definition of each operator's
semantics", Spark is the reference; docs/semantics.md, "Match-dependent expressions").

Each hypothesis example is one batch: a few rows of edge values (NULL, NaN, +-Inf, DECIMAL(38,10)
extremes, integer extremes, strings that look like numbers, dates and timestamps around the
daylight-saving changes of the session time zone) and many random typed expressions. Spark
evaluates every expression over every row in ONE query (row-local text, qualifiers dropped);
sparkcep lowers each as the DEFINE of B in ``PATTERN (A B)``, binds it to the Spark types of its
value columns and evaluates it with the interpreter, the generated code and the matcher's
specialized code. Allowed outcomes per case: the same value; both raise (Spark at run time,
sparkcep a typed MatchRuntimeError); Spark rejects the expression at analysis and sparkcep refuses
it at binding; sparkcep refuses it (counted, bounded). Anything else is a disagreement.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import SparkCepError
from sparkcep.evaluation.binding import Semantics
from tests.evaluation import grammar
from tests.evaluation.harness import Refused, _Error, evaluate_all, lower

pytestmark = pytest.mark.spark

ROWS = 4
EXPRESSIONS = 64
EXAMPLES = 8  # x ROWS x EXPRESSIONS = 2,048 cases per ANSI setting
ZONE = "Europe/Berlin"  # daylight-saving changes on 2024-03-31 and 2024-10-27


class _SparkFailed:
    def __init__(self, analysis: bool, message: str):
        self.analysis, self.message = analysis, message.strip().splitlines()[0][:200]

    def __repr__(self):
        return f"<spark {'analysis' if self.analysis else 'runtime'} error {self.message}>"


def _same(python, spark) -> bool:
    if python is None or spark is None:
        return python is None and spark is None
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
        return isinstance(python, dt.datetime) and python == spark
    return type(python) is type(spark) and python == spark


def _spark_rows(spark, sql: str):
    from pyspark.errors import AnalysisException

    try:
        table = spark.sql(sql).toArrow()
    except AnalysisException as error:
        return _SparkFailed(True, str(error))
    except Exception as error:  # run-time errors (ANSI casts, overflow, division by zero)
        return _SparkFailed(False, str(error))
    return table


def _evaluate_items(spark, table_sql: str, items: list, texts: list[str]):
    """{item index: per-row results or _SparkFailed}: the items' value columns and reference
    expressions in one query; a failing group is split until the failing items are alone, and a
    lone failing item is evaluated row by row."""
    results: dict[int, object] = {}

    def select(group):
        cells = ["r"]
        for index in group:
            _expression, columns, plain = items[index]
            cells += [f"{texts[c]} AS v{c}" for c in columns]
            cells.append(f"({plain}) AS e{index}")
        return f"SELECT {', '.join(dict.fromkeys(cells))} FROM ({table_sql}) ORDER BY r"

    def run(group):
        table = _spark_rows(spark, select(group))
        if not isinstance(table, _SparkFailed):
            for index in group:
                _expression, columns, _plain = items[index]
                values = [table.column(f"v{c}").to_pylist() for c in columns]
                references = table.column(f"e{index}").to_pylist()
                types = [table.schema.field(f"v{c}").type for c in columns]
                results[index] = [(dict(zip(columns, row_values)), reference)
                                  for row_values, reference in zip(zip(*values) if values else [()] * len(references), references)]
                results[index] = (results[index], types)
            return
        if len(group) > 1:
            half = len(group) // 2
            run(group[:half])
            run(group[half:])
            return
        (index,) = group
        if table.analysis:
            results[index] = table
            return
        per_row = []
        for r in range(ROWS):
            row_table = _spark_rows(spark, select(group).replace(f"FROM ({table_sql})", f"FROM ({table_sql}) WHERE r = {r}"))
            if isinstance(row_table, _SparkFailed):
                per_row.append(row_table)
            else:
                _expression, columns, _plain = items[index]
                per_row.append(({c: row_table.column(f"v{c}")[0].as_py() for c in columns},
                                row_table.column(f"e{index}")[0].as_py()))
        results[index] = (per_row, None)

    run(list(range(len(items))))
    return results


def _spark_types(spark, table_sql: str, texts: list[str]) -> list[str]:
    if not texts:
        return []
    cells = ", ".join(f"{text} AS v{i}" for i, text in enumerate(texts))
    from pyspark.errors import AnalysisException

    types = []
    for i, text in enumerate(texts):  # one analysis each (a bad column must not hide the rest)
        try:
            types.append(spark.sql(f"SELECT {text} AS v FROM ({table_sql})").schema[0].dataType.simpleString())
        except AnalysisException:
            types.append(None)
    del cells
    return types


class Tally:
    def __init__(self):
        self.cases = self.agreed = self.both_failed = self.refused = 0
        self.disagreements: list[str] = []


def _check_batch(spark, table_sql: str, expressions: list[tuple[str, str]], semantics: Semantics, tally: Tally):
    values = ValueColumns()
    items, outcomes = [], {}
    for qualified, plain in expressions:
        try:
            expression = lower(qualified, values)
        except SparkCepError as error:
            outcomes[len(items)] = f"lowering refused: {error.code}"
            expression = None
        used = sorted(_columns_of(expression)) if expression is not None else []
        items.append((expression, used, plain))
    types = _spark_types(spark, table_sql, values.texts)
    results = _evaluate_items(spark, table_sql, items, values.texts)
    for index, (expression, columns, plain) in enumerate(items):
        qualified = expressions[index][0]
        result = results[index]
        tally.cases += ROWS
        if isinstance(result, _SparkFailed):  # Spark rejects it at analysis: so must we
            if expression is None:
                tally.both_failed += ROWS
                continue
            try:
                column_types = [types[c] if c in columns else None for c in range(len(types))]
                evaluate_all(expression, [None] * len(types), column_types, semantics)
            except Refused:
                tally.both_failed += ROWS
                continue
            tally.disagreements.append(f"{qualified}: Spark {result!r}, sparkcep accepted it")
            continue
        if expression is None:
            tally.refused += ROWS
            continue
        per_row, _types = result
        for r, outcome in enumerate(per_row):
            if isinstance(outcome, _SparkFailed):
                # Spark fails at run time: only the value columns (computed by Catalyst in the
                # real query too) or our evaluation may fail
                reference = outcome
                row_values = None
            else:
                row_values, reference = outcome
            column_types = [types[c] if c in columns else None for c in range(len(types))]
            if row_values is None:
                # which part failed: the value columns alone?
                probe = _spark_rows(spark, f"SELECT {', '.join(['r'] + [f'{values.texts[c]} AS v{c}' for c in columns])} "
                                           f"FROM ({table_sql}) WHERE r = {r}")
                if isinstance(probe, _SparkFailed):
                    tally.both_failed += 1  # Catalyst raises for the value column, as Spark does
                    continue
                row_values = {c: probe.column(f"v{c}")[0].as_py() for c in columns}
            full = [row_values.get(c) for c in range(len(types))]
            try:
                got = evaluate_all(expression, full, column_types, semantics)
            except Refused:
                tally.refused += 1
                continue
            bad = []
            for form, value in got.items():
                if isinstance(reference, _SparkFailed):
                    if not isinstance(value, _Error):
                        bad.append(f"{form}={value!r}")
                elif isinstance(value, _Error) or not _same(value, reference):
                    bad.append(f"{form}={value!r}")
            if bad:
                tally.disagreements.append(
                    f"{qualified} @ {row_values}: Spark {reference!r}, " + ", ".join(bad))
            elif isinstance(reference, _SparkFailed):
                tally.both_failed += 1
            else:
                tally.agreed += 1


def _columns_of(expression) -> set[int]:
    from sparkcep.plan import expressions as p

    found = set()

    def visit(e):
        if isinstance(e, (p.Navigation, p.CurrentRow)):
            found.add(e.column)
        elif isinstance(e, p.Aggregate) and e.column is not None:
            found.add(e.column)
        elif isinstance(e, p.Operator):
            for o in e.operands:
                visit(o)

    visit(expression)
    return found


@pytest.mark.parametrize("ansi", [True, False], ids=["ansi", "legacy"])
def test_match_dependent_expressions_agree_with_spark(spark, ansi):
    previous = {k: spark.conf.get(k) for k in ("spark.sql.ansi.enabled", "spark.sql.session.timeZone")}
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    semantics = Semantics(ansi=ansi, time_zone=ZONE)
    tally = Tally()
    try:
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(table=grammar.rows(ROWS),
               expressions=st.lists(grammar.expressions().map(lambda e: e), min_size=EXPRESSIONS,
                                    max_size=EXPRESSIONS))
        def batch(table, expressions):
            _check_batch(spark, table, expressions, semantics, tally)

        batch()
    finally:
        for key, value in previous.items():
            spark.conf.set(key, value)
    print(f"\nANSI={ansi}: {tally.cases} cases, {tally.agreed} agree, {tally.both_failed} both fail, "
          f"{tally.refused} refused, {len(tally.disagreements)} disagreements")
    for line in tally.disagreements[:40]:
        print("  " + line)
    assert tally.cases >= 2000
    assert not tally.disagreements
    assert tally.refused <= tally.cases // 4  # refusing is allowed, but not as a way out
