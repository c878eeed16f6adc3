"""``sparkcep.evaluation.json_functions`` and ``map_functions`` against Spark's recorded answers
(``json_answers.json``, written by ``record_json_answers.py``: designed JSON texts and paths,
Jackson's limits, and 6,000 random numbers written back), and what sparkcep refuses where
Spark's answer depends on the JVM (Java 17's ``Double.toString``, a stack overflow). The corpus
(``corpus.py``) checks the same functions through the whole evaluator, ANSI on and off."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation import json_functions as jf
from sparkcep.evaluation.binding import Semantics
from sparkcep.evaluation.map_functions import java_split, map_concat, str_to_map
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan.expressions import Constant
from tests.evaluation.harness import Refused, bound, lower

RECORDED = json.loads(Path(__file__).with_name("json_answers.json").read_text(encoding="utf-8"))


def _refused(function, *args) -> bool:
    try:
        function(*args)
    except MatchRuntimeError as error:
        assert error.code == "UNSUPPORTED_JSON_NUMBER", error
        return True
    return False


def test_get_json_object_gives_sparks_recorded_answers():
    """Every recorded case gives Spark's value or NULL, or is refused because it writes a DOUBLE
    whose digits Java 17 may print otherwise (``java_double``); the designed cases are all
    answered but those writing such a DOUBLE."""
    agreed = refused = 0
    bad = []
    for case in RECORDED["cases"]:
        try:
            mine = jf.get_json_object(case["json"], case["path"])
        except MatchRuntimeError as error:
            assert error.code == "UNSUPPORTED_JSON_NUMBER", error
            refused += 1
            continue
        if mine != case["get"]:
            bad.append(f"{case['json'][:80]!r} {case['path']!r}: Spark {case['get']!r}, sparkcep {mine!r}")
        else:
            agreed += 1
    print(f"\n{agreed} agree with Spark, {refused} refused (Java's Double.toString), {len(bad)} disagree")
    assert not bad, "\n".join(bad[:20])
    assert agreed >= 2500


def test_json_array_length_and_keys_give_sparks_recorded_answers():
    bad = []
    for case in RECORDED["cases"]:
        length, keys = jf.json_array_length(case["json"]), jf.json_object_keys(case["json"])
        if length != case["length"] or keys != case["keys"]:
            bad.append(f"{case['json'][:80]!r}: Spark {case['length']!r} {case['keys']!r}, sparkcep {length!r} {keys!r}")
    assert not bad, "\n".join(bad[:20])


def test_doubles_java_17_prints_otherwise_are_written_as_java_17_does():
    """Of the recorded numbers written back, those Java 17 prints with more digits than the
    shortest decimal are written with Java 17's digits (``java_double_text``) on the default
    Java version (17, Spark's when recorded), agreeing with Spark (above); with the Java
    version unknown they are refused, and only where 1e-7 <= |x| < 2^53 fails are numbers
    refused that Java 17 prints as the shortest decimal."""
    numbers = [c for c in RECORDED["cases"] if c["path"] in ("$.n", "$[0]") and c["json"][-2:-1].isdigit()
               and c["get"] is not None]
    written = differing = refused_alike = 0
    for case in numbers:
        value = float(case["get"].strip('"'))
        assert jf.get_json_object(case["json"], case["path"], 17) == case["get"], case
        refused = _refused(jf.get_json_object, case["json"], case["path"], None)
        written += not refused
        # Java 17 printed more digits than the shortest decimal: refused when the version is unknown
        shortest = len(repr(abs(value)).split("e")[0].replace(".", "").strip("0"))
        java = len(case["get"].lstrip("-").split("E")[0].replace(".", "").strip("0"))
        if math.isfinite(value) and value != 0 and java > shortest:
            differing += 1
            assert refused, case
        elif refused:
            refused_alike += 1
    print(f"\n{len(numbers)} numbers: {written} written as Spark with the Java version unknown, {differing} where "
          f"Java 17 prints more digits, {refused_alike} refused that Java 17 prints as the shortest decimal")
    assert written >= 2000 and differing >= 50


@pytest.mark.parametrize(("text", "expected"), [
    ("[1.5]", "[1.5]"), ("[1e2]", "[100.0]"), ("[1.0E15]", "[1.0E15]"), ("[1e-7]", "[1.0E-7]"), ("[0.001]", "[0.001]"),
    ("[-0.0]", "[-0.0]"), ("[1e400]", '["Infinity"]'), ("[1234567.5]", "[1234567.5]"), ("[12345678.5]", "[1.23456785E7]"),
])
def test_java_double_spelling(text, expected):
    """Java's ``Double.toString``: plain from 10^-3 to below 10^7, else scientific with at least
    one fraction digit (cases from Spark's answers in json_answers.json and the corpus)."""
    assert jf.get_json_object(text, "$") == expected


@pytest.mark.parametrize(("text", "java_17", "java_19"), [
    ("[2.1e22]", "[2.0999999999999998E22]", "[2.1E22]"), ("[4.9e-324]", "[4.9E-324]", "[4.9E-324]"),
    ("[9007199254740992.0]", "[9.007199254740992E15]", "[9.007199254740992E15]"), ("[1e16]", "[1.0E16]", "[1.0E16]"),
    ("[1e23]", "[9.999999999999999E22]", "[1.0E23]"), ("[1e-8]", "[1.0E-8]", "[1.0E-8]"),
])
def test_doubles_java_17_may_spell_otherwise_follow_the_java_version(text, java_17, java_19):
    assert jf.get_json_object(text, "$", 17) == java_17
    assert jf.get_json_object(text, "$", 21) == java_19
    with pytest.raises(MatchRuntimeError) as caught:
        jf.get_json_object(text, "$", None)
    assert caught.value.code == "UNSUPPORTED_JSON_NUMBER"


def test_flattening_deeper_than_the_bound_is_refused():
    """Spark flattens ``[*][*]`` by recursion: 500 levels answered, 1,000 overflow the JVM's stack
    (measured: the task fails with java.lang.StackOverflowError), so past MAX_FLATTENED_DEPTH
    sparkcep raises rather than answer."""
    depth = jf.MAX_FLATTENED_DEPTH  # the arrays flattened: the root's element and those inside it
    assert jf.get_json_object("[" * (depth + 1) + "1" + "]" * (depth + 1), "$[*][*]") == "[1]"
    with pytest.raises(MatchRuntimeError):
        jf.get_json_object("[" * (depth + 2) + "1" + "]" * (depth + 2), "$[*][*]")
    with pytest.raises(MatchRuntimeError) as caught:
        jf.get_json_object("[" * 1000 + "1" + "]" * 1000, "$[*][*]")
    assert caught.value.code == "JSON_NESTING_TOO_DEEP"


def test_paths_are_parsed_as_sparks_parser_does():
    assert jf.parse_path("$[ 1]") == [jf.SUBSCRIPT, ("index", 1)]
    assert jf.parse_path("$. a") == [jf.KEY, ("named", "a")]
    assert jf.parse_path("$.a ") == [jf.KEY, ("named", "a ")]
    assert jf.parse_path("$['a'] ") == [jf.KEY, ("named", "a")]
    for path in (" $.a", "$ .a", "$['a' ]", "$[1 ]", "a", "", "$..a", "$[-1]", "$[9223372036854775808]"):
        assert jf.parse_path(path) is None, path


def _lowered(qualified: str, types: list[str], semantics: Semantics = Semantics()):
    values = ValueColumns()
    expression = lower(qualified, values)
    return bound(expression, types, semantics), values.texts


def test_a_literal_path_is_read_from_the_statement_text():
    """sqlglot reads ``'a'`` as ``$.a`` and drops white space; the path is Spark's literal."""
    expression, texts = _lowered("get_json_object(A.s || B.s, 'a')", ["string"])
    assert expression.operands[1].value == "a"
    expression, _ = _lowered("get_json_object(A.s || B.s, '$[ 1]')", ["string"])
    assert expression.operands[1].value == "$[ 1]"
    with pytest.raises(AnalysisError) as caught:  # sparkcep's parser reads 'a''b' as two literals
        _lowered("get_json_object(A.s || B.s, '$[''a'']')", ["string"])
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"


def test_functions_of_one_row_are_computed_by_spark():
    """NULL for a NULL operand, so over one row they are pushed into the navigation."""
    _, texts = _lowered("get_json_object(A.s, '$.a')", ["string"])
    assert texts == ["((get_json_object(`s`, '$.a')))"]
    _, texts = _lowered("str_to_map(A.s)", ["string"])
    assert any("str_to_map" in t for t in texts)


@pytest.mark.parametrize(("qualified", "types"), [
    ("get_json_object(A.i + B.i, '$')", ["int"]),  # Spark casts no INT here (UNEXPECTED_INPUT_TYPE)
    ("json_array_length(A.i + B.i)", ["int"]),
    ("str_to_map(A.s || B.s, A.i)", ["string", "int"]),
    ("to_json(A.i + B.i)", ["int"]),  # not an array or a map
    ("map_concat(map(A.s, A.i), map(B.s, B.d))", ["string", "int", "double"]),  # values Spark casts
])
def test_refused_types(qualified, types):
    with pytest.raises(Refused) as caught:
        _lowered(qualified, types)
    assert caught.value.args[0] == "MATCH_DEPENDENT_TYPE_MISMATCH"


def test_to_json_with_options_is_refused():
    with pytest.raises(AnalysisError) as caught:
        _lowered("to_json(array(A.i, B.i), map('dateFormat', 'dd'))", ["int"])
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"


def test_last_win_keeps_the_first_place():
    """Under spark.sql.mapKeyDedupPolicy = LAST_WIN a later key's value replaces the earlier
    one's, in its place (the corpus runs EXCEPTION; test_json_spark.py runs LAST_WIN against
    Spark)."""
    assert str_to_map(True)("a:1,b:2,a:3") == [("a", "3"), ("b", "2")]
    with pytest.raises(MatchRuntimeError) as caught:
        str_to_map(False)("a:1,b:2,a:3")
    assert caught.value.code == "DUPLICATED_MAP_KEY"
    concat = map_concat(SqlType("double"), True)
    assert concat([(1.0, "a"), (-0.0, "b")], [(0.0, "c")]) == [(1.0, "a"), (0.0, "c")]


def test_java_split():
    """Java's ``String.split(regex, limit)`` (and Spark's split into characters by an empty
    pattern), as Spark's answers in the corpus show it."""
    assert java_split("a,b,,", ",", -1) == ["a", "b", "", ""]
    assert java_split(",a", ",", -1) == ["", "a"]
    assert java_split("ab", "x*", -1) == ["a", "b", ""]
    assert java_split("a1b", "", -1) == ["a", "1", "b"]
    assert java_split("a:1", "", 2) == ["a", ":1"]
    assert java_split("", "", -1) == [""]
    assert java_split("a::1", ":", 2) == ["a", ":1"]


@pytest.mark.parametrize("qualified", ["(size(map_concat(map(A.s, 1), map(B.s, 2))) IS NOT NULL)",
                                       "(size(map_concat(map('1', 1), map(A.s, 2))) IS NOT NULL)",
                                       "(map_concat(map(A.s, 1), map(B.s, 2)) IS NULL)"])
def test_map_concat_of_maps_is_never_null_as_spark_knows(qualified):
    """Spark folds IS [NOT] NULL over map_concat of map(...)s without building them (found by the
    random differential: Spark TRUE where the equal keys would raise DUPLICATED_MAP_KEY), also
    when a map(...) holds only one row's values or constants."""
    expression, _ = _lowered(qualified, ["string"])
    assert isinstance(expression, Constant) or (expression.name == "not" and isinstance(expression.operands[0], Constant))


@pytest.mark.parametrize("recorded", RECORDED["to_json_timestamps"], ids=lambda r: r["zone"])
def test_to_json_writes_timestamps_as_spark_in_each_zone(recorded):
    """yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session time zone: Z for a zero offset, the seconds
    of a local mean time's offset, milliseconds truncated (Spark's answers in json_answers.json;
    the corpus runs Europe/Berlin only)."""
    import datetime as dt

    instants = [dt.datetime.fromisoformat(t).replace(tzinfo=dt.timezone.utc) for t in recorded["utc"]]
    assert jf.to_json(SqlType("array<timestamp>"), recorded["zone"])(instants) == recorded["to_json"]
