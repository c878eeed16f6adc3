"""Subqueries in MEASURES and DEFINE that read the row pattern input without a qualifier.

A subquery there may not reference a row pattern variable (ISO/IEC 19075-5, 4.18.4 and 6.17.4);
a column reference without a qualifier is an implicit reference to the universal row pattern
variable (19075-5: in MEASURES and DEFINE, an unqualified column is qualified by the universal
row pattern variable), so an outer reference from inside the subquery to a column of the row
pattern input table, ``(SELECT max(w) FROM u WHERE u.k = k)`` with ``k`` a column of the
input and not of ``u``, is as correlated as ``u.k = B.k``. The compiler refuses the qualified
form (``compiler.scoping``); whether an unqualified name belongs to the subquery's own tables
or to the input needs the schema, so it is decided here, at registration: Spark analyses each
subquery alone (nothing runs). A name it cannot resolve there that is a column of the input is
an outer reference to the input: ``CORRELATED_SUBQUERY`` at that name. Any other failure is
left to Spark's analysis of the whole statement (a name of nothing, a CTE, a relation around the
clause), which reports it as usual.
"""

from __future__ import annotations

from sparkcep.errors import AnalysisError
from sparkcep.runtime.spark_errors import raw_errors


def check_outer_references(spark, match, input_columns, args=None) -> None:
    """Raise ``CORRELATED_SUBQUERY`` for the first subquery of ``match`` (``subquery_spans``) that
    reads a column of the input (``input_columns``) without resolving it itself."""
    known = {name.lower() for name in input_columns}
    for start, end in match.subquery_spans:
        prefix = match.probe_prefix
        query = prefix + match.source[start:end]
        try:
            with raw_errors():  # Spark's own error, with its query context in ``query``
                frame = spark.sql(query) if args is None else spark.sql(query, args)
                frame.schema  # noqa: B018 - analysis only
        except Exception as error:  # noqa: BLE001 - Spark's AnalysisException, or anything else
            found = _unresolved(error)
            if found is None:
                continue
            name, at = found
            if name.split(".")[-1].lower() not in known:
                continue  # not the input's: Spark's analysis of the statement reports it
            offset = start + at - len(prefix)
            if not start <= offset < end:
                offset = start
            raise AnalysisError.at_offset(
                "CORRELATED_SUBQUERY",
                f"a subquery in MEASURES or DEFINE cannot refer to '{name}', a column of the row "
                "pattern input table (in MEASURES and DEFINE, a reference to the universal row "
                "pattern variable): the subquery is evaluated independently of the match",
                match.source, offset, len(name)) from None


def _unresolved(error: Exception) -> tuple[str, int] | None:
    """The name (as written) and its offset in the analysed text, of Spark's UNRESOLVED_COLUMN."""
    get_condition = getattr(error, "getCondition", None) or getattr(error, "getErrorClass", None)
    try:
        condition = get_condition() if get_condition is not None else None
        contexts = list(error.getQueryContext() or ())
    except Exception:  # noqa: BLE001 - not a PySparkException
        return None
    if not condition or not condition.startswith("UNRESOLVED_COLUMN"):
        return None
    for context in contexts:
        try:
            fragment, start = context.fragment(), context.startIndex()
        except Exception:  # noqa: BLE001 - a DataFrame context has no indices
            continue
        if fragment and start >= 0:
            return fragment, start
    return None
