"""The Spark and HiveServer2 settings ``sparkcep serve`` starts with (no Spark needed)."""

from __future__ import annotations

from pathlib import Path

from sparkcep.clients.server import ServerOptions, spark_settings

HIVE = "spark.hadoop."


def test_session_folders_stay_in_the_work_folder_and_per_session(tmp_path):
    settings = spark_settings(ServerOptions(), str(tmp_path))
    for key in ("hive.exec.scratchdir", "hive.exec.local.scratchdir",
                "hive.server2.logging.operation.log.location", "hive.downloaded.resources.dir"):
        assert Path(settings[HIVE + key]).is_relative_to(tmp_path), key
    # Hive deletes the downloaded-resources folder when a session closes
    # (SessionState.close): a folder shared by all sessions was removed under a session that was
    # opening at the same moment, and that OpenSession failed. Each session has its own.
    assert "${hive.session.id}" in settings[HIVE + "hive.downloaded.resources.dir"]
