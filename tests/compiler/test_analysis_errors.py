"""Invalid queries: each raises a SparkCepError with the right code, at the right token.

A case names the offending token by a marker: the first occurrence of the marker text after
``MATCH_RECOGNIZE`` (or its n-th occurrence), whose line and column the error must report.
"""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.errors import AnalysisError, SparkCepError, line_and_column


def query(
    pattern: str = "A B",
    define: str = "A AS v > 0",
    measures: str = "",
    rows: str = "",
    skip: str = "",
    subset: str = "",
    strategy: str = "",
    within: str = "",
    order: str = "ORDER BY id",
    partition: str = "PARTITION BY p",
) -> str:
    parts = [partition, order]
    if measures:
        parts.append(f"MEASURES {measures}")
    parts += [rows, skip, strategy, f"PATTERN ({pattern})", within]
    if subset:
        parts.append(f"SUBSET {subset}")
    if define:
        parts.append(f"DEFINE {define}")
    body = "\n  ".join(part for part in parts if part)
    return f"SELECT *\nFROM t MATCH_RECOGNIZE (\n  {body}\n) AS m"


CASES = [
    ("UNDEFINED_PATTERN_VARIABLE", query(measures="LAST(C.v) AS x"), "C.v", 1),
    ("UNDEFINED_PATTERN_VARIABLE", query(define="C AS v > 0"), "C AS", 1),
    ("UNDEFINED_PATTERN_VARIABLE", query(subset="U = (A, Z)"), "Z)", 1),
    ("UNDEFINED_PATTERN_VARIABLE", query(skip="AFTER MATCH SKIP TO LAST Z"), "Z\n", 1),
    ("UNDEFINED_PATTERN_VARIABLE", query(measures="CLASSIFIER(Z) AS c"), "Z)", 1),
    ("UNDEFINED_PATTERN_VARIABLE", query(define="A AS t.v > 0"), "t.v", 1),
    ("DUPLICATE_DEFINITION", query(define="A AS v > 0, A AS v < 0"), "A AS", 2),
    ("SUBSET_NAME_CONFLICT", query(subset="A = (A, B)"), "A =", 1),
    ("DUPLICATE_SUBSET", query(subset="U = (A), U = (B)"), "U =", 2),
    ("DEFINE_SUBSET", query(subset="U = (A, B)", define="U AS v > 0"), "U AS", 1),
    ("FINAL_IN_DEFINE", query(define="A AS FINAL LAST(A.v) > 0"), "FINAL", 1),
    ("INVALID_NAVIGATION_NESTING", query(define="A AS PREV(PREV(v)) > 0"), "PREV(v)", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="LAST(PREV(A.v)) AS x"), "PREV(A.v)", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="LAST(SUM(A.v)) AS x"), "SUM", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="SUM(LAST(A.v)) AS x"), "LAST(A.v)", 1),
    # CLASSIFIER() in navigation is allowed (ISO/IEC 19075-5, 5.6), but only as its argument
    ("INVALID_NAVIGATION_NESTING", query(measures="LAST(lower(CLASSIFIER())) AS x"), "CLASSIFIER", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="PREV(LAST(A.v) + FIRST(A.v)) AS x"), "FIRST", 1),
    ("INVALID_NAVIGATION_NESTING", query(define="A AS MAX(MIN(A.v)) > 0"), "MIN", 1),
    ("INCONSISTENT_VARIABLE_REFERENCES", query(measures="LAST(A.v + B.v) AS x"), "LAST", 1),
    ("INCONSISTENT_VARIABLE_REFERENCES", query(measures="SUM(A.v * B.v) AS x"), "SUM", 1),
    ("INCONSISTENT_VARIABLE_REFERENCES", query(define="B AS FIRST(A.v + v) > 0"), "FIRST", 1),
    ("INVALID_NAVIGATION_OFFSET", query(define="A AS PREV(v, v) > 0"), "v)", 1),
    ("INVALID_NAVIGATION_OFFSET", query(measures="FIRST(A.v, 1.5) AS x"), "1.5", 1),
    ("NAVIGATION_WITHOUT_COLUMN", query(define="A AS PREV(1) > 0"), "PREV", 1),
    ("NAVIGATION_WITHOUT_COLUMN", query(measures="LAST(2) AS x"), "LAST", 1),
    ("EXCLUSION_WITH_UNMATCHED_ROWS",
     query(pattern="A {- B -}", rows="ALL ROWS PER MATCH WITH UNMATCHED ROWS"), "{-", 1),
    ("PARTITION_BY_NOT_COLUMN", query(partition="PARTITION BY upper(p)"), "upper", 1),
    ("PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE", query(partition="PARTITION BY A.p"), "A.p", 1),
    ("WITHIN_REQUIRES_ORDER_BY", query(order="", within="WITHIN 10"), "WITHIN", 1),
    ("WITHIN_REQUIRES_SINGLE_ORDER_KEY", query(order="ORDER BY id, v", within="WITHIN 10"), "v\n", 1),
    ("WITHIN_NOT_POSITIVE", query(within="WITHIN 0"), "WITHIN", 1),
    ("WITHIN_UNSUPPORTED_INTERVAL", query(within="WITHIN INTERVAL '1' MONTH"), "WITHIN", 1),
    ("NEGATION_REQUIRES_SKIP_STRATEGY", query(pattern="A !B C"), "!B", 1),
    ("NEGATION_NOT_IN_SEQUENCE",
     query(pattern="A (!B | C) D", strategy="SKIP TILL NEXT MATCH"), "!B", 1),
    ("DUPLICATE_MEASURE_NAME", query(measures="A.v AS x, B.v AS X"), "X", 1),
    ("WINDOW_FUNCTION_IN_MATCH_RECOGNIZE",
     query(measures="row_number() OVER (ORDER BY id) AS r"), "row_number", 1),
    ("WINDOW_FUNCTION_IN_MATCH_RECOGNIZE",
     query(define="A AS v > lag(v) OVER (ORDER BY id)"), "lag", 1),
    # in MEASURES Spark computes every aggregate; in DEFINE Python computes a documented set
    ("UNSUPPORTED_AGGREGATE", query(define="A AS stddev(A.v) > 1"), "stddev", 1),
    # max_by / min_by with k: Spark's checks of k, at k (docs/semantics.md, "Aggregates")
    ("DATATYPE_MISMATCH", query(define="A AS max_by(A.v, A.id, 0) IS NULL"), "0)", 1),
    ("DATATYPE_MISMATCH", query(define="A AS min_by(A.v, A.id, A.v) IS NULL"), "A.v)", 1),
    ("UNSUPPORTED_AGGREGATE", query(define="A AS max_by(A.v, A.id, 1 + 1) IS NULL"), "1 + 1", 1),
    ("UNSUPPORTED_AGGREGATE", query(define="A AS count_if(CLASSIFIER()) > 0"), "count_if", 1),
    ("UNSUPPORTED_AGGREGATE", query(define="A AS percentile(A.v, 0.5) > 1"), "percentile", 1),
    ("INVALID_STAR_REFERENCE", query(measures="SUM(A.*) AS s"), "A.*", 1),
    # a struct's star expansion is several columns, a measure or condition one value (was
    # Spark's unplaced "Can only star expand struct data types")
    ("INVALID_STAR_REFERENCE", query(measures="LAST(A.s).* AS s"), "LAST(A.s).*", 1),
    ("INVALID_STAR_REFERENCE", query(define="A AS v > 0, B AS (LAST(A.s)).* IS NULL"), "(LAST(A.s)).*", 1),
    ("NAVIGATION_REQUIRES_ORDER_BY", query(order="", define="A AS v > PREV(v)"), "PREV", 1),
    ("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
     query(define="B AS to_number(concat(A.s, B.s), '99') = 1"), "to_number", 1),
    ("UNSUPPORTED_QUALIFIED_NAME", query(measures="LAST(A.s.x) AS y"), "A.s.x", 1),
    # ORDER BY sorts the input rows: no aggregate, window or row pattern function, no variable
    ("INVALID_ORDER_BY", query(order="ORDER BY count(*)"), "count", 1),
    # an aggregate under RUNNING/FINAL nested in another (was: "A.* is only valid inside COUNT")
    ("INVALID_NAVIGATION_NESTING", query(measures="RUNNING SUM(RUNNING COUNT(A.*)) AS x"), "RUNNING COUNT", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="LAST(FINAL MAX(A.v)) AS x"), "FINAL MAX", 1),
    ("INVALID_ORDER_BY", query(order="ORDER BY id, CLASSIFIER() DESC"), "CLASSIFIER", 1),
    ("INVALID_ORDER_BY", query(order="ORDER BY PREV(id)"), "PREV", 1),
    ("INVALID_ORDER_BY", query(order="ORDER BY sum(id) OVER ()"), "sum(id) OVER", 1),
    ("PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE", query(order="ORDER BY A.id"), "A.id", 1),
    ("NO_OUTPUT_COLUMNS", query(partition=""), "t MATCH_RECOGNIZE", 1),
    ("AFTER_MATCH_SKIP_WITH_SELECTION_STRATEGY",
     query(skip="AFTER MATCH SKIP PAST LAST ROW", strategy="SKIP TILL ANY MATCH"), "AFTER", 1),
    ("MATCH_NUMBER_IN_DEFINE",
     query(define="A AS MATCH_NUMBER() < 3", strategy="SKIP TILL NEXT MATCH"), "MATCH_NUMBER", 1),
    ("UNSUPPORTED_PATTERN_FOR_STRATEGY",
     query(pattern="A | B", strategy="SKIP TILL ANY MATCH"), "A | B", 1),
    ("UNSUPPORTED_PATTERN_FOR_STRATEGY",
     query(pattern="!A B", strategy="SKIP TILL NEXT MATCH"), "!A B", 1),
    # Quantifier bounds (ISO/IEC 19075-5, 4.12.3: {n,m} needs m >= 1); bounds are INTs.
    ("INVALID_QUANTIFIER_BOUND", query(pattern="A{0} B"), "{0}", 1),
    ("INVALID_QUANTIFIER_BOUND", query(pattern="A B{0,0}"), "{0,0}", 1),
    ("INVALID_QUANTIFIER_BOUND", query(pattern="A{3000000000}"), "{3000000000}", 1),
    ("INVALID_QUANTIFIER_BOUND", query(pattern="A{5, 3000000000}"), "{5,", 1),
    ("INVALID_QUANTIFIER_BOUND", query(pattern="(A B){2147483648,}"), "{", 1),
    # Pattern size limits (issue 11): checked before anything is built from them.
    ("PATTERN_TOO_LARGE", query(pattern="A{2000000}"), "A{2000000}", 1),
    ("PATTERN_TOO_LARGE", query(pattern="A (B{1000}){1000}"), "A (B", 1),
    ("PATTERN_TOO_LARGE",
     query(pattern="PERMUTE(A, B, C, D, E, F, G, H, I)"), "PERMUTE", 1),
    ("PATTERN_TOO_LARGE",
     query(pattern="X PERMUTE(A, B, C, D, E, F, G, H, I, J, K, L)"), "PERMUTE", 1),
    # A DEFINE condition is a <search condition>: boolean (ISO/IEC 19075-5, 4.11).
    ("DEFINE_NOT_BOOLEAN", query(define="A AS v + 1"), "v + 1", 1),
    ("DEFINE_NOT_BOOLEAN", query(define="A AS v > 0 AND 5"), "5", 1),
    ("DEFINE_NOT_BOOLEAN", query(define="A AS 'yes'"), "'yes'", 1),
    ("DEFINE_NOT_BOOLEAN", query(define="A AS NOT (COUNT(A.*))"), "COUNT", 1),
    # RUNNING/FINAL qualify FIRST, LAST and aggregates only (ISO/IEC 19075-5, 5.6.5).
    ("RUNNING_FINAL_TARGET", query(measures="FINAL PREV(A.v) AS x"), "FINAL", 1),
    ("RUNNING_FINAL_TARGET", query(measures="RUNNING NEXT(A.v, 2) AS x"), "RUNNING", 1),
    ("RUNNING_FINAL_TARGET", query(measures="FINAL CLASSIFIER() AS x"), "FINAL", 1),
    # PREV/NEXT may take a FIRST/LAST call as their whole argument only (5.6.4).
    ("INVALID_NAVIGATION_NESTING", query(define="A AS PREV(LAST(A.v, 2) + 5) > 0"), "LAST", 1),
    ("INVALID_NAVIGATION_NESTING", query(measures="NEXT(1 + FIRST(A.v)) AS x"), "FIRST", 1),
    # A quoted name is an ordinary function name, not the row pattern function.
    ("QUOTED_ROW_PATTERN_FUNCTION", query(measures="`NEXT`(A.v) AS x"), "`NEXT`", 1),
    ("QUOTED_ROW_PATTERN_FUNCTION", query(define="A AS `PREV`(v) > 0"), "`PREV`", 1),
    # Derived column names are case-insensitive in Spark: t(x, X) is ambiguous.
    ("DUPLICATE_INPUT_COLUMN",
     query().replace("FROM t MATCH", "FROM (VALUES (1, 2, 3)) t(v, V, id) MATCH"), "V, id", 1),
]


