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
import os
import time
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, SparkCepError
from sparkcep.evaluation.binding import Semantics, bind
from tests.evaluation import grammar
from tests.evaluation.harness import Refused, _Error, evaluate_all, lower

pytestmark = pytest.mark.spark

ROWS = 8
EXPRESSIONS = 128
EXAMPLES = int(os.environ.get("SPARKCEP_DIFFERENTIAL_EXAMPLES", 2))  # x ROWS x EXPRESSIONS = 2,048 cases per ANSI setting
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


QUERIES = {"ok": 0, "analysis": 0, "runtime": 0, "seconds": 0.0}


def _spark_rows(spark, sql: str):
    from pyspark.errors import AnalysisException

    started = time.monotonic()
    try:
        table = spark.sql(sql).toArrow()
    except AnalysisException as error:
        QUERIES["analysis"] += 1
        return _SparkFailed(True, str(error))
    except Exception as error:  # run-time errors (ANSI casts, overflow, division by zero)
        QUERIES["runtime"] += 1
        return _SparkFailed(False, str(error))
    finally:
        QUERIES["seconds"] += time.monotonic() - started
    QUERIES["ok"] += 1
    return table


def _spark_types(spark, table_sql: str, texts: list[str]) -> list[str | None]:
    """The Spark type of each value column (one analysis; one per column if that fails)."""
    from pyspark.errors import AnalysisException

    if not texts:
        return []
    try:
        schema = spark.sql(f"SELECT {', '.join(f'{t} AS v{i}' for i, t in enumerate(texts))} FROM {table_sql}").schema
        return [field.dataType.simpleString() for field in schema.fields]
    except AnalysisException:
        pass
    types = []
    for text in texts:
        try:
            types.append(spark.sql(f"SELECT {text} AS v FROM {table_sql}").schema[0].dataType.simpleString())
        except AnalysisException:
            types.append(None)
    return types


class Tally:
    def __init__(self):
        self.cases = self.agreed = self.both_failed = self.refused = self.in_python = 0
        self.disagreements: list[str] = []


def _row_values(table, columns) -> list[dict]:
    return [dict(zip(columns, values)) for values in zip(*(table.column(f"v{c}").to_pylist() for c in columns))] \
        if columns else [{} for _ in range(table.num_rows)]


