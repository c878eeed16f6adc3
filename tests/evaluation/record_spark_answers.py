"""Record Spark's answers for the fixed corpus (``corpus.py``) in ``spark_answers.json``, so that
the quick suite checks sparkcep's Python evaluator against Spark without starting Spark
(``test_recorded_spark_answers.py``). Rerun after changing the corpus or moving to another Spark
version, and review the difference like any golden file:

    python -m tests.evaluation.record_spark_answers

After appending expressions (or PAIRED columns for them) to the corpus, ``--new`` asks Spark
only about the expressions the file lacks, and those it lists as refused that sparkcep accepts
now, and keeps every other answer (the same Spark version only): seconds instead of the whole rerun's minutes, and the same file as a whole rerun.

Every answer is Spark's: values over all rows in one query per ANSI setting, and each row where
Python raised asked of Spark on its own (see ``spark_oracle``). ``test_spark_differential.py``
checks that a live Spark still gives the recorded answers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pyspark

import sparkcep
from sparkcep.evaluation.binding import Semantics
from tests.evaluation import corpus
from tests.evaluation.spark_oracle import MISSING, answer, encode

OUTPUT = Path(__file__).with_name("spark_answers.json")


def record(spark, ansi: bool, expressions: list[tuple[str, str]]) -> dict:
    spark.conf.set("spark.sql.codegen.wholeStage", "false")
    spark.conf.set("spark.sql.subexpressionElimination.enabled", "false")
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    spark.conf.set("spark.sql.session.timeZone", corpus.ZONE)
    spark.sql(corpus.table_sql()).localCheckpoint().createOrReplaceTempView("sparkcep_corpus")
    semantics = Semantics(ansi=ansi, time_zone=corpus.ZONE)
    batch = answer(spark, "sparkcep_corpus", corpus.ROWS, expressions, semantics)
    columns: dict = {}
    cases = []
    for case in batch.cases:
        for c, text in enumerate(case.texts):
            if text is not None and text not in columns:
                columns[text] = {"type": case.column_types[c], "values": [encode(row[c]) for row in case.rows]}
        assert MISSING not in case.answers
        cases.append({"expression": case.qualified, "answers": [encode(a) for a in case.answers]})
    print(f"ANSI={ansi}: {len(cases)} expressions recorded, {len(batch.refused)} refused, "
          f"{len(batch.value_failed)} failing in Spark's value columns; queries {batch.queries}")
    return {"columns": columns, "refused": sorted(batch.refused), "value_failed": sorted(batch.value_failed),
            "cases": cases}


def _dump(data: dict) -> str:
    """JSON with one column, one expression per line (reviewable diffs)."""
    lines = ["{", f'  "spark": {json.dumps(data["spark"])},', f'  "zone": {json.dumps(data["zone"])},',
             f'  "rows": {data["rows"]},']
    for n, setting in enumerate(("ansi", "legacy")):
        part = data[setting]
        lines.append(f'  "{setting}": {{')
        lines.append('    "columns": {')
        items = list(part["columns"].items())
        for i, (text, column) in enumerate(items):
            lines.append(f"      {json.dumps(text, ensure_ascii=False)}: "
                         f"{json.dumps(column, ensure_ascii=False)}{',' if i < len(items) - 1 else ''}")
        lines.append("    },")
        lines.append(f'    "refused": {json.dumps(part["refused"], ensure_ascii=False)},')
        lines.append(f'    "value_failed": {json.dumps(part["value_failed"], ensure_ascii=False)},')
        lines.append('    "cases": [')
        for i, case in enumerate(part["cases"]):
            lines.append(f"      {json.dumps(case, ensure_ascii=False)}{',' if i < len(part['cases']) - 1 else ''}")
        lines.append("    ]")
        lines.append("  }" + ("," if n == 0 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def accepted_now(part: dict, setting: str) -> list[str]:
    """The expressions ``part`` (one setting of the recording) lists as refused by sparkcep that
    sparkcep compiles and binds now: they have no answer of Spark's."""
    from sparkcep.compiler.lowering import ValueColumns
    from sparkcep.errors import SparkCepError
    from tests.evaluation.harness import Refused, bound, lower

    semantics = Semantics(ansi=setting == "ansi", time_zone=corpus.ZONE)
    types = {text: column["type"] for text, column in part["columns"].items()}
    # columns only refused expressions read are not recorded: their declared types
    declared = {**corpus.COLUMNS, **corpus.PAIRED}
    types.update({f"(`{name}`)": t.lower() for name, t in declared.items() if f"(`{name}`)" not in types})
    accepted = []
    for qualified in part["refused"]:
        values = ValueColumns()
        try:
            bound(lower(qualified, values), [types[t] for t in values.texts], semantics)
        except (SparkCepError, Refused):
            continue
        accepted.append(qualified)
    return accepted


def _merged(old: dict, new: dict) -> dict:
    """``old`` with ``new``'s columns and expressions added (an expression asked again no longer
    refused); the cases in the corpus's order."""
    order = {q: i for i, (q, _) in enumerate(corpus.expressions())}
    asked = {case["expression"] for case in new["cases"]} | set(new["refused"]) | set(new["value_failed"])
    return {"columns": {**old["columns"], **new["columns"]},
            "refused": sorted([q for q in old["refused"] if q not in asked] + new["refused"]),
            "value_failed": sorted(old["value_failed"] + new["value_failed"]),
            "cases": sorted(old["cases"] + new["cases"], key=lambda case: order[case["expression"]])}


def main(argv: list[str]) -> None:
    expressions = corpus.expressions()
    old = None
    if argv == ["--new"]:
        old = json.loads(OUTPUT.read_text(encoding="utf-8"))
        assert old["spark"] == pyspark.__version__, f"recorded with Spark {old['spark']}: rerun it whole"
        assert old["rows"] == corpus.ROWS and old["zone"] == corpus.ZONE, "the rows changed: rerun it whole"
        known = {case["expression"] for setting in ("ansi", "legacy") for case in old[setting]["cases"]}
        known |= {q for setting in ("ansi", "legacy") for q in old[setting]["refused"] + old[setting]["value_failed"]}
        known -= {q for setting in ("ansi", "legacy") for q in accepted_now(old[setting], setting)}
        expressions = [(q, plain) for q, plain in expressions if q not in known]
        print(f"{len(expressions)} new expressions (or refused before and accepted now)")
    elif argv:
        raise SystemExit("usage: python -m tests.evaluation.record_spark_answers [--new]")
    spark = sparkcep.local_session("local[2]", "sparkcep-record-answers", spark_executor_pyspark_memory="2g")
    try:
        spark.sparkContext.setLogLevel("ERROR")
        data = {"spark": pyspark.__version__, "zone": corpus.ZONE, "rows": corpus.ROWS,
                "ansi": record(spark, True, expressions), "legacy": record(spark, False, expressions)}
    finally:
        spark.stop()
    if old is not None:
        data["ansi"], data["legacy"] = _merged(old["ansi"], data["ansi"]), _merged(old["legacy"], data["legacy"])
    text = _dump(data)
    assert json.loads(text) == data
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