def test_program_size_is_exact():
    """``analysis.program_size`` predicts the compiled program without building it (the limit
    is checked with it before compilation): the matcher's program has one more instruction, its
    final MATCH."""
    import numpy as np

    from sparkcep.compiler.analysis import program_size
    from sparkcep.engines.standard.program import compile_pattern
    from tests.matcher.test_differential import random_pattern

    rng = np.random.default_rng(7)
    for _ in range(400):
        pattern = random_pattern(rng, 3, 8)
        assert program_size(pattern) + 1 == len(compile_pattern(pattern).ops), pattern


def _compiled_spec(sql: str):
    from sparkcep.compiler.rewrite import compile_statement

    sparkcep.transpile(sql)  # the whole statement transpiles
    (match,) = compile_statement(sql).matches
    return match.plan.spec


def test_largest_permute_and_bound_within_limits_compile():
    """Just inside the limits still transpiles, to the pattern written: PERMUTE of 8 elements
    matches each of its orders, A{1000} B exactly 1000 A rows then a B, an unbounded A{1,} is
    not unrolled; the SASE engines count iterations instead of unrolling them (no program size
    limit): B{2000000} stays one counted quantifier."""
    import numpy as np

    from sparkcep.engines import rowpattern as rp
    from tests.matcher.harness import run_matcher

    spec = _compiled_spec(query(pattern="PERMUTE(A, B, C, D, E, F, G, H)", define=""))
    assert spec.variable_names == tuple("ABCDEFGH")
    # one partition, so the matcher builds the program of the 8! orders once: blocks of 8 rows,
    # each after a row true for no variable (no match spans two blocks). Three random orders,
    # rows each true for one variable only, match; a row true for a variable already used
    # breaks the permutation (the last block): no match
    rng = np.random.default_rng(8)
    orders = [[int(v) for v in rng.permutation(8)] for _ in range(3)]
    blocks = [*orders, [0, 1, 2, 3, 4, 5, 6, 0]]
    masks = np.zeros((8, 9 * len(blocks)), dtype=bool)
    for b, block in enumerate(blocks):
        for row, variable in enumerate(block):
            masks[variable, 9 * b + 1 + row] = True
    events, code = run_matcher(spec, None, masks)
    assert code is None
    assert [(m.rows, m.labels) for m in events] == [
        (tuple(range(9 * b + 1, 9 * b + 9)), tuple(order)) for b, order in enumerate(orders)]

    # likewise one partition for 999, 1000 and 1001 A rows then a B, a row true for no variable
    # before each block: A{1000} B matches exactly the last 1000 A rows and the B
    spec = _compiled_spec(query(pattern="A{1000} B"))
    names = spec.variable_names.index("A"), spec.variable_names.index("B")
    masks = np.zeros((2, 3 * 1003), dtype=bool)
    want, start = [], 0
    for a_rows, matched in ((999, False), (1000, True), (1001, True)):
        start += 1  # the row before the block
        masks[names[0], start:start + a_rows] = True
        masks[names[1], start + a_rows] = True
        if matched:
            want.append(tuple(range(start + a_rows - 1000, start + a_rows + 1)))
        start += a_rows + 1
    events, code = run_matcher(spec, None, masks)
    assert code is None
    assert [m.rows for m in events] == want

    spec = _compiled_spec(query(pattern="A{1,} B{0,1}"))
    first, second = spec.pattern.items
    assert (first.min, first.max, second.min, second.max) == (1, None, 0, 1)

    spec = _compiled_spec(query(pattern="A B{2000000} C", strategy="SKIP TILL ANY MATCH"))
    assert spec.pattern == rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 2000000, 2000000, True),
                                      rp.Label(2)))


