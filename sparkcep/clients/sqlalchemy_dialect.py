"""A SQLAlchemy dialect for Spark's Thrift server (``sparkcep serve``): PyHive's Hive dialect with
Spark's catalog listings read right.

PyHive's ``get_table_names`` takes the first column of ``SHOW TABLES`` as the table name. Hive
answers one column (``tab_name``); Spark answers ``namespace, tableName, isTemporary``, so every
table is listed under its database's name (and a temp view under an empty one). Table browsers
built on SQLAlchemy's inspector (Superset's SQL Lab and its dataset editor) then list nothing
usable. This dialect reads the table name from the column Spark names it, keeps only the rows of
the database asked for (a temp view has none: ``DESCRIBE default.NAME`` would not find it), and
does the same for ``SHOW VIEWS`` (whose names it leaves out of the table names, as SQLAlchemy
asks); Hive's one-column answers are read as before. ``DESCRIBE``
of a missing table is ``NoSuchTableError`` (``has_table``), as with Hive.

It imports only SQLAlchemy and PyHive (``pip install 'sparkcep[clients]'``), so it also works
where sparkcep itself is not installed: Superset pins another sqlglot, and its configuration
registers this file under the name ``hive`` (``examples/superset/superset_config.py``). Installed
with sparkcep, it is the SQLAlchemy dialect ``hive.sparkcep``: URI
``hive+sparkcep://USER@HOST:10000/default``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pyhive.sqlalchemy_hive import HiveDialect
from sqlalchemy import exc, text


def listed_names(rows: Iterable[Sequence], schema: str | None) -> list[str]:
    """The names in ``SHOW TABLES [IN schema]`` or ``SHOW VIEWS [IN schema]`` rows: Spark's
    ``(namespace, name, isTemporary)`` rows of ``schema`` (all catalog rows when ``schema`` is
    None; never temp views, whose namespace is empty), or Hive's one-column ``(name,)`` rows."""
    names = []
    for row in rows:
        if len(row) == 1:  # Hive: tab_name
            names.append(row[0])
            continue
        namespace, name = row[0], row[1]
        if not namespace:  # a temp view: no database holds it
            continue
        if schema is None or namespace.lower() == schema.lower():
            names.append(name)
    return names


def is_missing_table(message: str) -> bool:
    """Whether ``message`` (a failed ``DESCRIBE``) says the table does not exist, in Spark's words."""
    return "[TABLE_OR_VIEW_NOT_FOUND]" in message


class SparkHiveDialect(HiveDialect):
    """PyHive's Hive dialect, reading Spark's ``SHOW TABLES`` and ``SHOW VIEWS`` answers."""

    name = "hive"
    driver = "sparkcep"
    supports_statement_cache = False  # as PyHive's

    @classmethod
    def import_dbapi(cls):  # SQLAlchemy 2's name for PyHive's dbapi()
        return cls.dbapi()

    def _listing(self, connection, command: str, schema: str | None) -> list[str]:
        query = command
        if schema:
            query += " IN " + self.identifier_preparer.quote_identifier(schema)
        return listed_names(connection.execute(text(query)).fetchall(), schema)

    def get_table_names(self, connection, schema=None, **kw):
        # Spark's SHOW TABLES lists views too; SQLAlchemy's table names are tables only
        views = set(self.get_view_names(connection, schema))
        return [name for name in self._listing(connection, "SHOW TABLES", schema) if name not in views]

    def get_view_names(self, connection, schema=None, **kw):
        return self._listing(connection, "SHOW VIEWS", schema)

    def _get_table_columns(self, connection, table_name, schema):
        try:
            return super()._get_table_columns(connection, table_name, schema)
        except exc.OperationalError as error:
            if is_missing_table(str(error)):
                raise exc.NoSuchTableError(f"{schema}.{table_name}" if schema else table_name) from error
            raise
