"""Rules about the statement around MATCH_RECOGNIZE clauses (checked before compiling them).

A clause runs as a table function registered in the current Spark session (a temporary
function). Spark does not let a permanent view refer to a temporary function, so
``CREATE VIEW ... MATCH_RECOGNIZE`` would fail with Spark's message about an internal function
name; it is refused here, at the VIEW keyword, saying what works instead.
"""

from __future__ import annotations

import re

from sqlglot import exp

from sparkcep import dialect
from sparkcep.errors import AnalysisError


def check_statement(text: str) -> None:
    """Raise the typed error for a statement shape sparkcep cannot run (see the module)."""
    if not dialect.contains_match_recognize(text):
        return
    tree = dialect.parse_one(text)
    if not isinstance(tree, exp.Create) or str(tree.args.get("kind") or "").upper() != "VIEW":
        return
    properties = tree.args.get("properties")
    kinds = {type(p) for p in (properties.expressions if properties is not None else [])}
    if exp.TemporaryProperty in kinds:
        return
    found = re.search(r"\bVIEW\b", text, re.IGNORECASE)
    message = ("a permanent view cannot contain MATCH_RECOGNIZE: the clause runs as a function "
               "registered in this session only; use CREATE TEMPORARY VIEW, or save the result "
               "as a table (CREATE TABLE ... AS SELECT)")
    if found is None:
        raise AnalysisError("PERMANENT_VIEW_WITH_MATCH_RECOGNIZE", message)
    raise AnalysisError.at_offset("PERMANENT_VIEW_WITH_MATCH_RECOGNIZE", message, text,
                                  found.start(), len("VIEW"))
