"""sparkcep.clients.sqlalchemy_dialect (``hive+sparkcep://``) against recorded answers of Spark's
Thrift server (``sparkcep serve``, Spark 4): no Spark here, a fake connection replays the rows.

The rows are what the server answered for a catalog table ``ticks`` (how ``serve -t`` registers
tables), a persistent view ``pv`` and a temp view ``tmp``; PyHive's own dialect reads the first
column and lists ``default``/``''`` instead of the names.
"""

from __future__ import annotations

import pytest
import sqlalchemy
from pyhive.sqlalchemy_hive import HiveDialect
from sqlalchemy import exc

from sparkcep.clients.sqlalchemy_dialect import SparkHiveDialect, listed_names

# (namespace, tableName, isTemporary) and (namespace, viewName, isTemporary), as fetched by PyHive
SHOW_TABLES_IN_DEFAULT = [("default", "pv", False), ("default", "ticks", False), ("", "tmp", True)]
SHOW_VIEWS_IN_DEFAULT = [("default", "pv", False), ("", "tmp", True)]
SHOW_TABLES_IN_OTHER = [("other", "pv", False), ("", "tmp", True)]
DESCRIBE_MISSING = ("TExecuteStatementResp(status=TStatus(statusCode=3, errorMessage="
                    "\"[TABLE_OR_VIEW_NOT_FOUND] The table or view `default`.`nope` cannot be found.")


class Replay:
    """A connection answering each statement with recorded rows (or raising a recorded error)."""

    def __init__(self, answers: dict[str, list | Exception]) -> None:
        self.answers = answers
        self.sent: list[str] = []

    def execute(self, statement):
        self.sent.append(str(statement))
        answer = self.answers[str(statement)]
        if isinstance(answer, Exception):
            raise answer
        return self

    def fetchall(self):
        return self.answers[self.sent[-1]]

    def __iter__(self):
        return iter(self.fetchall())


def test_the_dialect_is_registered_as_hive_sparkcep():
    engine = sqlalchemy.create_engine("hive+sparkcep://me@127.0.0.1:10000/default")
    assert isinstance(engine.dialect, SparkHiveDialect)
    assert isinstance(engine.dialect, HiveDialect)


def test_table_names_are_the_second_column_of_the_schema_asked_for():
    replay = Replay({"SHOW TABLES IN `default`": SHOW_TABLES_IN_DEFAULT,
                     "SHOW VIEWS IN `default`": SHOW_VIEWS_IN_DEFAULT})
    dialect = SparkHiveDialect()
    assert dialect.get_table_names(replay, schema="default") == ["ticks"]
    assert dialect.get_view_names(replay, schema="default") == ["pv"]
    # what PyHive's own dialect makes of the same rows: the database as the name
    assert HiveDialect().get_table_names(replay, schema="default") == ["default", "default", ""]


def test_listed_names():
    assert listed_names(SHOW_TABLES_IN_OTHER, "other") == ["pv"]
    assert listed_names(SHOW_TABLES_IN_OTHER, "OTHER") == ["pv"]  # Spark's names ignore case
    assert listed_names(SHOW_TABLES_IN_DEFAULT, None) == ["pv", "ticks"]
    assert listed_names(SHOW_TABLES_IN_DEFAULT, "other") == []
    assert listed_names([("ticks",), ("pv",)], "default") == ["ticks", "pv"]  # Hive's tab_name
    assert listed_names([], "default") == []


def test_describe_of_a_missing_table_is_no_such_table():
    error = exc.OperationalError("DESCRIBE default.nope", {}, Exception(DESCRIBE_MISSING))
    replay = Replay({"DESCRIBE default.nope": error,
                     "DESCRIBE default.broken": exc.OperationalError("x", {}, Exception("[OTHER] no"))})
    dialect = SparkHiveDialect()
    assert not dialect.has_table(replay, "nope", schema="default")
    with pytest.raises(exc.OperationalError):
        dialect.has_table(replay, "broken", schema="default")