def _check_batch(spark, table_sql: str, expressions: list[tuple[str, str]], semantics: Semantics, tally: Tally):
    """Python first, then Spark in few queries: (1) the value columns of every accepted
    expression (Catalyst computes them in the real query too); (2) Python evaluates each
    expression on each row; (3) Spark evaluates, in one query, every expression Python found
    error-free on all rows, and row by row the few that raised on some row. A failing query (3)
    is split in halves until the expressions Spark raises for are alone: disagreements."""
    values = ValueColumns()
    items = []
    for qualified, plain in expressions:
        try:
            expression = lower(qualified, values)
        except SparkCepError:
            expression = None
        items.append((expression, sorted(_columns_of(expression)) if expression is not None else [], plain))
    types = _spark_types(spark, table_sql, values.texts)
    accepted = []
    for index, (expression, columns, _plain) in enumerate(items):
        tally.cases += ROWS
        if expression is None:
            tally.refused += ROWS  # refusing is always allowed; it costs Spark nothing
            continue
        column_types = [types[c] if c in columns else None for c in range(len(types))]
        try:
            bind(expression, column_types, semantics)
        except AnalysisError:
            # refused: fine, unless Spark accepts a value column we could not type
            tally.refused += ROWS
            continue
        accepted.append(index)
    if not accepted:
        return
    used = sorted({c for i in accepted for c in items[i][1]})
    # (1) the value columns; an expression whose value column Catalyst fails on is Spark's own
    # error in the real query too: set aside, split to find them
    value_rows: dict[int, list[dict]] = {}

    def value_query(group):
        columns = sorted({c for i in group for c in items[i][1]})
        cells = ", ".join(["r"] + [f"{values.texts[c]} AS v{c}" for c in columns])
        table = _spark_rows(spark, f"SELECT {cells} FROM {table_sql} ORDER BY r")
        if not isinstance(table, _SparkFailed):
            rows = _row_values(table, columns)
            for i in group:
                value_rows[i] = rows
        elif len(group) > 1:
            value_query(group[: len(group) // 2])
            value_query(group[len(group) // 2:])
        else:
            tally.both_failed += ROWS

    value_query(accepted)
    del used
    # (2) Python
    predicted: dict[int, list[dict]] = {}
    for i in list(value_rows):
        expression, columns, _plain = items[i]
        column_types = [types[c] if c in columns else None for c in range(len(types))]
        predicted[i] = []
        for row in value_rows[i]:
            full = [row.get(c) for c in range(len(types))]
            predicted[i].append(evaluate_all(expression, full, column_types, semantics))
        if _has_operator(expression):
            tally.in_python += ROWS
    clean = [i for i in predicted if not any(isinstance(v, _Error) for r in predicted[i] for v in r.values())]
    raising = [i for i in predicted if i not in clean]

    def compare(i, r, reference):
        bad = []
        for form, value in predicted[i][r].items():
            if isinstance(reference, _SparkFailed):
                if not isinstance(value, _Error):
                    bad.append(f"{form}={value!r}")
            elif isinstance(value, _Error) or not _same(value, reference):
                bad.append(f"{form}={value!r}")
        if bad:
            tally.disagreements.append(
                f"{expressions[i][0]} @ {value_rows[i][r]}: Spark {reference!r}, " + ", ".join(bad))
        elif isinstance(reference, _SparkFailed):
            tally.both_failed += 1
        else:
            tally.agreed += 1

    # (3) Spark
    def reference_query(group):
        cells = ", ".join(["r"] + [f"({items[i][2]}) AS e{i}" for i in group])
        table = _spark_rows(spark, f"SELECT {cells} FROM {table_sql} ORDER BY r")
        if not isinstance(table, _SparkFailed):
            for i in group:
                for r, reference in enumerate(table.column(f"e{i}").to_pylist()):
                    compare(i, r, reference)
        elif len(group) > 1:
            reference_query(group[: len(group) // 2])
            reference_query(group[len(group) // 2:])
        else:
            (i,) = group
            tally.disagreements.append(f"{expressions[i][0]}: Spark {table!r}, sparkcep "
                                       f"{[list(p.values())[0] for p in predicted[i]]!r}")

    if clean:
        reference_query(clean)
    for i in raising:
        for r in range(ROWS):
            table = _spark_rows(spark, f"SELECT ({items[i][2]}) AS e FROM {table_sql} WHERE r = {r}")
            compare(i, r, table if isinstance(table, _SparkFailed) else table.column("e")[0].as_py())


def _has_operator(expression) -> bool:
    from sparkcep.plan import expressions as p

    return isinstance(expression, p.Operator)


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
    settings_used = ("spark.sql.ansi.enabled", "spark.sql.session.timeZone", "spark.sql.codegen.wholeStage")
    previous = {k: spark.conf.get(k) for k in settings_used}
    # wide projections of many small expressions: compiling them is most of Spark's time
    spark.conf.set("spark.sql.codegen.wholeStage", "false")
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    semantics = Semantics(ansi=ansi, time_zone=ZONE)
    tally = Tally()
    QUERIES.update(ok=0, analysis=0, runtime=0, seconds=0.0)
    try:
        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(table=grammar.rows(ROWS),
               expressions=st.lists(grammar.expressions().map(lambda e: e), min_size=EXPRESSIONS,
                                    max_size=EXPRESSIONS))
        def batch(table, expressions):
            assume(len(set(expressions)) > EXPRESSIONS // 2)  # not hypothesis's simplest example
            # materialised, so Spark's optimizer cannot fold the expressions over literal rows
            # (that would raise for rows a WHERE excludes)
            spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_cases")
            _check_batch(spark, "sparkcep_cases", expressions, semantics, tally)

        batch()
    finally:
        for key, value in previous.items():
            spark.conf.set(key, value)
        spark.sparkContext.setLogLevel("WARN")
    print(f"\nANSI={ansi}: {tally.cases} cases, {tally.agreed} agree, {tally.both_failed} both fail, "
          f"{tally.refused} refused, {len(tally.disagreements)} disagreements; "
          f"{tally.in_python} cases had operators evaluated in Python; Spark queries {QUERIES}")
    for line in tally.disagreements[:40]:
        print("  " + line)
    assert tally.cases >= 2000
    assert not tally.disagreements
    assert tally.refused <= tally.cases // 4  # refusing is allowed, but not as a way out
    assert tally.in_python >= tally.cases // 4  # the test is about Python's operators
