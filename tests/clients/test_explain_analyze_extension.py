"""EXPLAIN ANALYZE through plain ``spark.sql`` on a session with the parser extension (a fresh JVM
in a subprocess): the report's rows, and a mistake as Spark's ParseException carrying sparkcep's
code and position."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from clients_support import child_env

pytestmark = pytest.mark.spark

WRONG = ("EXPLAIN ANALYZE SELECT * FROM prices MATCH_RECOGNIZE (PARTITION BY s ORDER BY k "
         "MEASURES COUNT(*) AS n PATTERN (A) DEFINE A AS A.price > 1) FOR PARTITION (x = 1)")

SCRIPT = textwrap.dedent('''
    import json, sys
    import sparkcep
    spark = sparkcep.extension_session("local[2]", conf={"spark.executor.pyspark.memory": "1g"})
    out = {}
    try:
        spark.createDataFrame([("a", i, p) for i, p in enumerate([10, 11, 12, 13, 9, 14])],
                              "s STRING, k INT, price INT").createOrReplaceTempView("prices")
        frame = spark.sql("""EXPLAIN ANALYZE SELECT * FROM prices MATCH_RECOGNIZE (
          PARTITION BY s ORDER BY k MEASURES COUNT(*) AS n
          PATTERN (S UP+ TOP) DEFINE UP AS UP.price > PREV(UP.price), TOP AS TOP.price > 100)""")
        out["columns"] = frame.columns
        out["rows"] = [list(r) for r in frame.collect()]
        try:
            spark.sql(sys.argv[2])
        except Exception as error:
            out["error"] = [type(error).__name__, str(error).splitlines()[0]]
    finally:
        spark.stop()
    open(sys.argv[1], "w").write(json.dumps(out))
''')


def test_explain_analyze_with_the_parser_extension(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    out = tmp_path / "out.json"
    result = subprocess.run([sys.executable, str(script), str(out), WRONG], capture_output=True,
                            text=True, env=child_env(), timeout=600, cwd=tmp_path,
                            start_new_session=True)
    assert result.returncode == 0, result.stderr[-4000:]
    found = json.loads(out.read_text())
    assert found["columns"] == ["clause", "section", "subject", "metric", "value", "detail"]
    rows = found["rows"]
    assert [0, "statement", "result", "rows", 0, "rows the query returned"] in rows
    assert any(r[1] == "variable" and r[2] == "TOP" and r[3] == "never_satisfied" for r in rows)
    assert [1, "miss", "s = 'a'", "define", None,
            "UP AS UP.price > PREV(UP.price) was false: UP.price = 9, PREV(UP.price) = 13"] in rows
    name, first = found["error"]
    assert name == "ParseException" and first.startswith("[UNKNOWN_PARTITION_COLUMN] ")
    assert first.endswith(f"(line 1, column {WRONG.index('x = 1') + 1})")
