"""Spark's own answers for match-dependent expressions, and the comparison with sparkcep's Python
side (the interpreter, the generated code and the matcher's specialized code).

``answer`` takes a table of rows (a view with a column ``r`` = 0, 1, ...) and many expressions
(pairs of qualified and plain text, see ``grammar``): sparkcep lowers each as the DEFINE of B in
``PATTERN (A B)`` and binds it to the Spark types of its value columns (refusing is allowed and
counted); Spark computes the value columns (as in the real query) and evaluates every plain text
over every row, in as few queries as errors allow:

* one query for all expressions, each guarded by ``CASE WHEN r IN (...) THEN NULL ELSE e END``
  on the rows where the Python side raised (a raising row would fail the whole query; the guard
  only spares Spark those rows, it decides nothing: the value Spark gives on every other row is
  compared, and a query that still fails is split in halves until the expressions that raise
  where Python did not are alone, then asked row by row);
* one query per row where Python raised (``WHERE r = k``), to see that Spark raises too: all of
  them, or a random sample of ``error_cells`` of them.

Python's values only schedule the queries; every answer compared is Spark's.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import time
from dataclasses import dataclass, field
from decimal import Decimal

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import SparkCepError
from sparkcep.evaluation.binding import Semantics
from tests.evaluation.harness import Refused, _Error, evaluators, lower, same

MISSING = "<not asked>"


class SparkFailed:
    def __init__(self, analysis: bool, message: str):
        self.analysis = analysis
        lines = message.strip().splitlines() or [""]
        first = lines[0]
        if first.startswith("An error occurred while calling"):  # Py4J's: the Java exception's own line
            causes = [line.strip()[len("Caused by: "):] for line in lines if line.strip().startswith("Caused by: ")]
            first = causes[-1] if causes else first
        # a cause with an error class: the class first, as Spark prints its own errors
        self.message = re.sub(r"^[\w.$]+(Exception|Error): (?=\[[A-Z_]+)", "", first)[:200]

    def __repr__(self):
        return f"<spark {'analysis' if self.analysis else 'runtime'} error {self.message}>"


@dataclass
class Case:
    """One accepted expression over every row: ``column_types[c]`` / ``rows[r][c]`` are the
    type and the value of value column c (None for columns it does not read); ``answers[r]`` is
    Spark's value, a SparkFailed, or MISSING (not asked)."""

    qualified: str
    plain: str
    expression: object
    texts: list
    column_types: list
    rows: list
    answers: list
    # the value columns Spark's analysis knows are never NULL (as registration reads them)
    never_null_columns: frozenset = frozenset()


@dataclass
class Batch:
    cases: list = field(default_factory=list)
    refused: list = field(default_factory=list)  # qualified texts sparkcep refused
    value_failed: list = field(default_factory=list)  # Spark failed computing a value column
    queries: dict = field(default_factory=lambda: {"ok": 0, "failed": 0, "seconds": 0.0})


def _rows_of(spark, sql: str, batch: Batch):
    from pyspark.errors import AnalysisException

    started = time.monotonic()
    try:
        table = spark.sql(sql).toArrow()
    except AnalysisException as error:
        batch.queries["failed"] += 1
        return SparkFailed(True, str(error))
    except Exception as error:  # noqa: BLE001 - run-time errors (ANSI casts, overflow, division by zero)
        batch.queries["failed"] += 1
        return SparkFailed(False, str(error))
    finally:
        batch.queries["seconds"] += time.monotonic() - started
    batch.queries["ok"] += 1
    return table


def _python_values(column) -> list:
    """The values of an Arrow column of Spark's answers. A DATE (or TIMESTAMP) Python's ``datetime`` cannot
    hold (Spark's DATE reaches years before 1 and after 9999: ``date_add(DATE'9999-12-31', 1)``)
    becomes a SparkFailed naming Spark's value: sparkcep raises DATETIME_OUT_OF_PYTHON_RANGE for it, and
    the comparison counts the two as agreeing (both have no Python value)."""
    try:
        return column.to_pylist()
    except (ValueError, OverflowError):
        values = []
        for scalar in column:
            try:
                values.append(scalar.as_py())
            except (ValueError, OverflowError):
                if str(scalar.type).startswith("timestamp"):
                    micros = scalar.cast("int64").as_py()
                    values.append(SparkFailed(False, f"[DATE_OUTSIDE_PYTHON] Spark's TIMESTAMP {micros} microseconds "
                                                     "from 1970-01-01 00:00 UTC, outside 0001-01-01 .. 9999-12-31"))
                    continue
                days = scalar.cast("int32").as_py()
                values.append(SparkFailed(False, f"[DATE_OUTSIDE_PYTHON] Spark's DATE {days} days from "
                                                 "1970-01-01, outside 0001-01-01 .. 9999-12-31"))
        return values