def expected_position(sql: str, marker: str, occurrence: int) -> tuple[int, int]:
    before_clause = ("t MATCH_RECOGNIZE", "V, id")  # markers in the input relation
    start = sql.index("MATCH_RECOGNIZE") if marker not in before_clause else 0
    offset = start - 1
    for _ in range(occurrence):
        offset = sql.index(marker, offset + 1)
    return line_and_column(sql, offset)


@pytest.mark.parametrize(
    "code, sql, marker, occurrence", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_invalid_query(code, sql, marker, occurrence):
    with pytest.raises(SparkCepError) as caught:
        sparkcep.transpile(sql)
    error = caught.value
    assert error.code == code, str(error)
    assert (error.line, error.column) == expected_position(sql, marker, occurrence), str(error)
    rendered = str(error)
    assert rendered.splitlines()[0].startswith(f"[{code}]")
    assert "^" in rendered.splitlines()[-1]


def test_errors_are_typed():
    assert issubclass(AnalysisError, SparkCepError)
    with pytest.raises(AnalysisError):
        sparkcep.transpile(query(measures="LAST(C.v) AS x"))


@pytest.mark.parametrize(("condition", "written"), [
    ("schema_of_json(A.s || B.s) = 'x'", "schema_of_json"),
    ("space(A.n + B.n) = ' '", "space"),  # sqlglot: Space
    ("SPACE(A.n - B.n) = ' '", "SPACE"),
    ("jaro_winkler_similarity(A.s, B.s) = 1", "jaro_winkler_similarity"),
    ("from_json(A.s || B.s, 'a INT') IS NULL", "from_json"),  # sqlglot: FromJson
    ("to_number(A.s || B.s, '99') = 1", "to_number"),  # sqlglot: ToNumber
    ("To_Number(A.s || B.s, '99') = 1", "To_Number"),
    ("size(sentences(A.s || B.s)) = 1", "sentences"),
])
def test_unsupported_dependent_expression_names_what_the_user_wrote(condition, written):
    """The message names the operator or function as written, never sqlglot's class name."""
    sql = query(define=f"A AS v > 0, B AS {condition}")
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert str(caught.value).splitlines()[0].split("] ", 1)[1].startswith(f"'{written}' cannot combine")


@pytest.mark.parametrize(("sql", "marker"), [
    # a pattern variable or SUBSET name is not visible around the clause (was Spark's unplaced
    # unresolved-name error, "Can only star expand struct data types" for A.*)
    ("SELECT A.*\nFROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS x PATTERN (A B) "
     "DEFINE A AS v > 0) AS m", "A.*"),
    ("SELECT m.x,\n  u.v FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(U.v) AS x PATTERN (A B) "
     "SUBSET U = (A, B) DEFINE A AS v > 0) AS m", "u.v"),
    ("SELECT x FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS x PATTERN (A B) "
     "DEFINE A AS v > 0) AS m\nWHERE b.v > 1", "b.v"),
])
def test_pattern_variable_not_visible_outside_the_clause(sql, marker):
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE", str(caught.value)
    assert (caught.value.line, caught.value.column) == line_and_column(sql, sql.index(marker))


@pytest.mark.parametrize("sql", [
    # the same name bound by a relation around the clause, or naming its output, resolves there
    "SELECT A.v FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS x PATTERN (A B) "
    "DEFINE A AS v > 0) AS m JOIN a ON m.x = a.x",
    "SELECT A.x FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS x PATTERN (A B) "
    "DEFINE A AS v > 0) AS A",
    "SELECT (SELECT max(A.v) FROM u A) FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS x "
    "PATTERN (A B) DEFINE A AS v > 0) AS m",
    # a STRUCT measure named like a variable: a.x is its field
    "SELECT a.x FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES named_struct('x', LAST(A.v)) AS a "
    "PATTERN (A B) DEFINE A AS v > 0) AS m",
])
def test_pattern_variable_names_bound_around_the_clause_are_not_refused(sql):
    sparkcep.transpile(sql)



# every function name PySpark knows, and the ones sparkcep evaluates between rows, called with
# 0 to 4 arguments that combine rows (DEFINE), read one row (DEFINE), or sit in MEASURES
_FUNCTION_NAMES = sorted(
    {n for n, f in vars(__import__("pyspark.sql.functions", fromlist=["_"])).items()
     if callable(f) and not n.startswith("_") and n.islower()}
    | {"dateadd", "date_sub", "left", "right", "locate", "position", "instr", "substr", "substring_index",
       "translate", "levenshtein", "chr", "char", "sha", "sha2", "trim", "ltrim", "rtrim", "replace", "lpad",
       "rpad", "repeat", "conv", "timestampdiff", "datediff", "make_date", "next_day", "pmod", "nvl2", "nullif",
       "if", "ifnull", "nvl", "concat_ws", "array_join", "try_add", "try_divide", "format_number", "hash",
       "xxhash64", "regexp_count", "regexp_substr", "regexp_instr", "regexp_extract", "regexp_replace",
       "power", "log", "shiftleft", "months_between", "add_months", "date_add", "split_part", "min_by",
       "max_by", "date_trunc", "substring"})


@pytest.mark.parametrize("place", ["between rows", "one row", "measures"])
def test_no_call_of_any_function_fails_compilation_with_a_python_exception(place):
    """Whatever the arguments, compiling gives a clause or a typed SparkCepError: found by this
    sweep, a missing argument of substring, split_part, regexp_replace or max_by was a KeyError
    or an AttributeError, and sqlglot's builders of datediff(x, s, e) and date_trunc() raised a
    ValueError."""
    arguments = {"between rows": ["A.x + B.x", "B.s", "A.n", "3"], "one row": ["B.x", "B.s", "B.n", "3"],
                 "measures": ["A.x + B.x", "B.s", "A.n", "3"]}[place]
    crashed = []
    for name in _FUNCTION_NAMES:
        for count in range(5):
            call = f"{name}({', '.join(arguments[:count])})"
            clause = (f"MEASURES {call} AS m PATTERN (A B) DEFINE B AS B.x > 0" if place == "measures"
                      else f"MEASURES A.r AS m PATTERN (A B) DEFINE B AS {call} IS NULL")
            try:
                compile_statement(f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r {clause})")
            except SparkCepError:
                pass
            except Exception as error:  # noqa: BLE001 - any other exception is the failure
                crashed.append(f"{call}: {type(error).__name__}: {error}")
    assert not crashed, "\n".join(crashed[:20])
