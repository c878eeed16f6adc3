"""Which of Spark's functions sparkcep evaluates between rows of a match, measured from Spark's
own documentation: the inventory behind "Functions between rows in DEFINE" in docs/semantics.md.

    python -m tests.evaluation.inventory_of_functions [--json FILE] [NAME ...]

For every function Spark 4.3 lists (``SHOW FUNCTIONS``) that is not an aggregate, a window or a
table function, each example of ``DESCRIBE FUNCTION EXTENDED`` (``> SELECT f(a, b);``) is run
once per argument position i, through a MATCH_RECOGNIZE over two rows, with argument i made to
depend on both rows (``IF(A.both AND B.both, a_i, a_i)``, which is ``a_i`` on every row):

    DEFINE B AS f(a_1, ..., IF(A.both AND B.both, a_i, a_i), ...) <=> f(a_1, ..., a_n)

The right side is a constant Spark computes; the left side is what sparkcep evaluates between
rows. One match means sparkcep's value equals Spark's (``<=>``: NULLs equal; a MAP is compared by
its keys and values). A position where Spark itself requires a constant (Spark refuses the
query ``SELECT f(..., IF(both, a_i, a_i), ...)``) is skipped. Each function is then one of:

* ``agrees``: every example and position run gave Spark's value;
* ``DIFFERS``: some gave another value (a defect: the output names it);
* ``partly``: some runs agreed and sparkcep refused the others with a typed error;
* ``refused``: sparkcep refuses every run between rows with a typed error (codes shown);
* ``constant only``: Spark requires constants in every position tried;
* ``no example``: no example could be run.

Takes about 15 minutes on a quiet 2-core machine (one Spark session, local[1]).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter

from sparkcep.compiler.lowering import _call_arguments

TABLE = "sparkcep_inventory_rows"
SKIPPED_CLASSES = (".aggregate.", "WindowExpression", ".window.", "Generator", "TableFunction")


def examples_of(name: str, description: str) -> list[list[str]]:
    """The argument lists of the examples that are one call of ``name`` and nothing else."""
    calls = []
    for text in re.findall(r"> SELECT (.*?);", description, re.S):
        call = text.strip()
        spans = _call_arguments(call, (0, len(call)))  # the rewrite's own splitting at top-level commas
        if not re.match(rf"{re.escape(name)}\s*\(", call, re.I) or not spans:
            continue
        arguments = [call[a:b] for a, b in spans]
        if arguments and all("->" not in a for a in arguments):
            calls.append(arguments)
    return calls


def _equal(left: str, right: str, result_type: str) -> str:
    if result_type.startswith("map<"):
        return (f"(map_keys({left}) <=> map_keys({right}) AND "
                f"map_values({left}) <=> map_values({right}))")
    return f"(({left}) <=> ({right}))"


def measure(spark, name: str, description: str) -> tuple[str, list[str]]:
    """(outcome, details) of one function."""
    import sparkcep
    from sparkcep.errors import SparkCepError

    notes, outcomes = [], []
    for arguments in examples_of(name, description):
        call = f"{name}({', '.join(arguments)})"
        try:
            result_type = spark.sql(f"SELECT typeof({call})").first()[0]
        except Exception:  # noqa: BLE001 - an example Spark cannot run here (a missing table, ...)
            continue
        for i, argument in enumerate(arguments):
            varying = arguments[:i] + [f"IF(A.both AND B.both, {argument}, {argument})"] + arguments[i + 1:]
            per_row = arguments[:i] + [f"IF(both, {argument}, {argument})"] + arguments[i + 1:]
            try:
                spark.sql(f"SELECT {name}({', '.join(per_row)}) FROM {TABLE}").collect()
            except Exception:  # noqa: BLE001 - Spark requires a constant at position i
                outcomes.append("constant")
                continue
            condition = _equal(f"{name}({', '.join(varying)})", call, result_type)
            query = (f"SELECT * FROM {TABLE} MATCH_RECOGNIZE (ORDER BY i MEASURES A.i AS first_row "
                     f"ONE ROW PER MATCH PATTERN (A B) DEFINE B AS {condition})")
            try:
                rows = sparkcep.sql(spark, query).collect()
            except SparkCepError as error:
                outcomes.append("refused:" + error.code)
                notes.append(f"{call} at argument {i + 1}: {str(error).splitlines()[0][:160]}")
                continue
            except Exception as error:  # noqa: BLE001 - reported, not hidden
                outcomes.append("raised")
                notes.append(f"{call} at argument {i + 1}: {type(error).__name__}: {str(error).splitlines()[0][:160]}")
                continue
            outcomes.append("agrees" if len(rows) == 1 else "DIFFERS")
            if len(rows) != 1:
                notes.append(f"{call} at argument {i + 1}: sparkcep's value is not Spark's")
    runs = [o for o in outcomes if o != "constant"]
    if not outcomes:
        return "no example", notes
    if "DIFFERS" in runs or "raised" in runs:
        return "DIFFERS", notes
    if not runs:
        return "constant only", notes
    agreeing = runs.count("agrees")
    refused = sorted({o.removeprefix("refused:") for o in runs if o.startswith("refused:")})
    if agreeing == len(runs):
        return "agrees", notes
    if agreeing:
        return f"partly ({agreeing} of {len(runs)} runs agree; refused: {', '.join(refused)})", notes
    return f"refused ({', '.join(refused)})", notes


def main(argv: list[str]) -> int:
    import sparkcep

    out_file = None
    if argv[:1] == ["--json"]:
        out_file, argv = argv[1], argv[2:]
    spark = sparkcep.local_session("local[1]", spark_executor_pyspark_memory="1g")
    try:
        spark.sql(f"CREATE OR REPLACE TEMP VIEW {TABLE} AS "
                  "SELECT * FROM VALUES (1, true), (2, true) AS t(i, both)")
        names = argv or sorted(r[0] for r in spark.sql("SHOW FUNCTIONS").collect()
                               if re.fullmatch(r"[a-z_][a-z_0-9]*", r[0]))
        report = {}
        for name in names:
            description = " ".join(r[0] for r in spark.sql(f"DESCRIBE FUNCTION EXTENDED `{name}`").collect())
            kind = re.search(r"Class: (\S+)", description)
            if kind and any(part in kind.group(1) for part in SKIPPED_CLASSES):
                continue
            outcome, notes = measure(spark, name, description)
            report[name] = {"outcome": outcome, "notes": notes}
            print(f"{name:32} {outcome}", flush=True)
            for note in notes:
                print(f"    {note}", flush=True)
    finally:
        spark.stop()
    counts = Counter(v["outcome"].split(" ")[0] for v in report.values())
    print(", ".join(f"{k}: {n}" for k, n in counts.most_common()))
    if out_file:
        with open(out_file, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    return 1 if counts.get("DIFFERS") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
