"""The settings of the sessions sparkcep starts (no Spark: the JVM's launch is intercepted)."""

from __future__ import annotations

from click.testing import CliRunner

from sparkcep.clients import session
from sparkcep.clients.cli import main


def _started(monkeypatch) -> list[dict]:
    seen: list[dict] = []

    def start(master, app_name, settings):
        seen.append(settings)
        raise SystemExit(0)  # stop before Spark

    monkeypatch.setattr(session, "_start", start)
    return seen


def _stream_query(tmp_path) -> None:
    """A streaming statement in ``q.sql`` over one JSON file in ``in``."""
    (tmp_path / "q.sql").write_text(
        "SELECT * FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL '1' SECOND MATCH_RECOGNIZE ("
        " ORDER BY ts MEASURES A.v AS v PATTERN (A) WITHIN INTERVAL '1' MINUTE"
        " DEFINE A AS A.v > 0)")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part-0.json").write_text('{"ts": "2026-01-01 00:00:00", "v": 1}\n')


def test_a_session_for_streams_compiles_with_the_quick_jit_only(monkeypatch):
    seen = _started(monkeypatch)
    for streaming in (False, True):
        try:
            session.local_session("local[1]", streaming=streaming,
                                  spark_driver_extraJavaOptions="-Dmine=1")
        except SystemExit:
            pass
    plain, streams = seen
    assert "TieredStopAtLevel" not in plain["spark.driver.extraJavaOptions"]
    assert streams["spark.driver.extraJavaOptions"] == "-Dmine=1 -XX:TieredStopAtLevel=1"
    assert streams["spark.executor.extraJavaOptions"] == "-XX:TieredStopAtLevel=1"
    # the checkpoint's FileContext writes without checksum files; FileSystem stays checksummed
    file_context = "spark.hadoop.fs.AbstractFileSystem.file.impl"
    assert streams[file_context] == "org.apache.hadoop.fs.local.RawLocalFs"
    assert file_context not in plain
    assert not any(key.startswith("spark.hadoop.fs.file.impl") for key in streams)


def test_a_file_system_setting_of_the_caller_wins():
    mine = {"spark.hadoop.fs.AbstractFileSystem.file.impl": "org.example.MyFs"}
    assert session.for_streams(mine) == {**mine, "spark.driver.extraJavaOptions":
                                         "-XX:TieredStopAtLevel=1",
                                         "spark.executor.extraJavaOptions": "-XX:TieredStopAtLevel=1"}


def test_a_jit_setting_of_the_caller_wins():
    mine = {"spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=4"}
    assert session.for_streams(mine)["spark.driver.extraJavaOptions"] == "-XX:TieredStopAtLevel=4"


def test_sparkcep_stream_starts_its_session_for_streams(monkeypatch, tmp_path):
    seen = _started(monkeypatch)
    _stream_query(tmp_path)
    CliRunner().invoke(main, ["stream", str(tmp_path / "q.sql"), "--source",
                              f"t={tmp_path / 'in'}", "--quiet"])
    assert len(seen) == 1
    assert "-XX:TieredStopAtLevel=1" in seen[0]["spark.driver.extraJavaOptions"]


def test_sparkcep_stream_sets_the_exchange_asked_for(monkeypatch, tmp_path):
    seen = _started(monkeypatch)
    _stream_query(tmp_path)
    for asked in ([], ["--exchange", "pandas"]):
        CliRunner().invoke(main, ["stream", str(tmp_path / "q.sql"), "--source",
                                  f"t={tmp_path / 'in'}", "--quiet", *asked])
    assert [s["spark.sparkcep.streamExchange"] for s in seen] == ["rows", "pandas"]
