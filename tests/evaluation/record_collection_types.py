"""Record the types Spark 4.3 gives the array-building and map functions of
``sparkcep.evaluation.collection_builders`` over every pair of operand types, ANSI on and off,
in ``collection_types.json`` (Spark only analyses: no row is read). ``test_collection_builders.py``
checks that sparkcep's binding gives each accepted combination Spark's type, and refuses every
combination Spark refuses:

    python -m tests.evaluation.record_collection_types
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pyspark

import sparkcep

OUTPUT = Path(__file__).with_name("collection_types.json")

# the element (operand) types measured: every type sparkcep holds in arrays, at two DECIMALs
# that one another's casts lose digits of, and the untyped NULL
TYPES = ("tinyint", "int", "bigint", "float", "double", "decimal(5,2)", "decimal(3,1)", "decimal(20,0)", "string",
         "boolean", "date", "timestamp", "timestamp_ntz", "void")

# function -> SQL over typed NULLs: {a} and {b} stand for the two types of a pair
TEMPLATES = {
    "array_union": "array_union(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS ARRAY<{b}>))",
    "array_intersect": "array_intersect(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS ARRAY<{b}>))",
    "array_except": "array_except(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS ARRAY<{b}>))",
    "concat": "concat(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS ARRAY<{b}>))",
    "array_remove": "array_remove(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS {b}))",
    "array_append": "array_append(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS {b}))",
    "array_prepend": "array_prepend(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS {b}))",
    "array_insert": "array_insert(CAST(NULL AS ARRAY<{a}>), 1, CAST(NULL AS {b}))",
    "array_insert_position": "array_insert(CAST(NULL AS ARRAY<INT>), CAST(NULL AS {a}), 1)",
    "map_keys": "map(CAST(NULL AS {a}), 1, CAST(NULL AS {b}), 2)",
    "map_values": "map(1, CAST(NULL AS {a}), 2, CAST(NULL AS {b}))",
    "map_from_arrays": "map_from_arrays(CAST(NULL AS ARRAY<{a}>), CAST(NULL AS ARRAY<{b}>))",
    "sequence": "sequence(CAST(NULL AS {a}), CAST(NULL AS {b}))",
    "sequence_step": "sequence(1, 2, CAST(NULL AS {a}))",
    "sequence3": "sequence(CAST(NULL AS {a}), CAST(NULL AS {a}), CAST(NULL AS {b}))",
    "array_repeat": "array_repeat(CAST(NULL AS {a}), CAST(NULL AS {b}))",
    "get": "get(CAST(NULL AS ARRAY<INT>), CAST(NULL AS {a}))",
    "array_join": "array_join(CAST(NULL AS ARRAY<{a}>), ',')",
    "array_join_separator": "array_join(CAST(NULL AS ARRAY<STRING>), CAST(NULL AS {a}))",
    "sort_array": "sort_array(CAST(NULL AS ARRAY<{a}>))",
    "array_sort": "array_sort(CAST(NULL AS ARRAY<{a}>))",
    "array_compact": "array_compact(CAST(NULL AS ARRAY<{a}>))",
    "reverse": "reverse(CAST(NULL AS ARRAY<{a}>))",
    "flatten": "flatten(CAST(NULL AS ARRAY<ARRAY<{a}>>))",
}
UNARY = ("sort_array", "array_sort", "array_compact", "reverse", "flatten", "array_insert_position", "sequence_step",
         "get", "array_join", "array_join_separator")


def _type_of(spark, sql: str) -> str:
    from pyspark.errors import AnalysisException

    try:
        return spark.sql(f"SELECT {sql} AS v").schema[0].dataType.simpleString()
    except AnalysisException as error:  # its class, e.g. DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES
        found = re.match(r"\[([A-Z_.]+)\]", str(error).strip())
        return "error: " + (found.group(1) if found else str(error).strip().split(":")[0][:60])
    except Exception as error:  # noqa: BLE001 - parse errors (CAST(NULL AS ARRAY<VOID>))
        return "error: " + type(error).__name__


def main(argv: list[str]) -> None:
    from pyspark.logger import PySparkLogger

    PySparkLogger.getLogger("SQLQueryContextLogger").disabled = True  # logs every failing query, whole
    spark = sparkcep.local_session("local[1]", "sparkcep-record-collection-types", spark_executor_pyspark_memory="1g")
    data: dict = {"spark": pyspark.__version__}
    try:
        spark.sparkContext.setLogLevel("ERROR")
        for setting, ansi in (("ansi", "true"), ("legacy", "false")):
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            part = data[setting] = {}
            for function, template in TEMPLATES.items():
                seconds = ("int",) if function in UNARY else TYPES
                part[function] = {f"{a}|{b}": _type_of(spark, template.format(a=a, b=b))
                                  for a in TYPES for b in seconds}
            print(setting, "done", flush=True)
    finally:
        spark.stop()
    OUTPUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