def _spark_fields(spark, table: str, texts: list[str]) -> list:
    """Spark's analysed field (type and nullability) of each expression over ``table``, None
    where Spark refuses it."""
    from pyspark.errors import AnalysisException

    if not texts:
        return []
    try:
        return list(spark.sql(f"SELECT {', '.join(f'{t} AS v{i}' for i, t in enumerate(texts))} FROM {table}").schema.fields)
    except AnalysisException:
        pass
    fields = []
    for text in texts:
        try:
            fields.append(spark.sql(f"SELECT {text} AS v FROM {table}").schema[0])
        except AnalysisException:
            fields.append(None)
    return fields


def _spark_types(spark, table: str, texts: list[str]) -> list[str | None]:
    return [None if f is None else f.dataType.simpleString() for f in _spark_fields(spark, table, texts)]


def columns_of(expression) -> set[int]:
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
        elif isinstance(e, p.Lambda):  # a higher-order function's lambda: its body reads columns too
            visit(e.body)

    visit(expression)
    return found


def answer(spark, table: str, rows: int, expressions: list[tuple[str, str]], semantics: Semantics, *,
           error_cells: int | None = None, rng: random.Random | None = None) -> Batch:
    from pyspark.logger import PySparkLogger

    logger = PySparkLogger.getLogger("SQLQueryContextLogger")  # logs every failing query, whole
    disabled, logger.disabled = logger.disabled, True
    try:
        return _answer(spark, table, rows, expressions, semantics, error_cells, rng)
    finally:
        logger.disabled = disabled


