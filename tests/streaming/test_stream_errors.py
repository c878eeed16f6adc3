"""A running stream's failure reaches the user as the typed error (docs/streaming.md, "Errors"):
the error an executor raised (``INVALID_UNCERTAIN_INTERVAL`` here, a row with lo after hi), the
same error raised inside a ``foreachBatch`` function (the user's, or the late-row writer of
``sparkcep.start_stream``), and any other failure as
``STREAM_FAILED`` with its cause on the first line; ``sparkcep stream`` prints that line first
and exits with status 2, without a traceback."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

import sparkcep
from sparkcep.clients.cli import main
from sparkcep.errors import MatchRuntimeError, SparkCepError, for_worker
from sparkcep.runtime.spark_errors import stream_failure

STATEMENT = """SELECT * FROM STREAM(sparkcep_test_bad) WATERMARK lo DELAY OF INTERVAL 5 SECONDS
MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY lo
  MEASURES COUNT(*) AS c
  SKIP TILL ANY MATCH
  PATTERN (A B) WITHIN INTERVAL '1' MINUTE
  UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '1' SECOND
  DEFINE B AS B.v > A.v)"""
ROWS = [{"k": "x", "lo": "2026-01-01T00:00:00Z", "hi": "2026-01-01T00:00:05Z", "v": 1},
        {"k": "x", "lo": "2026-01-01T00:00:03Z", "hi": "2026-01-01T00:00:01Z", "v": 2},
        {"k": "y", "lo": "2026-01-01T01:00:00Z", "hi": "2026-01-01T01:00:01Z", "v": 1}]
FIRST_LINE = ("[INVALID_UNCERTAIN_INTERVAL] a row's UNCERTAIN TIME interval is empty: "
              "lo (2026-01-01 00:00:03+00:00) is after hi (2026-01-01 00:00:01+00:00) "
              "(line 7, column 3)")


# -- without Spark: the texts PySpark's exceptions carry --------------------------------------


def _typed():
    return MatchRuntimeError.at_offset("MATCH_BUDGET_EXCEEDED", "needed more than 2 live runs",
                                       STATEMENT, STATEMENT.index("PATTERN"), len("PATTERN"))


def test_marked_worker_error_is_recovered():
    text = ("[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: "
            "[PYTHON_EXCEPTION] Traceback (most recent call last):\n  File \"w.py\"\n"
            + str(for_worker(_typed()).args[0]) + "\n SQLSTATE: 38000")
    found = stream_failure(Exception(text))
    assert str(found) == str(_typed())


def test_printed_error_from_a_foreach_batch_function_is_recovered():
    text = ("[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: "
            "[FOREACH_BATCH_USER_FUNCTION_ERROR] An error occurred. Return Message: Traceback "
            "(most recent call last):\n  File \"f.py\", line 3, in f\n    rows = batch.collect()\n"
            f"sparkcep.errors.MatchRuntimeError: {_typed()}\n\tat org.apache.Foo(Foo.scala:1)")
    found = stream_failure(Exception(text), STATEMENT)
    assert type(found) is MatchRuntimeError
    assert str(found) == str(_typed())  # code, message, position and caret length


def test_a_python_failure_is_stream_failed_with_its_cause_first():
    text = ("[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: "
            "[PYTHON_EXCEPTION] An exception was thrown from the Python worker: Traceback (most "
            "recent call last):\n  File \"w.py\", line 1, in f\n    g()\nValueError: boom\n"
            " SQLSTATE: 38000\n\tat org.apache.spark.api.python.PythonException: x")
    found = stream_failure(Exception(text), STATEMENT)
    first = str(found).splitlines()[0]
    assert first == ("[STREAM_FAILED] the streaming query stopped: Python raised ValueError: boom "
                     "(line 2, column 1)")
    assert str(found).splitlines()[2] == "^" * len("MATCH_RECOGNIZE")


def test_another_failure_is_stream_failed_without_query_ids():
    text = ("[STREAM_FAILED] Query [id = 1a, runId = 2b] terminated with exception: "
            "[PATH_NOT_FOUND] Path does not exist: file:/x. SQLSTATE: 42K03\n\tat a.b(C.java:1)")
    found = stream_failure(Exception(text))
    assert str(found) == "[STREAM_FAILED] the streaming query stopped: Path does not exist: file:/x."



def test_a_checkpoint_of_state_format_2_is_refused_with_what_to_do():
    """Resumed over a checkpoint of sparkcep 0.x's state formats 1 or 2 (three state variables,
    the counters five BIGINTs), Spark refuses the one variable of format 3 for its value schema
    (seen with a checkpoint written by format 2 and resumed: this is Spark's message, shortened);
    the user gets sparkcep's error with what to do, not Spark's advice to turn its check off."""
    text = ("[STREAM_FAILED] Query [id = 5, runId = 6] terminated with exception: "
            "[STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE] Provided value schema does not match "
            "existing state value schema.\nPlease check number and type of fields.\nExisting "
            "value_schema=StructType(StructField(released,LongType,true),StructField(last_key,"
            "LongType,true),StructField(matches,LongType,true),StructField(segment_base,LongType,"
            "true),StructField(late,LongType,true)) and new value_schema=StructType(StructField("
            "state,BinaryType,true)).\nIf you want to force running the query without schema "
            "validation, please set spark.sql.streaming.stateStore.stateSchemaCheck to false.")
    found = stream_failure(Exception(text), STATEMENT)
    assert found.code == "STREAM_STATE_INCOMPATIBLE"
    assert "state format 1 or 2" in found.message and "new checkpoint location" in found.message
    another = text.replace("released,LongType", "count,LongType")  # not sparkcep's state
    assert stream_failure(Exception(another), STATEMENT).code == "STREAM_FAILED"

def test_a_checkpoint_of_the_other_exchange_is_refused_with_what_to_do():
    """A checkpoint written when the clause's operator received Rows (``transformWithState``),
    resumed now that it receives pandas DataFrames (``runtime.stream_exchange``): Spark refuses
    the changed operator (seen with a checkpoint written at 7eb96e3 and resumed: Spark's message,
    shortened); the user gets sparkcep's error with what to do."""
    text = ("[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: "
            "[STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA] Streaming stateful "
            "operator name does not match with the operator in state metadata. This likely to "
            "happen when user adds/removes/changes stateful operator of existing streaming "
            "query.\nStateful operators in the metadata: [(OperatorId: 0 -> OperatorName: "
            "transformWithStateInPySparkExec)]; Stateful operators in current batch: "
            "[(OperatorId: 0 -> OperatorName: transformWithStateInPandasExec)]. SQLSTATE: ")
    found = stream_failure(Exception(text), STATEMENT)
    assert found.code == "STREAM_STATE_INCOMPATIBLE"
    assert "received the rows another way" in found.message
    assert "new checkpoint location" in found.message
    another = text.replace("transformWithStateInPySparkExec", "stateStoreSave")  # the user's
    assert stream_failure(Exception(another), STATEMENT).code == "STREAM_FAILED"


# -- with Spark: real streams that fail ----------------------------------------------------------


def _source(tmp_path, spark):
    folder = tmp_path / "bad"
    folder.mkdir()
    with open(folder / "part-0.json", "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in ROWS)
    (spark.readStream.schema("k STRING, lo TIMESTAMP, hi TIMESTAMP, v BIGINT").json(str(folder))
     .createOrReplaceTempView("sparkcep_test_bad"))
    return folder


@pytest.mark.spark
@pytest.mark.streaming
def test_a_failing_stream_raises_the_typed_error(spark, tmp_path):
    """Each query runs alone, started after the one before has stopped: several streaming
    queries starting their Python workers at once on a loaded 2-core machine can exceed Spark's
    fixed 10 s for a worker to connect back, which is not what this test is about."""
    _source(tmp_path, spark)

    def show(batch, batch_id):  # a foreachBatch function that reads the matches
        batch.collect()

    def fail(batch, batch_id):  # a Python failure that is not sparkcep's
        raise ValueError(f"no sink for batch {batch_id}")

    def run(start, check):
        query = start()
        try:
            check(query)
        finally:
            query.stop()

    frame = sparkcep.sql(spark, STATEMENT)

    def executor_error(query):  # through processAllAvailable, await_stream and query_error
        with pytest.raises(MatchRuntimeError) as caught:
            query.processAllAvailable()
        assert str(caught.value).splitlines()[0] == FIRST_LINE
        with pytest.raises(MatchRuntimeError) as caught:
            sparkcep.await_stream(query)
        assert str(caught.value).splitlines()[0] == FIRST_LINE
        assert str(sparkcep.query_error(query)).splitlines()[0] == FIRST_LINE

    run(lambda: frame.writeStream.format("memory").queryName("sparkcep_test_bad_out")
        .option("checkpointLocation", str(tmp_path / "c1")).start(), executor_error)

    def raised_in_foreach_batch(query):  # the same typed error
        with pytest.raises(SparkCepError) as caught:
            sparkcep.await_stream(query, sql=STATEMENT)
        assert str(caught.value).splitlines()[0] == FIRST_LINE

    run(lambda: frame.writeStream.foreachBatch(show)
        .option("checkpointLocation", str(tmp_path / "c2")).start(), raised_in_foreach_batch)

    def other_failure(query):  # STREAM_FAILED, the cause on the first line
        with pytest.raises(SparkCepError) as caught:
            sparkcep.await_stream(query, sql=STATEMENT)
        assert caught.value.code == "STREAM_FAILED"
        assert str(caught.value).splitlines()[0] == (
            "[STREAM_FAILED] the streaming query stopped: Python raised ValueError: no sink for "
            "batch 0 (line 2, column 1)")
        assert sparkcep.query_error(query).code == "STREAM_FAILED"
        assert sparkcep.query_error(query.exception(), STATEMENT).line == 2

    run(lambda: sparkcep.sql(spark, STATEMENT.replace("v > A.v", "v < A.v"))
        .writeStream.foreachBatch(fail).option("checkpointLocation", str(tmp_path / "c3"))
        .start(), other_failure)
    # late rows routed: sparkcep's own foreachBatch writer
    run(lambda: sparkcep.start_stream(spark, STATEMENT, checkpoint=str(tmp_path / "c4"),
                                      late_rows=str(tmp_path / "late"),
                                      on_matches=lambda rows: None), raised_in_foreach_batch)


@pytest.mark.spark
@pytest.mark.streaming
def test_sparkcep_stream_prints_the_typed_error_first(spark, tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    lines = [f"{r['k']},{r['lo']},{r['hi']},{r['v']}" for r in ROWS]
    (folder / "part-0.csv").write_text("\n".join(["k,lo,hi,v", *lines]) + "\n")
    (folder / "part.schema").write_text("k STRING, lo TIMESTAMP, hi TIMESTAMP, v BIGINT")
    text = STATEMENT.replace("STREAM(sparkcep_test_bad)", "STREAM(ev)")
    result = CliRunner().invoke(main, ["stream", "-e", text, "-s", f"ev={folder}", "--until-idle",
                                       "--checkpoint", str(tmp_path / "checkpoint")])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if not line.startswith("sparkcep: ")]
    assert errors[0] == FIRST_LINE
    assert "Traceback" not in result.output and "\tat " not in result.output
    assert os.listdir(tmp_path / "checkpoint")