def _answer(spark, table, rows, expressions, semantics, error_cells, rng) -> Batch:
    batch = Batch()
    values = ValueColumns()
    lowered = []
    for qualified, plain in expressions:
        try:
            lowered.append((qualified, plain, lower(qualified, values)))
        except SparkCepError:
            batch.refused.append(qualified)
    fields = _spark_fields(spark, table, values.texts)
    types = [None if f is None else f.dataType.simpleString() for f in fields]
    # what Spark knows is never NULL (a constant value column), as registration reads it
    never_null = frozenset(c for c, f in enumerate(fields) if f is not None and not f.nullable)
    accepted = []
    for qualified, plain, expression in lowered:
        used = columns_of(expression)
        column_types = [types[c] if c in used else None for c in range(len(types))]
        try:
            forms = evaluators(expression, column_types, semantics, never_null)
        except (Refused, SparkCepError):
            batch.refused.append(qualified)
            continue
        accepted.append((qualified, plain, expression, sorted(used), column_types, forms))
    # the value columns, computed by Spark (Catalyst computes them in the real query too). When
    # the query fails, the value columns Spark fails on (never a plain column) are found by
    # splitting the others in halves; the expressions reading them fail in Spark's own part of
    # the real query too, and are set aside
    value_rows: dict[int, list[list]] = {}
    used_by = {i: set(item[3]) for i, item in enumerate(accepted)}
    used = sorted(set().union(*used_by.values())) if accepted else []

    def value_query(columns):
        cells = ", ".join(["r"] + [f"{values.texts[c]} AS v{c}" for c in columns])
        return _rows_of(spark, f"SELECT {cells} FROM {table} ORDER BY r", batch)

    failing: set[int] = set()

    def find_failing(columns):
        if not columns or not isinstance(value_query(columns), SparkFailed):
            return
        if len(columns) == 1:
            failing.add(columns[0])
            return
        find_failing(columns[: len(columns) // 2])
        find_failing(columns[len(columns) // 2:])

    result = value_query(used) if used else None
    if isinstance(result, SparkFailed):
        find_failing([c for c in used if not re.fullmatch(r"\(*`\w+`\)*", values.texts[c])])
        result = value_query([c for c in used if c not in failing])
    if result is not None and not isinstance(result, SparkFailed):
        columns = {c: result.column(f"v{c}").to_pylist() for c in used if c not in failing}
        full = [[columns[c][r] if c in columns else None for c in range(len(values.texts))]
                for r in range(result.num_rows)]
        for i in range(len(accepted)):
            if used_by[i] & failing:
                batch.value_failed.append(accepted[i][0])
            else:
                value_rows[i] = full
    elif result is not None:
        batch.value_failed += [item[0] for item in accepted]
    # where Python raises (only to schedule Spark's queries)
    raising: dict[int, list[int]] = {}
    for i in value_rows:
        interpreter = accepted[i][5]["interpreter"]
        raising[i] = [r for r, row in enumerate(value_rows[i]) if isinstance(interpreter(row), _Error)]
    answers: dict[int, list] = {i: [MISSING] * rows for i in value_rows}

    def cell(i: int) -> str:
        plain = accepted[i][1]
        if raising[i]:
            return f"CASE WHEN r IN ({', '.join(map(str, raising[i]))}) THEN NULL ELSE ({plain}) END AS e{i}"
        return f"({plain}) AS e{i}"

    def one_row(i: int, r: int):
        result = _rows_of(spark, f"SELECT ({accepted[i][1]}) AS e FROM {table} WHERE r = {r}", batch)
        return result if isinstance(result, SparkFailed) else _python_values(result.column("e"))[0]

    def reference_query(group):
        result = _rows_of(spark, f"SELECT {', '.join(['r'] + [cell(i) for i in group])} FROM {table} ORDER BY r",
                          batch)
        if not isinstance(result, SparkFailed):
            for i in group:
                for r, value in enumerate(_python_values(result.column(f"e{i}"))):
                    if r not in raising[i]:
                        answers[i][r] = value
        elif len(group) > 1:
            reference_query(group[: len(group) // 2])
            reference_query(group[len(group) // 2:])
        else:
            (i,) = group
            for r in range(rows):
                if r not in raising[i]:
                    answers[i][r] = result if result.analysis else one_row(i, r)

    if value_rows:
        reference_query(sorted(value_rows))
    cells = [(i, r) for i in sorted(raising) for r in raising[i]]
    if error_cells is not None and len(cells) > error_cells:
        cells = sorted((rng or random.Random(0)).sample(cells, error_cells))
    for i, r in cells:
        answers[i][r] = one_row(i, r)
    for i in sorted(value_rows):
        qualified, plain, expression, used, column_types, _forms = accepted[i]
        batch.cases.append(Case(qualified, plain, expression, [values.texts[c] if c in used else None
                                                               for c in range(len(values.texts))],
                                column_types, value_rows[i], answers[i], never_null))
    return batch


_DECIMAL128 = None


def known_disagreement(case: Case, r: int, python, spark, zone: str) -> str | None:
    """The reason when Python's ``python`` differs from Spark's ``spark`` in a way already known
    (reported, not yet fixed), else None. Each is narrow: the exact difference on the exact
    inputs, so any other difference on the same expressions still fails."""
    global _DECIMAL128
    import decimal

    if isinstance(python, Decimal) and case.qualified.startswith(("(- ", "abs(")) \
            and len(python.as_tuple().digits) > 34:
        # Spark negates and takes abs of a DECIMAL through Scala's BigDecimal, whose context
        # (DECIMAL128) keeps 34 significant digits: a 35- to 38-digit value loses its last ones,
        # and 38 nines round up to 10^38, which DECIMAL(38, s) cannot hold (an error under
        # ANSI, NULL without)
        _DECIMAL128 = _DECIMAL128 or decimal.Context(prec=34, rounding=decimal.ROUND_HALF_EVEN)
        rounded = _DECIMAL128.plus(python)
        if isinstance(spark, Decimal) and rounded == spark:
            return "decimal unary minus/abs keeps 34 digits in Spark"
        overflow = rounded.adjusted() - python.as_tuple().exponent >= 38 if rounded else False
        if overflow and (spark is None or (isinstance(spark, SparkFailed)
                                           and "NUMERIC_VALUE_OUT_OF_RANGE" in spark.message)):
            return "decimal unary minus/abs keeps 34 digits in Spark"
    return None


# typed errors sparkcep raises on a row instead of an answer it does not reproduce (the charter
# allows refusing, never a different answer): counted in ``known``, not disagreements
ROW_REFUSALS = ("UNSUPPORTED_MATCH_DEPENDENT_FORMAT",)


def disagreements(case: Case, semantics: Semantics, forms: dict | None = None,
                  known: dict | None = None) -> tuple[int, int, list[str]]:
    """(cases agreed, cases both failed, disagreements) of the Python forms with Spark; known
    disagreements (``known_disagreement``) and rows refused (``ROW_REFUSALS``) are counted in
    ``known`` by reason instead."""
    forms = forms or evaluators(case.expression, case.column_types, semantics, case.never_null_columns)
    agreed = failed = 0
    bad_cases = []
    for r, reference in enumerate(case.answers):
        if reference is MISSING:
            continue
        bad = []
        for form, evaluate in forms.items():
            value = evaluate(case.rows[r])
            if isinstance(value, _Error) and value.error in ROW_REFUSALS:
                if known is not None:
                    reason = f"refused on the row ({value.error})"
                    known[reason] = known.get(reason, 0) + 1
                continue
            if isinstance(reference, SparkFailed):
                if not isinstance(value, _Error):
                    reason = known_disagreement(case, r, value, reference, semantics.time_zone)
                    if reason is not None and known is not None:
                        known[reason] = known.get(reason, 0) + 1
                        continue
                    bad.append(f"{form}={value!r}")
            elif isinstance(value, _Error) or not same(value, reference):
                reason = None if isinstance(value, _Error) else \
                    known_disagreement(case, r, value, reference, semantics.time_zone)
                if reason is not None and known is not None:
                    known[reason] = known.get(reason, 0) + 1
                    continue
                bad.append(f"{form}={value!r}")
        if bad:
            row = {t: v for t, v in zip(case.texts, case.rows[r]) if t is not None}
            bad_cases.append(f"{case.qualified} @ row {r} {row}: Spark {reference!r}, " + ", ".join(bad))
        elif isinstance(reference, SparkFailed):
            failed += 1
        else:
            agreed += 1
    return agreed, failed, bad_cases


# -- a JSON form of Spark's values (the recorded answers) -------------------------------------

def encode(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"double": repr(value)}
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, dt.datetime):
        return {"timestamp": value.isoformat()}
    if isinstance(value, dt.date):
        return {"date": value.isoformat()}
    if isinstance(value, dt.timedelta):  # a day-time interval
        return {"interval": (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds}
    if isinstance(value, list):  # an ARRAY, or a MAP as PyArrow gives it: a list of entries
        return [encode(element) for element in value]
    if isinstance(value, tuple):  # a MAP's (key, value) entry
        return {"entry": [encode(element) for element in value]}
    if isinstance(value, dict):  # a STRUCT as PyArrow gives it: field name to value, in order
        return {"struct": [[name, encode(element)] for name, element in value.items()]}
    if isinstance(value, SparkFailed):
        return {"error": "analysis" if value.analysis else "runtime", "message": value.message}
    raise TypeError(f"no JSON form for {value!r}")


def decode(value):
    if isinstance(value, list):
        return [decode(element) for element in value]
    if not isinstance(value, dict):
        return value
    ((kind, text),) = [(k, v) for k, v in value.items() if k != "message"]
    if kind == "double":
        return float(text)
    if kind == "decimal":
        return Decimal(text)
    if kind == "timestamp":
        return dt.datetime.fromisoformat(text)
    if kind == "date":
        return dt.date.fromisoformat(text)
    if kind == "interval":
        return dt.timedelta(microseconds=text)
    if kind == "entry":
        return tuple(decode(element) for element in text)
    if kind == "struct":
        return {name: decode(element) for name, element in text}
    if kind == "error":
        return SparkFailed(text == "analysis", value.get("message", ""))
    raise ValueError(value)


__all__ = ["Batch", "Case", "MISSING", "SparkFailed", "answer", "decode", "disagreements", "encode"]
