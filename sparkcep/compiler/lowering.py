"""Lowering DEFINE and MEASURES expressions.

Each expression is split by what it depends on:

* parts that depend only on the row they are evaluated at (plain columns, PREV/NEXT, which are
  ``lag``/``lead``, and any Spark function of those) become columns that Catalyst computes before
  the rows reach the matcher; their SQL is the user's own text, spliced (pattern-variable
  qualifiers dropped, PREV/NEXT turned into window functions, CLASSIFIER() of the variable being
  defined turned into its name);
* parts that depend on the match (FIRST/LAST over other rows, references to other variables,
  aggregates, MATCH_NUMBER, CLASSIFIER of a SUBSET) become ``sparkcep.plan`` expressions, which the
  executors evaluate while matching (DEFINE) or after it (MEASURES).

A subexpression whose only match-dependent part is one navigation, e.g. ``LAST(A.ts) + INTERVAL
'30' MINUTE``, is pushed into that navigation's column: Catalyst computes ``ts + INTERVAL '30'
MINUTE`` per row and the matcher only picks the row. So Python evaluates just the operators that
combine values from different rows of the match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.plan import expressions as p
from sparkcep.compiler.analysis import Scope
from sparkcep.compiler.higher_order import LambdaLowering, higher_order_name
from sparkcep.compiler.scoping import is_subquery, walk_outside_subqueries
from sparkcep.compiler.splice import Splicer, quote_identifier, quote_string

AGGREGATES: dict[type, str] = {
    exp.Count: "count",
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Min: "min",
    exp.Max: "max",
    exp.ArrayAgg: "collect_list",
}

# Spark's regular-expression functions Python evaluates between rows (Lowering.lower_regex_function)
REGEX_FUNCTIONS: dict[type, str] = {
    exp.RegexpExtract: "regexp_extract",
    exp.RegexpReplace: "regexp_replace",
    exp.RegexpCount: "regexp_count",
    exp.RegexpSubstr: "regexp_substr",
    exp.RegexpInstr: "regexp_instr",
}

# Operators Python evaluates over match-dependent operands (sparkcep.evaluation implements them).
GLUE: dict[type, str] = {
    exp.And: "and",
    exp.Or: "or",
    exp.Not: "not",
    exp.EQ: "eq",
    exp.NEQ: "neq",
    exp.NullSafeEQ: "null_safe_eq",
    exp.NullSafeNEQ: "null_safe_neq",
    exp.Nullif: "nullif",
    exp.Nvl2: "nvl2",
    exp.GT: "gt",
    exp.GTE: "gte",
    exp.LT: "lt",
    exp.LTE: "lte",
    exp.Add: "add",
    exp.Sub: "sub",
    exp.Mul: "mul",
    exp.Div: "div",
    exp.Mod: "mod",
    exp.Neg: "neg",
    exp.Abs: "abs",
    exp.Coalesce: "coalesce",
    exp.Greatest: "greatest",
    exp.Least: "least",
    exp.Between: "between",
    exp.In: "in",
    exp.Is: "is",
    exp.If: "if",
    exp.Case: "case",
    exp.Paren: "paren",
    exp.Like: "like",
    exp.ILike: "ilike",
    exp.RegexpLike: "rlike",
    exp.Concat: "concat",
    exp.Lower: "lower",
    exp.Upper: "upper",
    exp.Length: "length",
    exp.Substring: "substring",
    exp.DPipe: "concat",  # a || b is concat(a, b) in Spark
    exp.Sign: "sign",  # sign and signum
    exp.ConcatWs: "concat_ws",
    exp.ArrayToString: "array_join",
    exp.Array: "array",  # of STRINGs, for array_join and concat_ws
    exp.Floor: "floor",  # with a scale: Lowering.lower_rounding
    exp.Ceil: "ceil",
    exp.Sqrt: "sqrt",
    exp.Degrees: "degrees",  # Math.toDegrees / toRadians (sparkcep.evaluation.functions)
    exp.Radians: "radians",
    exp.Contains: "contains",
    exp.StartsWith: "startswith",
    exp.EndsWith: "endswith",
    exp.StrPosition: "locate",  # locate, instr and position
    exp.Trim: "trim",  # trim, ltrim and rtrim: the side is an option
    exp.Replace: "replace",
    exp.Left: "left",
    exp.Right: "right",
    exp.Reverse: "reverse",
    exp.IntDiv: "intdiv",
    exp.BitwiseAnd: "bitwise_and",
    exp.BitwiseOr: "bitwise_or",
    exp.BitwiseXor: "bitwise_xor",
    exp.BitwiseNot: "bitwise_not",
    exp.BitwiseCount: "bit_count",
    exp.Getbit: "bit_get",  # getbit and bit_get
    exp.BitwiseLeftShift: "shiftleft",
    exp.BitwiseRightShift: "shiftright",
    exp.SafeAdd: "try_add",
    exp.SafeSubtract: "try_sub",
    exp.SafeMultiply: "try_mul",
    exp.SafeDivide: "try_div",
    exp.DateDiff: "datediff",  # with a unit: timestampdiff
    exp.TimestampDiff: "timestampdiff",
    exp.SubstringIndex: "substring_index",
    exp.Translate: "translate",
    exp.SplitPart: "split_part",
    exp.Levenshtein: "levenshtein",
    exp.Ascii: "ascii",
    exp.Chr: "chr",
    exp.BitLength: "bit_length",
    exp.MD5: "md5",
    exp.SHA: "sha1",
    exp.SHA2: "sha2",
    exp.Pad: "pad",  # lpad and rpad: the side is an option
    exp.Repeat: "repeat",
    exp.Hex: "hex",
    exp.Unhex: "unhex",
    exp.TsOrDsAdd: "date_add",  # date_add, dateadd and date_sub (Lowering.lower_date_add)
    exp.AddMonths: "add_months",
    exp.MonthsBetween: "months_between",  # roundOff: Lowering.lower_months_between
    exp.LastDay: "last_day",
    exp.NextDay: "next_day",
    exp.UnixDate: "unix_date",
    exp.DateFromUnixDate: "date_from_unix_date",
    # fields of a date or timestamp, truncation, seconds since the epoch (Lowering.lower_datetime_field
    # for date_part / extract, lower_date_trunc for date_trunc)
    exp.Year: "year",
    exp.Quarter: "quarter",
    exp.Month: "month",
    exp.Day: "day",
    exp.DayOfMonth: "day",
    exp.DayOfWeek: "dayofweek",
    exp.DayOfYear: "dayofyear",
    exp.WeekOfYear: "weekofyear",
    exp.Hour: "hour",
    exp.Minute: "minute",
    exp.Second: "second",
    exp.TimestampTrunc: "date_trunc",  # Lowering.lower_date_trunc
    exp.StrToUnix: "unix_timestamp",  # and to_unix_timestamp
    exp.UnixSeconds: "unix_seconds",
    exp.UnixMillis: "unix_millis",
    exp.UnixMicros: "unix_micros",
    exp.IsNan: "isnan",
    exp.Nanvl: "nanvl",
    exp.WidthBucket: "width_bucket",
    exp.Initcap: "initcap",
    exp.Elt: "elt",
    # arrays and maps (sparkcep.evaluation.collection_functions); element_at, try_element_at
    # and x[i] parse as exp.Bracket (Lowering.lower_bracket)
    exp.ArrayContains: "array_contains",
    exp.ArrayPosition: "array_position",
    exp.MapContainsKey: "map_contains_key",
    exp.ArraySize: "size",  # size; array_size (NULL for NULL, ANSI on or off) by its written name
    exp.ArrayDistinct: "array_distinct",
    exp.ArrayMax: "array_max",
    exp.ArrayMin: "array_min",
    exp.ArraySlice: "slice",
    exp.ParseUrl: "parse_url",  # sparkcep.evaluation.url_functions
    exp.Dayname: "dayname",  # -- the rest of the datetime functions: datetime_fields --
    exp.Monthname: "monthname",
}

# -- array-building and map functions between rows (begin) -------------------------------------
# (sparkcep.evaluation.collection_builders; Lowering.lower_collection_builder): sqlglot's node or
# the name of a function it does not model -> the plan operator
COLLECTION_BUILDER_NODES: dict[type, str] = {
    exp.ArrayIntersect: "array_intersect", exp.ArrayExcept: "array_except", exp.ArrayRemove: "array_remove",
    exp.ArrayCompact: "array_compact", exp.ArraySort: "sort_array", exp.Flatten: "flatten",
    exp.ArrayAppend: "array_append", exp.ArrayPrepend: "array_prepend", exp.ArrayInsert: "array_insert",
    exp.MapKeys: "map_keys", exp.VarMap: "create_map", exp.Map: "map_from_arrays", exp.GenerateSeries: "sequence",
}
COLLECTION_BUILDER_NAMES = {"array_union": "array_union", "array_repeat": "array_repeat", "map_values": "map_values",
                            "get": "get"}
# -- array-building and map functions between rows (end) ---------------------------------------

# -- JSON and map functions between rows (begin) -------------------------------------------------
# (sparkcep.evaluation.json_functions, map_functions; Lowering.lower_json_or_map_function)
JSON_MAP_NODES: dict[type, str] = {exp.JSONExtractScalar: "get_json_object", exp.JSONKeys: "json_object_keys",
                                   exp.StrToMap: "str_to_map", exp.JSONFormat: "to_json"}
JSON_MAP_NAMES = {"json_array_length": "json_array_length", "map_concat": "map_concat"}
# -- JSON and map functions between rows (end) ---------------------------------------------------

# -- structs between rows (begin) ----------------------------------------------------------------
# (Lowering.lower_struct_function) generators Spark refuses outside a SELECT list
# (UNSUPPORTED_GENERATOR.OUTSIDE_SELECT, measured on Spark 4.3 in a WHERE): refused in DEFINE
GENERATOR_NODES = (exp.Explode, exp.Posexplode, exp.Inline, exp.ExplodeOuter, exp.PosexplodeOuter, exp.Stack)
GENERATOR_NAMES = ("json_tuple", "inline_outer")
# -- structs between rows (end) ------------------------------------------------------------------
# -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (begin) ----------------
# (sparkcep.evaluation.text_and_binary; Lowering.lower_text_or_binary): sqlglot's node -> the plan
# operator and the names it may be written as; the names of functions sqlglot does not model
TEXT_AND_BINARY_NODES: dict[type, tuple[str, tuple[str, ...]]] = {
    exp.RegexpSplit: ("split", ("split",)), exp.RegexpExtractAll: ("regexp_extract_all", ("regexp_extract_all",)),
    exp.ToBase64: ("base64", ("base64",)), exp.FromBase64: ("unbase64", ("unbase64",)),
    exp.ToBase32: ("to_base32", ("to_base32",)), exp.FromBase32: ("from_base32", ("from_base32",)),
    exp.Encode: ("encode", ("encode",)), exp.Decode: ("decode", ("decode",)),
    exp.ToBinary: ("to_binary", ("to_binary",)),
    exp.Soundex: ("soundex", ("soundex",)), exp.Factorial: ("factorial", ("factorial",)), exp.Rint: ("rint", ("rint",)),
}
TEXT_AND_BINARY_NAMES = {"try_to_binary": "to_binary", "luhn_check": "luhn_check", "quote": "quote",
                         "positive": "positive", "mask": "mask"}
_UTF8_REFUSAL = ("a STRING reaches Python as a Python str, which cannot hold the invalid UTF-8 a Spark STRING "
                 "may hold (CAST(X'C3' AS STRING)), so its answer cannot be reproduced")
# to_binary's formats (sparkcep.evaluation.binary_codecs.to_binary), in lower case
TO_BINARY_FORMATS = ("hex", "utf-8", "utf8", "base64")
# deterministic functions of this family refused between rows, and why
TEXT_AND_BINARY_REFUSED = {
    "sentences": "Spark splits the text with Java's BreakIterator for the locale, whose rules sparkcep does not "
                 "reproduce exactly",
    "is_valid_utf8": _UTF8_REFUSAL, "validate_utf8": _UTF8_REFUSAL, "try_validate_utf8": _UTF8_REFUSAL,
    "make_valid_utf8": _UTF8_REFUSAL,
}
# -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (end) ------------------

# Functions sqlglot does not model (parsed as exp.Anonymous) that Python evaluates between rows.
ANONYMOUS_GLUE: dict[str, str] = {"pmod": "pmod", "shiftrightunsigned": "shiftrightunsigned",
                                  "try_mod": "try_mod", "crc32": "crc32", "octet_length": "octet_length",
                                  "hash": "hash", "xxhash64": "xxhash64", "conv": "conv", "bin": "bin",
                                  "format_number": "format_number",
                                  "make_date": "make_date", "find_in_set": "find_in_set", "weekday": "weekday",
                                  "cardinality": "size", "arrays_overlap": "arrays_overlap",
                                  "url_encode": "url_encode", "url_decode": "url_decode",
                                  "try_url_decode": "try_url_decode", "parse_url": "parse_url",
                                  "try_parse_url": "try_parse_url",
                                  # as written (sparkcep.dialect.parser): date_trunc of a unit that
                                  # is no literal, every trunc
                                  "date_trunc": "date_trunc", "trunc": "trunc"}

# functions that are another operator (Lowering.lower_synonym): their numbers of arguments
SYNONYM_ARGUMENTS = {"isnull": (1, 1), "isnotnull": (1, 1), "nullifzero": (1, 1), "zeroifnull": (1, 1),
                     "btrim": (1, 2)}

# round(x, d) (HALF_UP), bround(x, d) (HALF_EVEN), floor(x, d) and ceil(x, d): d must be an
# integer literal (Spark requires a constant scale); it is an option of the plan operator, not
# an operand.
ROUNDING = {"round": "half_up", "bround": "half_even", "floor": "floor", "ceil": "ceiling"}

# Spark's math functions that Java's StrictMath computes (fdlibm's algorithms), which
# ``sparkcep.evaluation.strict_math`` reproduces bit for bit: the function as written (lower
# case) -> the plan operator. ``log`` with one argument is ``ln``; ``log10`` and ``log2``
# parse as a ``Log`` with a literal base, but Spark computes ``log10`` with its own routine, so
# the written name decides (``log(10, x)`` is log(x) / log(10), as Spark computes it).
STRICT_MATH = {
    "ln": "ln", "log": "log", "log10": "log10", "log2": "log2", "log1p": "log1p", "exp": "exp",
    "expm1": "expm1", "pow": "power", "power": "power", "cbrt": "cbrt",
    # -- inverse trigonometric and hyperbolic functions, hypot (begin) --
    "asin": "asin", "acos": "acos", "atan": "atan", "atan2": "atan2", "sinh": "sinh", "cosh": "cosh",
    "tanh": "tanh", "hypot": "hypot", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
    # -- inverse trigonometric and hyperbolic functions, hypot (end) --
}
_STRICT_MATH_NODES = (exp.Ln, exp.Log, exp.Exp, exp.Pow, exp.Cbrt, exp.Anonymous,
                      exp.Asin, exp.Acos, exp.Atan, exp.Atan2, exp.Sinh, exp.Cosh, exp.Tanh,
                      exp.Asinh, exp.Acosh, exp.Atanh)
_BINARY_STRICT_MATH = ("log", "power", "atan2", "hypot")


@dataclass(frozen=True)
class NavKey:
    """Which row a logical navigation points to."""

    variables: frozenset[int] | None
    from_start: bool
    offset: int
    final: bool = False


CONST, LOCAL, NAV, DEP = "const", "local", "nav", "dep"

# The match functions of UNCERTAIN TIME and the time bound each one reads (``p.MatchTimeRange``).
UNCERTAIN_BOUNDS = {
    "MATCH_EARLIEST_START": "start_lo",
    "MATCH_LATEST_START": "start_hi",
    "MATCH_EARLIEST_END": "end_lo",
    "MATCH_LATEST_END": "end_hi",
}

# Operators that do not return NULL for a NULL operand. A navigation that points at no row is
# NULL, so f(LAST(A.x, 1)) may only be pushed into the navigation (computed per row as f(x))
# when f is strict; these, and functions we know nothing about, are evaluated over the
# navigation's value instead.
NON_STRICT = (
    exp.Is, exp.Coalesce, exp.Case, exp.If, exp.And, exp.Or, exp.NullSafeEQ, exp.NullSafeNEQ,
    exp.Greatest, exp.Least, exp.Nullif, exp.Nvl2, exp.In, exp.Between, exp.ConcatWs,
    exp.Array, exp.Struct, exp.Anonymous,
    # format_string('%s', NULL) is 'null', map(1, NULL) {1: NULL}, elt(2, NULL, 'x') 'x',
    # equal_null(NULL, 1) false, and size(NULL) -1 with ANSI off (Spark's legacy size of NULL)
    exp.Format, exp.VarMap, exp.Map, exp.Elt, exp.EqualNull, exp.ArraySize,
    # isnan(NULL) is false, typeof(NULL of INT) 'int', decode(NULL, 1, 'a', 'b') 'b', and
    # array_append(array(1), NULL) [1, NULL] (likewise array_prepend and array_insert)
    exp.IsNan, exp.Typeof, exp.DecodeCase, exp.ArrayAppend, exp.ArrayPrepend, exp.ArrayInsert,
)


@dataclass(frozen=True)
class Kind:
    what: str
    key: NavKey | None = None


@dataclass
class Call:
    """A navigation or special function call, normalised from the dialect's AST."""

    name: str  # PREV NEXT FIRST LAST CLASSIFIER MATCH_NUMBER
    argument: exp.Expression | None
    offset: int
    node: exp.Expression


@dataclass
class ValueColumns:
    """The SQL of every column Catalyst computes for the matcher, deduplicated by text."""

    texts: list[str] = field(default_factory=list)

    def add(self, text: str) -> int:
        if text not in self.texts:
            self.texts.append(text)
        return self.texts.index(text)


class Lowering(LambdaLowering):
    """Lowers the expressions of one MATCH_RECOGNIZE clause."""

    def __init__(self, scope: Scope, window: str | None, values: ValueColumns) -> None:
        self.scope = scope
        self.window = window  # "PARTITION BY ... ORDER BY ..." for lag/lead, None without ORDER BY
        # in a window with row pattern recognition (R020), rendering a row's DEFINE near the
        # frame's edges: (rows after the frame's first row, rows before its last row, or None);
        # a PREV/NEXT reaching past them reads NULL (``sparkcep.compiler.window``)
        self.frame_edge: tuple[int, int | None] | None = None
        self.values = values
        self.current: int | None = None  # the variable being defined (DEFINE), None in MEASURES
        # variable id -> its row's position in its unrolled block (1-based; None = past the
        # unrolled rows), for the copies ``sparkcep.compiler.unrolling`` made
        self.block_position: dict[int, int | None] = {}
        # (value column, start, end): a DEFINE condition (or conjunct) that is a value read from
        # a row; its Spark type must be BOOLEAN, which only registration knows
        self.truth_columns: list[tuple[int, int, int]] = []
        # (row-local SQL, start, end): a row-local DEFINE conjunct whose type only Spark knows
        # (a column, a function call): registration checks it is BOOLEAN before the masks
        self.truth_locals: list[tuple[str, int, int]] = []
        # MatchRows -> the texts of the Spark aggregates over them, as segments: strings and
        # field numbers (registration has Spark analyse them over the value columns)
        self.spark_aggregates: dict[p.MatchRows, list[tuple]] = {}
        # the navigation calls rendered as lag/lead window functions (a stream refuses them)
        self.window_calls: list[exp.Expression] = []
        # value column -> its physical offset (PREV k: -k, NEXT k: +k), for the MEASURES'
        # PREV/NEXT (in a window the row it reads must lie in the frame: ``PatternWindow.shifts``)
        self.physical_columns: dict[int, int] = {}
        # over a stream (None in a batch query): PREV(e, k) reads column ``shift_name(j)`` that
        # the ordering operator fills with e of the k-th row before (``runtime.streaming``); the
        # (e as SQL, k) of each j
        self.shifts: list[tuple[str, int]] | None = None

    # ----------------------------------------------------------------------------------------
    # Recognising calls
    # ----------------------------------------------------------------------------------------

    def call(self, node: exp.Expression) -> Call | None:
        inner = node.this if isinstance(node, dx.RunningFinal) else node
        name = None
        args: list[exp.Expression] = []
        if isinstance(inner, dx.Navigation):
            name = inner.args["kind"].upper()
            args = [inner.this] + ([inner.args["offset"]] if inner.args.get("offset") else [])
        elif isinstance(inner, dx.MatchNumber):
            name = "MATCH_NUMBER"
        elif isinstance(inner, dx.Classifier):
            name = "CLASSIFIER"
            args = [inner.this] if inner.this is not None else []
        elif isinstance(inner, exp.Anonymous) and inner.name.upper() in (
            "PREV", "NEXT", "CLASSIFIER", "MATCH_NUMBER",
        ):
            if isinstance(inner.this, exp.Identifier) and inner.this.args.get("quoted"):
                # A quoted name is an ordinary function name (SQL:2016 5.4: <identifier>), not
                # the keyword of a row pattern function; no such function exists here.
                raise self.scope.error(
                    "QUOTED_ROW_PATTERN_FUNCTION",
                    f"'{inner.name}' is quoted, so it names an ordinary function, not the row "
                    f"pattern function {inner.name.upper()}; write {inner.name.upper()}(...) "
                    "without quotes",
                    inner,
                )
            name = inner.name.upper()
            args = list(inner.expressions)
        if name is None:
            return None
        if inner is not node and name in ("PREV", "NEXT", "CLASSIFIER", "MATCH_NUMBER"):
            # ISO/IEC 19075-5, 5.6.5: RUNNING and FINAL qualify FIRST, LAST and aggregates only
            raise self.scope.error(
                "RUNNING_FINAL_TARGET",
                f"RUNNING and FINAL apply only to FIRST, LAST and aggregate functions, not to "
                f"{name}",
                node,
            )
        if name == "MATCH_NUMBER":
            if args:
                raise self.scope.error(
                    "MATCH_NUMBER_ARGUMENTS", "MATCH_NUMBER() takes no arguments", inner
                )
            return Call(name, None, 0, node)
        if name == "CLASSIFIER":
            if len(args) > 1 or (args and not _is_plain_name(args[0])):
                raise self.scope.error(
                    "CLASSIFIER_ARGUMENT",
                    "CLASSIFIER takes at most one argument, a pattern variable or SUBSET name",
                    inner,
                )
            return Call(name, args[0] if args else None, 0, node)
        if not args or len(args) > 2:
            raise self.scope.error(
                "NAVIGATION_ARGUMENTS",
                f"{name} takes an expression and an optional offset",
                inner,
            )
        offset = 1 if name in ("PREV", "NEXT") else 0
        if len(args) == 2:
            literal = args[1]
            if not (isinstance(literal, exp.Literal) and not literal.is_string
                    and literal.this.isdigit()):
                raise self.scope.error(
                    "INVALID_NAVIGATION_OFFSET",
                    f"the offset of {name} must be a non-negative integer literal",
                    literal,
                )
            offset = int(literal.this)
        return Call(name, args[0], offset, node)

    def reject_star(self, column: exp.Column) -> None:
        if isinstance(column.this, exp.Star):
            raise self.scope.error(
                "INVALID_STAR_REFERENCE", f"{column.sql()} is only valid inside COUNT", column
            )

    def reject_star_expansion(self, expression: exp.Expression) -> None:
        """``e.*`` (a struct's fields as columns) in a measure or a DEFINE condition, each one
        value: refused here at its position instead of Spark's unplaced "Can only star expand
        struct data types" (or a list of columns where one value is needed)."""
        for node in walk_outside_subqueries(expression):
            if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Star):
                raise self.scope.error(
                    "INVALID_STAR_REFERENCE",
                    f"{self.scope.sql[slice(*dialect.span(node))]} expands into several columns; a "
                    "measure or a DEFINE condition is one value (read one field: e.x)",
                    node,
                )

    def final_of(self, node: exp.Expression) -> bool:
        return bool(isinstance(node, dx.RunningFinal) and node.args.get("final"))

    def references(self, node: exp.Expression) -> set[frozenset[int] | None]:
        """The variable sets the column references under ``node`` are qualified with (None for
        unqualified references: the universal row pattern variable)."""
        found: set[frozenset[int] | None] = set()
        for column in walk_outside_subqueries(node):
            if isinstance(column, exp.Column):
                found.add(self.qualifier(column))
        return found

    def qualifier(self, column: exp.Column) -> frozenset[int] | None:
        table = column.args.get("table")
        if table is None:
            return None
        if column.args.get("db") is not None:
            raise self.scope.error(
                "UNSUPPORTED_QUALIFIED_NAME",
                "multi-part column names are not supported inside MATCH_RECOGNIZE",
                column,
            )
        return self.scope.resolve(table)

    def consistent_set(self, call_node: exp.Expression, argument: exp.Expression, what: str):
        sets = self.references(argument)
        self.one_variable_set(sets, what, call_node)
        return sets

    def one_variable_set(self, sets: set, what: str, call_node: exp.Expression):
        """The one pattern variable set the column references inside ``what`` use (None: all
        unqualified, or none), or ``INCONSISTENT_VARIABLE_REFERENCES`` at ``call_node``."""
        if len(sets) > 1:
            raise self.scope.error(
                "INCONSISTENT_VARIABLE_REFERENCES",
                f"all column references inside {what} must use the same pattern variable "
                "(or all be unqualified)",
                call_node,
            )
        return next(iter(sets)) if sets else None

    def check_no_nested(
        self, argument: exp.Expression, what: str, allow_logical: bool, allow_labels: bool = False
    ) -> None:
        """Navigation nesting rules: nothing nests inside FIRST/LAST or an aggregate; PREV/NEXT
        may contain one FIRST/LAST; CLASSIFIER and MATCH_NUMBER nest nowhere."""
        logical = 0
        found = None
        whole = argument
        while isinstance(whole, exp.Paren):
            whole = whole.this
        qualified = {id(n.this) for n in argument.walk() if isinstance(n, dx.RunningFinal)}
        for inner in walk_outside_subqueries(argument):
            if id(inner) in qualified:  # the call under RUNNING/FINAL, counted with it
                continue
            if isinstance(inner, (dx.UncertainMatchFunction, dx.MatchStatus)):
                name = "MATCH_STATUS" if isinstance(inner, dx.MatchStatus) else inner.this
                raise self.scope.error(
                    "INVALID_NAVIGATION_NESTING",
                    f"{name}() is a value of the whole match; it cannot be used inside {what}",
                    inner,
                )
            target = inner.this if isinstance(inner, dx.RunningFinal) else inner  # RUNNING SUM(...)
            if isinstance(target, (exp.AggFunc, exp.Window)) or is_aggregate(target):
                raise self.scope.error(
                    "INVALID_NAVIGATION_NESTING",
                    f"{what} cannot contain an aggregate or window function",
                    inner,
                )
            nested = self.call(inner)
            if nested is None:
                continue
            if nested.name in ("CLASSIFIER", "MATCH_NUMBER"):
                if allow_labels:
                    continue
                raise self.scope.error(
                    "INVALID_NAVIGATION_NESTING", f"{nested.name}() cannot be used inside {what}", inner
                )
            logical += 1
            if nested.name in ("PREV", "NEXT") or not allow_logical or logical > 1:
                raise self.scope.error(
                    "INVALID_NAVIGATION_NESTING",
                    f"{what} cannot contain {nested.name}: only one FIRST/LAST may be nested, "
                    "and only inside PREV/NEXT",
                    inner,
                )
            found = found or (inner, nested.name)
        if found is not None and found[0] is not whole:
            # ISO/IEC 19075-5, 5.6.4: PREV/NEXT may be applied to a FIRST/LAST call, not to an
            # expression containing one: PREV(LAST(A.x + 1), 2), not PREV(LAST(A.x) + 1)
            inner, name = found
            raise self.scope.error(
                "INVALID_NAVIGATION_NESTING",
                f"{name} nested in {what} must be its whole first argument, as in "
                f"{what[:4]}({name}(x, k), m)",
                inner,
            )

    # ----------------------------------------------------------------------------------------
    # Rendering row-local SQL by splicing the user's text
    # ----------------------------------------------------------------------------------------

    def render(self, node: exp.Expression) -> str:
        """SQL for ``node`` evaluated at one row: the user's text with pattern-variable
        qualifiers dropped, logical navigation replaced by its argument (the navigation chose
        the row), PREV/NEXT turned into lag/lead, and CLASSIFIER() of the defined variable
        turned into its name."""
        splicer = Splicer(self.scope.sql)

        def visit(n: exp.Expression) -> None:
            if is_subquery(n):
                return  # Spark's to resolve, as written (scoping.check_subqueries)
            call = self.call(n)
            if call is not None:
                splicer.replace(*dialect.span(n), self.render_call(call))
                return
            if isinstance(n, exp.Column) and n.args.get("table") is not None:
                self.reject_star(n)
                splicer.replace(*dialect.span(n), quote_identifier(n.this.name))
                return
            for child in n.iter_expressions():
                visit(child)

        visit(node)
        start, end = dialect.span(node)
        return "(" + splicer.render(start, end) + ")"

    def own_block_last(self, call: Call) -> bool:
        """Is ``call`` ``LAST(X.e, k)``, k >= 1, in the DEFINE of a copy of unrolled X?"""
        current = self.current
        return (
            call.name == "LAST" and call.offset > 0 and current in self.block_position
            and self.references(call.argument) == {self.scope.same_variable(current)}
        )

    def render_call(self, call: Call) -> str:
        if call.name in ("FIRST", "LAST"):
            if self.own_block_last(call):  # the k-th row back in X's block, if the block has it
                position = self.block_position[self.current]
                if position is None or call.offset < position:
                    self.window_calls.append(call.node)
                    return f"lag({self.render(call.argument)}, {call.offset}) OVER ({self.window})"
                return f"IF(false, {self.render(call.argument)}, NULL)"  # a NULL of e's type
            return self.render(call.argument)
        if call.name in ("PREV", "NEXT"):
            if self.window is None:
                raise self.scope.error(
                    "NAVIGATION_REQUIRES_ORDER_BY",
                    f"{call.name} needs the MATCH_RECOGNIZE clause to have an ORDER BY",
                    call.node,
                )
            if self.shifts is not None:  # over a stream: NEXT is a shift by a negative offset
                shift = (self.render(call.argument),
                         call.offset if call.name == "PREV" else -call.offset)
                if shift not in self.shifts:
                    self.shifts.append(shift)
                return quote_identifier(shift_name(self.shifts.index(shift)))
            function = "lag" if call.name == "PREV" else "lead"
            self.window_calls.append(call.node)
            shifted = f"{function}({self.render(call.argument)}, {call.offset}) OVER ({self.window})"
            reach = None if self.frame_edge is None else self.frame_edge[call.name == "NEXT"]
            if reach is not None and call.offset > reach:
                return f"IF(false, {shifted}, NULL)"  # outside the window frame: a NULL of its type
            return shifted
        if call.name == "CLASSIFIER" and self.current is not None:
            return quote_string(self.scope.variables[self.current])
        raise self.scope.error(  # pragma: no cover - classify() routes these elsewhere
            "INVALID_NAVIGATION_NESTING", f"{call.name}() cannot be used here", call.node
        )

    def value_column(self, node: exp.Expression) -> int:
        return self.values.add(self.render(node))

    # ----------------------------------------------------------------------------------------
    # DEFINE
    # ----------------------------------------------------------------------------------------

    def lower_define(self, var: int, condition: exp.Expression) -> tuple[str | None, p.Expression | None]:
        """Split a DEFINE condition into a row-local SQL mask and a match-dependent condition."""
        self.current = var
        self.reject_star_expansion(condition)
        for node in condition.walk():
            if isinstance(node, dx.RunningFinal) and node.args.get("final"):
                raise self.scope.error(
                    "FINAL_IN_DEFINE", "FINAL semantics cannot be used in DEFINE", node
                )
        conjuncts = list(condition.flatten()) if isinstance(condition, exp.And) else [condition]
        local_sql: list[str] = []
        dependent: list[p.Expression] = []
        for conjunct in conjuncts:
            kind = self.classify(conjunct)
            if kind.what in (CONST, LOCAL):
                local_sql.append(self.render(conjunct))
                if not isinstance(_unparenthesised(conjunct), _BOOLEAN_FORMS):
                    self.truth_locals.append((local_sql[-1], *dialect.span(conjunct)))
            else:
                lowered = self.lower_dependent(conjunct, kind)
                if isinstance(lowered, (p.Navigation, p.CurrentRow)):
                    self.truth_columns.append((lowered.column, *dialect.span(conjunct)))
                dependent.append(lowered)
        mask = f"coalesce({' AND '.join(local_sql)}, false)" if local_sql else None
        if not dependent:
            return mask, None
        return mask, dependent[0] if len(dependent) == 1 else p.Operator("and", tuple(dependent))

    def classify(self, node: exp.Expression) -> Kind:
        """How ``node`` (inside DEFINE of ``self.current``) depends on the match."""
        current = self.current
        if is_subquery(node):
            return Kind(CONST)  # uncorrelated (scoping.check_subqueries): Spark evaluates it
        # -- higher-order functions (begin) --
        named, variable = self.lambda_reference(node)
        if named:  # a lambda's variable: of one being lowered, evaluated in Python; else no row
            return Kind(DEP) if variable is not None else Kind(CONST)
        if isinstance(node, exp.Lambda):
            return self.lambda_kind(node)
        # -- higher-order functions (end) --
        call = self.call(node)
        if call is not None:
            if call.name == "MATCH_NUMBER":
                return Kind(DEP)
            if call.name == "CLASSIFIER":
                if call.argument is None:
                    return Kind(CONST)
                members = self.scope.resolve(_name_identifier(call.argument))
                return Kind(CONST) if current in members else Kind(DEP)
            if self.navigated_label(call) is not None:
                return Kind(DEP)
            what = f"{call.name}(...)"
            self.check_no_nested(call.argument, what, allow_logical=call.name in ("PREV", "NEXT"))
            sets = self.consistent_set(node, call.argument, what)
            if call.name in ("PREV", "NEXT"):
                inner = self.classify(call.argument)
                if inner.what == CONST and not sets:
                    raise self.scope.error(
                        "NAVIGATION_WITHOUT_COLUMN",
                        f"{call.name} needs a column reference in its argument",
                        node,
                    )
                if inner.what == DEP:
                    raise self.scope.error(
                        "INCONSISTENT_VARIABLE_REFERENCES",
                        f"the argument of {call.name} mixes rows of different pattern variables",
                        node,
                    )
                return Kind(LOCAL) if inner.what in (CONST, LOCAL) else inner
            if not sets:
                raise self.scope.error(
                    "NAVIGATION_WITHOUT_COLUMN",
                    f"{call.name} needs a column reference in its argument",
                    node,
                )
            (variables,) = sets
            includes_current = variables is None or current in variables
            if self.own_block_last(call):
                return Kind(LOCAL)
            if call.name == "LAST" and call.offset == 0 and includes_current:
                return Kind(LOCAL)
            return Kind(NAV, NavKey(variables, call.name == "FIRST", call.offset))
        if isinstance(node, exp.Window):
            raise self.scope.error(
                "WINDOW_FUNCTION_IN_MATCH_RECOGNIZE",
                "window functions cannot be used in DEFINE or MEASURES",
                node,
            )
        if isinstance(node, GENERATOR_NODES) or _anonymous_name(node) in GENERATOR_NAMES:  # structs
            raise self.scope.error(
                "UNSUPPORTED_GENERATOR",
                f"The generator is not supported: outside the SELECT clause, found: "
                f"{_written_name(node, self.scope.sql)}(...) in DEFINE (Spark's UNSUPPORTED_GENERATOR.OUTSIDE_SELECT: "
                "a generator yields rows, not a value a condition can test)",
                node,
            )
        if isinstance(node, dx.RunningFinal):
            raise self.scope.error(
                "RUNNING_FINAL_TARGET",
                "RUNNING and FINAL apply only to FIRST, LAST and aggregate functions",
                node,
            )
        if isinstance(node, exp.AggFunc) or is_aggregate(node):
            self.define_aggregate(node)  # validates
            return Kind(DEP)
        if isinstance(node, exp.Column):
            self.reject_star(node)
            variables = self.qualifier(node)
            if variables is None or current in variables:
                return Kind(LOCAL)
            return Kind(NAV, NavKey(variables, False, 0))
        kinds = [self.classify(child) for child in node.iter_expressions()]
        if _is_higher_order(node):
            return self.higher_order_kind(node, kinds)
        return _combined_kind(node, kinds)

    def higher_order_kind(self, node: exp.Expression, kinds: list[Kind]) -> Kind:
        """A higher-order function (``transform``, ``exists``, ``filter``, ``aggregate``,
        ``zip_with``, ...: an argument is a lambda). Spark's result is NULL for a NULL array or
        map (its first argument), so a function that reads one navigated row is pushed into
        the navigation, like a strict function, when its first argument reads that row. A
        lambda body or another argument that reads a row the first argument does not is not
        pushed: when that row does not exist the lambda sees NULL and may still give a value
        (``transform(array(1, 2), x -> x + A.v)`` is ``[NULL, NULL]``). Python does not
        evaluate lambdas, so such a function is match-dependent (and refused)."""
        kind = _one_row_kind(kinds)
        if kind.what != NAV:
            return kind
        # the array or map: ``this``, or the first argument of a call sqlglot does not model
        first = node.this if isinstance(node.this, exp.Expression) else next(
            iter(node.expressions), None)
        return kind if first is not None and self.classify(first) == kind else Kind(DEP)

    def refuse_lambda_between_rows(self, node: exp.Expression) -> None:
        """Refuse the first higher-order function in ``node`` that reads more than one row."""
        for inner in node.walk():
            if _is_higher_order(inner) and self.classify(inner).what == DEP:
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"'{_written_name(inner, self.scope.sql)}' with a lambda cannot combine values "
                    "of different rows of a match (or of a row that may not exist) in DEFINE: "
                    "sparkcep evaluates transform, filter, exists, forall, aggregate, reduce, "
                    "zip_with, map_filter, transform_values, transform_keys, map_zip_with and "
                    "array_sort with a comparator there; apply this one inside the navigation "
                    "(LAST(f(A.arr, x -> ...))), where Spark computes it per row",
                    inner,
                )

    def lower_dependent(self, node: exp.Expression, kind: Kind) -> p.Expression:
        if kind.what in (CONST, LOCAL):
            literal = _python_literal(node)
            if literal is not _NOT_LITERAL:
                return p.Constant(literal)
            return p.CurrentRow(self.value_column(node))
        if kind.what == NAV:
            key = kind.key
            return p.Navigation(key.variables, key.from_start, key.offset, self.value_column(node))
        # -- higher-order functions (begin) --
        variable = self.lambda_variable_in_scope(node)
        if variable is not None:
            return variable
        if _is_higher_order(node) and higher_order_name(node) is not None:
            return self.lower_higher_order(node, higher_order_name(node), _written_name(node, self.scope.sql))
        # -- higher-order functions (end) --
        call = self.call(node)
        if call is not None and self.navigated_label(call) is not None:
            return self.navigated_label(call)
        if call is not None and call.name == "MATCH_NUMBER":
            return p.MatchNumber()
        if call is not None and call.name == "CLASSIFIER":
            return p.Classifier(self.scope.resolve(_name_identifier(call.argument)))
        if isinstance(node, exp.AggFunc) or is_aggregate(node):
            return self.define_aggregate(node)
        if isinstance(node, (exp.Like, exp.ILike, exp.Escape, exp.RegexpLike)) or _is_regexp_call(node):
            return self.lower_string_match(node)
        if isinstance(node, tuple(REGEX_FUNCTIONS)):
            return self.lower_regex_function(node)
        if isinstance(node, exp.Cast):  # CAST, TRY_CAST (a subclass) and x::t
            start, end = dialect.span(node)
            written = self.scope.sql[start:end].lstrip().upper()
            return p.Operator(
                "explicit_cast", (self.lower_operand(node.this),),
                options=(("to", node.to.sql(dialect="spark")),
                         ("try", written.startswith("TRY_CAST"))),
                span=(start, end),
            )
        constructor = self.lower_datetime_constructor(node)  # -- the rest of the datetime functions --
        if constructor is not None:
            return constructor
        # -- string casts (begin) --
        cast_function = self.lower_cast_function(node)
        if cast_function is not None:
            return cast_function
        # -- string casts (end) --
        if isinstance(node, exp.Round) or _anonymous_name(node) == "bround":
            return self.lower_rounding(node)
        if isinstance(node, (exp.Floor, exp.Ceil)) and any(
                node.args.get(k) is not None for k in node.args if k != "this"):
            return self.lower_rounding(node)
        if isinstance(node, _STRICT_MATH_NODES) and \
                _written_name(node, self.scope.sql).lower() in STRICT_MATH:
            return self.lower_strict_math(node)
        synonym = self.lower_synonym(node)
        if synonym is not None:
            return synonym
        if isinstance(node, exp.Extract) or _anonymous_name(node) in ("date_part", "datepart"):
            return self.lower_datetime_field(node)
        if isinstance(node, exp.Bracket):
            return self.lower_bracket(node)
        json_or_map = self.lower_json_or_map_function(node)  # JSON and map functions
        if json_or_map is not None:
            return json_or_map
        builder = self.lower_collection_builder(node)  # array-building and map functions
        if builder is not None:
            return builder
        struct_call = self.lower_struct_function(node)  # named_struct, struct, s.f, ... (structs)
        if struct_call is not None:
            return struct_call
        pattern_call = self.lower_datetime_pattern(node)  # date_format, to_timestamp, ... (datetime patterns)
        if pattern_call is not None:
            return pattern_call
        formatting = self.lower_formatting(node)  # format_string / printf, typeof, decode
        if formatting is not None:
            return formatting
        text_or_binary = self.lower_text_or_binary(node)  # split, regexp_extract_all, base64, ...
        if text_or_binary is not None:
            return text_or_binary
        operator = GLUE.get(type(node)) or ANONYMOUS_GLUE.get(_anonymous_name(node) or "")
        written = _written_name(node, self.scope.sql)
        if isinstance(node, exp.ArraySize) and written.lower() == "array_size":
            operator = "array_size"
        if isinstance(node, exp.ArraySize) and node.args.get("expression") is not None:
            operator = None  # size takes one argument
        if isinstance(node, exp.ArraySlice) and (not node.args.get("is_length") or any(
                node.args.get(k) for k in ("step", "zero_based"))):
            operator = None  # not Spark's slice(arr, start, length)
        if operator is None:
            self.refuse_lambda_between_rows(node)
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"'{written}' cannot combine values from different rows of a match in DEFINE: "
                "sparkcep evaluates the functions listed in docs/semantics.md, 'Functions between rows "
                "in DEFINE', there; apply this one inside the navigation instead, where Spark computes it "
                "per row (LAST(f(A.x)) instead of f(LAST(A.x)))",
                node,
            )
        if isinstance(node, (exp.TimestampDiff, exp.DateDiff)) and node.args.get("unit") is not None:
            return self.lower_timestampdiff(node, written)
        if isinstance(node, exp.TsOrDsAdd):
            return self.lower_date_add(node, written)
        if isinstance(node, exp.MonthsBetween):
            return self.lower_months_between(node, written)
        if isinstance(node, exp.TimestampTrunc):
            return self.lower_date_trunc(node, written)
        if isinstance(node, exp.StrPosition) and written.lower() == "instr" and (
                node.args.get("position") is not None or node.args.get("occurrence") is not None):
            # Spark 4's instr(str, substr, position, occurrence): a negative position searches
            # backwards, the occurrence counts matches (measured: instr('abcabc', 'b', -1, 1) is 5)
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"'{written}' with a position or an occurrence cannot combine values from different rows of "
                "a match in DEFINE (Spark searches backwards from a negative position); use locate(substr, "
                "str, pos), or apply it inside the navigation, where Spark computes it per row", node)
        if isinstance(node, exp.Initcap) and dialect.span(node.expression) != dialect.span(node):
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes one argument", node)
        if isinstance(node, (exp.LastDay, exp.AddMonths)) and any(
                v is not None for k, v in node.args.items() if k not in ("this", "expression")):
            raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                   f"'{written}' with these arguments cannot combine values from different "
                                   "rows of a match in DEFINE", node)
        options = (("side", (node.args.get("position") or "both").lower()),) if operator == "trim" else ()
        if operator == "pad":
            operator = "lpad" if node.args.get("is_left") else "rpad"
        children = _operands(node)
        if not isinstance(node, (exp.Case, exp.If)) and any(child is None for child in children):
            # a required argument is missing (CASE's subject and ELSE and IF's else may be)
            raise self.scope.error(
                "WRONG_NUM_ARGS", f"`{_written_name(node, self.scope.sql)}` is called with too few arguments", node)
        return p.Operator(operator, tuple(self.lower_operand(child) for child in children),
                          options=options, span=dialect.span(node))

    # -- format_string, typeof and decode between rows (begin) ----------------------------------
    def lower_formatting(self, node: exp.Expression) -> p.Expression | None:
        """``format_string(fmt, ...)`` / ``printf``: the operator ``format_string`` of the
        arguments, the format an option (``format``, its offsets ``format_at``; a NULL format is a
        NULL STRING) when it is a string literal (read from the statement's text, as one string
        token, as the datetime patterns are); Spark refuses one holding ``%0$`` when analysing
        the query (``INVALID_PARAMETER_VALUE``). Any other format (read from a row) makes the
        operator ``format_string_row_format`` of the format and the arguments, parsed per row
        (``sparkcep.evaluation.row_formats``). ``typeof(x)``: the operator
        ``typeof`` (a constant at binding). ``decode(x, s1, r1, ..., [default])``: Spark's
        ``CASE WHEN x <=> s1 THEN r1 ... ELSE default END``, the default a NULL *STRING* when
        none is given (which makes the result a STRING with ANSI off, as in Spark). None for any
        other node."""
        span = dialect.span(node)
        written = _written_name(node, self.scope.sql)
        if isinstance(node, exp.Typeof):
            if node.this is None or dialect.span(node.this) == span:
                raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes one argument", node)
            return p.Operator("typeof", (self.lower_operand(node.this),), span=span)
        if isinstance(node, exp.DecodeCase):
            subject, *rest = node.expressions
            default = rest.pop() if len(rest) % 2 else p.Constant(None, "string")
            flat: list = [p.Constant(None), default if isinstance(default, p.Constant) else self.lower_operand(default)]
            for search, result in zip(rest[0::2], rest[1::2]):
                test = p.Operator("null_safe_eq", (self.lower_operand(subject), self.lower_operand(search)), span=span)
                flat += [test, self.lower_operand(result)]
            return p.Operator("case", tuple(flat), span=span)
        if not (isinstance(node, exp.Format) or _anonymous_name(node) == "printf"):
            return None
        arguments = _call_arguments(self.scope.sql, span)
        if not arguments:
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` requires at least one argument", node)
        start, end = arguments[0]
        text = self.scope.sql[start:end]
        values = list(node.expressions) if isinstance(node, exp.Anonymous) else [node.this, *node.expressions]
        if text.strip().upper() == "NULL":
            return p.Constant(None, "string")
        pattern = _string_literal(text)
        if pattern is None:  # -- a format read from a row (begin): sparkcep.evaluation.row_formats --
            return p.Operator("format_string_row_format", tuple(self.lower_operand(v) for v in values),
                              options=(("format_at", (start, end)),), span=span)
            # -- a format read from a row (end) --
        if "%0$" in pattern:
            raise self.scope.error_at(
                "INVALID_PARAMETER_VALUE",
                "The value of parameter(s) `strfmt` in `format_string` is invalid: expects %1$, %2$ and so on, "
                "but got %0$ (Spark's INVALID_PARAMETER_VALUE.ZERO_INDEX)", start, end)
        return p.Operator("format_string", tuple(self.lower_operand(v) for v in values[1:]),
                          options=(("format", pattern), ("format_at", (start, end))), span=span)
    # -- format_string, typeof and decode between rows (end) ------------------------------------

    # -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (begin) ------------
    def lower_text_or_binary(self, node: exp.Expression) -> p.Expression | None:
        """The operators of ``TEXT_AND_BINARY_NODES`` and ``TEXT_AND_BINARY_NAMES``, their
        operands in Spark's order, or None for any other node. ``split``'s limit is -1 when not
        written, ``regexp_extract_all``'s group 1; a pattern written as a string literal is
        checked here, as for RLIKE. ``to_binary`` / ``try_to_binary``: the format must be a
        string literal (Spark requires a constant), an option (``hex`` when not written; a NULL
        literal makes the result NULL); ``to_binary`` with a format other than ``hex``,
        ``utf-8``, ``utf8`` or ``base64`` (any case) is Spark's ``DATATYPE_MISMATCH``
        (``INVALID_ARG_VALUE``), ``try_to_binary`` NULL."""
        written = _written_name(node, self.scope.sql).lower()
        refused = TEXT_AND_BINARY_REFUSED.get(_anonymous_name(node) or "")
        if refused is not None:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"'{written}' cannot combine values from different rows of a match in DEFINE: {refused}; "
                f"apply it inside the navigation instead, where Spark computes it per row (LAST({written}(A.s)))",
                node)
        entry = TEXT_AND_BINARY_NODES.get(type(node))
        if entry is not None:
            name = entry[0] if written in entry[1] else None
        else:
            name = TEXT_AND_BINARY_NAMES.get(_anonymous_name(node) or "")
        if name is None:
            return None
        span = dialect.span(node)
        if isinstance(node, exp.Anonymous):
            operands = list(node.expressions)
        else:
            keys = {"split": ("this", "expression", "limit"), "regexp_extract_all": ("this", "expression", "group"),
                    "encode": ("this", "charset"), "decode": ("this", "charset"),
                    "to_binary": ("this", "format")}.get(name, ("this",))
            extra = [k for k, v in node.args.items() if v is not None and k not in keys]
            if extra:
                return None  # a form of the node that is not Spark's function: refused by the caller
            operands = [node.args.get(k) for k in keys]
            if name == "split" and operands[2] is None:
                operands.pop()
            if name == "to_binary" and operands[1] is None:
                operands.pop()
        if any(o is None for o in operands) or not operands:
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` is called with too few arguments", node)
        defaults: tuple = ()
        if name in ("split", "regexp_extract_all") and len(operands) >= 2:
            self.check_constant_pattern("rlike", operands[1], "\\")  # the same Java patterns as RLIKE
            if len(operands) == 2:
                defaults = (p.Constant(1 if name == "regexp_extract_all" else -1),)
        options: tuple = ()
        if name == "to_binary":
            if len(operands) > 2:
                raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes one or two arguments", node)
            fmt = operands[1] if len(operands) == 2 else exp.Literal.string("hex")
            if isinstance(fmt, exp.Null):
                return p.Constant(None, "binary")
            if not (isinstance(fmt, exp.Literal) and fmt.is_string):
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"the format of '{written}' between rows of a match must be a string literal ('hex', "
                    "'utf-8', 'utf8' or 'base64'): Spark requires a constant", fmt)
            if fmt.this.lower() not in TO_BINARY_FORMATS:
                if written == "try_to_binary":
                    return p.Constant(None, "binary")
                raise self.scope.error(
                    "DATATYPE_MISMATCH",
                    f"Cannot resolve \"{written}\" due to data type mismatch: The fmt value must to be a "
                    "case-insensitive \"STRING\" literal of 'hex', 'utf-8', 'utf8', or 'base64' (Spark's "
                    "DATATYPE_MISMATCH.INVALID_ARG_VALUE)", fmt)
            options = (("format", fmt.this.lower()), ("try", written == "try_to_binary"))
            operands = operands[:1]
        if name == "mask":
            options = self.mask_replacements(node, written, operands[1:])
            operands = operands[:1]
        return p.Operator(name, tuple(self.lower_operand(o) for o in operands) + defaults, options=options, span=span)

    def mask_replacements(self, node: exp.Expression, written: str, replacements: list) -> tuple:
        """``mask``'s replacements of upper-case letters, lower-case letters, digits and other
        characters (``X``, ``x``, ``n`` and NULL when not written), as options: each a string
        literal of one character or NULL (Spark requires constants; another length is its
        ``DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE``)."""
        if len(replacements) > 4:
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes one to five arguments", node)
        values: list = ["X", "x", "n", None]
        for k, (replacement, what) in enumerate(zip(replacements, ("upperChar", "lowerChar", "digitChar",
                                                                   "otherChar"))):
            if isinstance(replacement, exp.Null):
                values[k] = None
                continue
            if not (isinstance(replacement, exp.Literal) and replacement.is_string):
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"the replacements of '{written}' between rows of a match must be string literals or NULL "
                    "(Spark requires constants)", replacement)
            if len(replacement.this) != 1:
                raise self.scope.error(
                    "DATATYPE_MISMATCH",
                    f"Cannot resolve \"{written}\" due to data type mismatch: Length of {what} should be 1 "
                    "(Spark's DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE)", replacement)
            values[k] = replacement.this
        return tuple(zip(("upper", "lower", "digit", "other"), values))
    # -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (end) --------------

    # -- array-building and map functions between rows (begin) --------------------------------
    def lower_collection_builder(self, node: exp.Expression) -> p.Expression | None:
        """The functions of ``sparkcep.evaluation.collection_builders`` (``COLLECTION_BUILDER_NODES``
        and ``COLLECTION_BUILDER_NAMES``), their operands in Spark's order, or None for any other
        node. ``concat`` / ``||`` and ``reverse`` stay the string functions' operators (the
        binding tells arrays apart); ``sort_array``'s order must be a literal TRUE or FALSE, as
        Spark requires a constant; ``array_sort`` with a comparator (a lambda) is a higher-order
        function (``compiler.higher_order``)."""
        name = COLLECTION_BUILDER_NODES.get(type(node)) or COLLECTION_BUILDER_NAMES.get(_anonymous_name(node) or "")
        if name is None:
            return None
        written = _written_name(node, self.scope.sql).lower()
        span = dialect.span(node)
        if isinstance(node, exp.ArraySort):
            if written not in ("sort_array", "array_sort") or node.args.get("expression") is not None:
                return None  # a comparator: a higher-order function (compiler.higher_order)
            name = written
            options: tuple = ()
            if written == "sort_array":
                ascending = node.args.get("asc")
                if ascending is not None and not isinstance(ascending, exp.Boolean):
                    raise self.scope.error(
                        "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                        "the order of 'sort_array' between rows of a match must be a literal TRUE or FALSE "
                        "(Spark requires a constant)", ascending)
                options = (("ascending", ascending is None or bool(ascending.this)),)
            return p.Operator(name, (self.lower_operand(node.this),), options=options, span=span)
        if isinstance(node, exp.Map) and written != "map_from_arrays" or \
                isinstance(node, exp.GenerateSeries) and written != "sequence":
            return None
        if isinstance(node, exp.VarMap):  # map(k1, v1, k2, v2, ...)
            keys, values = node.args.get("keys"), node.args.get("values")
            operands = [o for pair in zip(keys.expressions, values.expressions) for o in pair]
        elif isinstance(node, exp.Map):
            operands = [node.args.get("keys"), node.args.get("values")]
        elif isinstance(node, exp.GenerateSeries):
            operands = [node.args.get("start"), node.args.get("end")] + \
                ([node.args["step"]] if node.args.get("step") is not None else [])
        elif isinstance(node, exp.ArrayInsert):
            operands = [node.this, node.args.get("position"), node.expression]
        elif isinstance(node, exp.Anonymous):
            operands = list(node.expressions)
        elif isinstance(node, exp.ArrayIntersect):
            operands = list(node.expressions)
        else:
            operands = [node.this] + ([node.expression] if node.args.get("expression") is not None else [])
        if any(o is None for o in operands):
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` is called with too few arguments", node)
        return p.Operator(name, tuple(self.lower_operand(o) for o in operands), span=span)
    # -- array-building and map functions between rows (end) ----------------------------------

    # -- JSON and map functions between rows (begin) -------------------------------------------
    def lower_json_or_map_function(self, node: exp.Expression) -> p.Expression | None:
        """``get_json_object``, ``json_array_length``, ``json_object_keys``, ``to_json`` (without
        options) (``sparkcep.evaluation.json_functions``), ``str_to_map`` and ``map_concat``
        (``sparkcep.evaluation.map_functions``), or None for any other node. sqlglot parses a
        literal path of ``get_json_object`` into its own JSONPath tree, which does not keep
        Spark's text (``'a'`` reads as ``$.a``, white space is dropped): the literal is read
        again from the statement's text, as one string token."""
        name = JSON_MAP_NODES.get(type(node)) or JSON_MAP_NAMES.get(_anonymous_name(node) or "")
        if name is None:
            return None
        written = _written_name(node, self.scope.sql).lower()
        if written != name:
            return None
        span = dialect.span(node)
        if isinstance(node, exp.JSONExtractScalar):
            path = node.expression
            written_path = self.scope.sql[dialect.span(node.this)[1]:dialect.span(node)[1]].lstrip(" \t\n\r,")
            if isinstance(path, exp.JSONPath) or written_path[:1] in ("'", '"'):  # a literal ('a''b': two)
                path = p.Constant(self._literal_after(node.this, node), "string")
            else:
                path = self.lower_operand(path)
            return p.Operator(name, (self.lower_operand(node.this), path), span=span)
        if isinstance(node, exp.JSONFormat) and node.args.get("options") is not None:
            raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                   "'to_json' with options cannot combine values from different rows of a match in "
                                   "DEFINE; apply it inside the navigation, where Spark computes it", node)
        if isinstance(node, exp.StrToMap):
            operands = [node.this] + [node.args[k] for k in ("pair_delim", "key_value_delim") if node.args.get(k)]
            if node.args.get("key_value_delim") is not None and node.args.get("pair_delim") is None:
                return None
        elif isinstance(node, exp.Anonymous):
            operands = list(node.expressions)
        else:
            operands = [node.this]
        if name == "map_concat":  # a map(...) operand stays one (never NULL), not a value of one row
            return p.Operator(name, tuple(self._map_operand(o) for o in operands), span=span)
        return p.Operator(name, tuple(self.lower_operand(o) for o in operands), span=span)

    def _map_operand(self, node: exp.Expression) -> p.Expression:
        """An operand of ``map_concat``: ``map(...)`` (or ``map_from_arrays``) lowered as the
        operator itself, even over one row's values or constants, so that the binding knows it is
        never NULL as Spark does (``x IS NULL`` folded without building the maps: measured)."""
        inner = node
        while isinstance(inner, exp.Paren):
            inner = inner.this
        if isinstance(inner, exp.VarMap):
            built = self.lower_collection_builder(inner)
            if built is not None:
                return built
        return self.lower_operand(node)

    def _literal_after(self, before: exp.Expression, call: exp.Expression) -> str:
        """The value of the string literal written after ``before`` up to the end of ``call``
        (a string literal is required: else UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION)."""
        from sqlglot.tokens import TokenType

        end = dialect.span(before)[1]
        text = self.scope.sql[end:dialect.span(call)[1]].strip()
        text = text[1:].strip() if text.startswith(",") else text
        text = text[:-1].strip() if text.endswith(")") else text
        try:
            tokens = dialect._DIALECT.tokenize(text)
        except Exception:  # noqa: BLE001 - not one literal
            tokens = []
        if len(tokens) != 1 or tokens[0].token_type not in (TokenType.STRING, TokenType.RAW_STRING):
            raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                   "the path of 'get_json_object' between rows of a match must be one string "
                                   "literal or a value (a quote inside it written \\')", call)
        return tokens[0].text
    # -- JSON and map functions between rows (end) ---------------------------------------------

    # -- structs between rows (begin) ----------------------------------------------------------
    def lower_struct_function(self, node: exp.Expression) -> p.Expression | None:
        """``named_struct(n1, v1, ...)`` and ``struct(v1, ...)`` (the operator ``named_struct``,
        the field names an option), ``s.f`` (``get_field``), ``map_entries``, ``map_from_entries``
        and ``arrays_zip`` (``sparkcep.evaluation.struct_functions``), or None for any other node.
        sqlglot parses ``named_struct`` and ``struct`` into one node: the written name decides.
        ``named_struct``'s names are read from the statement's text, each one string literal
        (Spark requires a foldable STRING: CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING).
        ``struct``'s names are Spark's (``CreateStruct``, measured on Spark 4.3): a column's own
        name (``A.x`` is ``x``, ``A.s.f`` is ``f``), an alias, ``s['f']``'s and ``s.f``'s field
        name, else ``col`` and the 1-based position. ``arrays_zip``'s are a column's name, else the
        0-based position."""
        span = dialect.span(node)
        written = _written_name(node, self.scope.sql).lower()
        if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Identifier):
            return p.Operator("get_field", (self.lower_operand(node.this),),
                              options=(("field", node.expression.this),), span=span)
        if isinstance(node, exp.Struct) and written in ("named_struct", "struct"):
            values = [e.expression if isinstance(e, exp.PropertyEQ) else e for e in node.expressions]
            if written == "struct":
                names = [self._struct_field_name(e, i) for i, e in enumerate(node.expressions)]
            else:
                names = self._named_struct_names(node, span, len(values))
            return p.Operator("named_struct", tuple(self.lower_operand(v) for v in values),
                              options=(("names", tuple(names)),), span=span)
        if isinstance(node, exp.MapFromEntries) and written == "map_from_entries":
            return p.Operator("map_from_entries", (self.lower_operand(node.this),), span=span)
        if _anonymous_name(node) == "map_entries":
            if len(node.expressions) != 1:
                raise self.scope.error("WRONG_NUM_ARGS", "`map_entries` takes one argument", node)
            return p.Operator("map_entries", (self.lower_operand(node.expressions[0]),), span=span)
        if isinstance(node, exp.ArraysZip) and written == "arrays_zip":
            names = tuple(_column_name(e) or str(i) for i, e in enumerate(node.expressions))
            return p.Operator("arrays_zip", tuple(self.lower_operand(e) for e in node.expressions),
                              options=(("names", names),), span=span)
        return None

    def _struct_field_name(self, argument: exp.Expression, index: int) -> str:
        value = argument.expression if isinstance(argument, exp.PropertyEQ) else argument
        start, end = dialect.span(value)
        argument_end = dialect.span(argument)[1]
        if isinstance(argument, exp.PropertyEQ) and argument_end > end:  # written with an alias (x AS b)
            return argument.this.name
        name = _column_name(value)
        if name is not None:
            return name
        if isinstance(value, exp.Dot) and isinstance(value.expression, exp.Identifier):
            return value.expression.this
        if isinstance(value, exp.Bracket) and len(value.expressions) == 1 and not value.args.get("offset") \
                and isinstance(value.expressions[0], exp.Literal) and value.expressions[0].is_string:
            return value.expressions[0].this
        return f"col{index + 1}"

    def _named_struct_names(self, node: exp.Expression, span: tuple[int, int], count: int) -> list[str]:
        arguments = _call_arguments(self.scope.sql, span) or []
        if len(arguments) != 2 * count or not arguments:
            raise self.scope.error("WRONG_NUM_ARGS", "`named_struct` takes an even number of arguments, at least two",
                                   node)
        names = []
        for start, end in arguments[0::2]:
            name = _string_literal(self.scope.sql[start:end])
            if name is None:
                raise self.scope.error_at(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    "the field names of 'named_struct' between rows of a match must be string literals (Spark "
                    "requires foldable STRINGs: CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING)", start, end)
            names.append(name)
        return names
    # -- structs between rows (end) ------------------------------------------------------------

    def lower_bracket(self, node: exp.Bracket) -> p.Expression:
        """``element_at(x, i)`` (1-based for an array), ``try_element_at(x, i)`` and ``x[i]``
        (0-based for an array), of an array or a map (``map_value`` at binding, which knows
        which it is): sqlglot parses the three as ``exp.Bracket``."""
        span = dialect.span(node)
        if len(node.expressions) != 1 or any(node.args.get(k) for k in ("returns_list_for_maps", "json_access")):
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                "this subscript cannot combine values from different rows of a match in DEFINE", node)
        offset = node.args.get("offset") or 0
        name = "try_element_at" if node.args.get("safe") else "element_at" if offset == 1 else "subscript"
        if name == "try_element_at" and offset != 1:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                "this subscript cannot combine values from different rows of a match in DEFINE", node)
        return p.Operator(name, (self.lower_operand(node.this), self.lower_operand(node.expressions[0])), span=span)

    # -- the rest of the datetime functions (begin) --
    def lower_datetime_constructor(self, node: exp.Expression) -> p.Expression | None:
        """``timestamp_seconds``, ``timestamp_millis``, ``timestamp_micros``, ``make_dt_interval``,
        ``from_utc_timestamp``, ``to_utc_timestamp`` and ``convert_timezone``
        (``sparkcep.evaluation.datetime_constructors``); None for any other node. The parser
        wraps the operand of ``from_utc_timestamp`` / ``to_utc_timestamp`` in a CAST of its own
        (spanning no text of its own), dropped here: the binder casts as Spark does."""
        name = _anonymous_name(node)
        span = dialect.span(node)
        if isinstance(node, (exp.TimeDiff, exp.TimeTrunc)):
            name = _written_name(node, self.scope.sql).lower()
        if name in TIME_FUNCTIONS:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"'{name}' cannot combine values from different rows of a match in DEFINE: it makes or reads "
                "a TIME value, a type Spark 4.3 refuses by default (UNSUPPORTED_TIME_TYPE; internal setting "
                "spark.sql.timeType.enabled) and sparkcep does not evaluate between rows; compute it inside the "
                "navigation, where Spark computes it per row (LAST(f(A.x)) instead of f(LAST(A.x)))", node)
        if name in DATETIME_CONSTRUCTORS:
            operands = list(node.expressions)
        elif isinstance(node, (exp.AtTimeZone, exp.FromTimeZone)):
            written = _written_name(node, self.scope.sql).lower()
            if written not in ("from_utc_timestamp", "to_utc_timestamp"):
                return None
            name, operand = written, node.this
            if isinstance(operand, exp.Cast) and dialect.span(operand) == dialect.span(operand.this):
                operand = operand.this
            operands = [operand, node.args.get("zone")]
        elif isinstance(node, exp.ConvertTimezone):
            name = "convert_timezone"
            operands = [node.args.get("source_tz"), node.args.get("target_tz"), node.args.get("timestamp")]
            if operands[0] is None:  # convert_timezone(target, ntz): from the session time zone
                return p.Operator(name, tuple(self.lower_operand(o) for o in operands[1:]), span=span)
        else:
            return None
        if any(o is None for o in operands):
            raise self.scope.error("WRONG_NUM_ARGS", f"`{name}` is called with too few arguments", node)
        return p.Operator(name, tuple(self.lower_operand(o) for o in operands), span=span)
    # -- the rest of the datetime functions (end) --

    # -- string casts (begin) --
    def lower_cast_function(self, node: exp.Expression) -> p.Expression | None:
        """The functions that are Spark's CAST when given no format (Spark's own definitions):
        ``to_date(x)`` is ``CAST(x AS DATE)``, ``to_timestamp_ntz(x)`` ``CAST(x AS
        TIMESTAMP_NTZ)``, ``try_to_timestamp(x)`` ``TRY_CAST(x AS TIMESTAMP)``, ``to_timestamp_ltz(x)``
        ``CAST(x AS TIMESTAMP)``, ``try_to_date(x)`` ``TRY_CAST(x AS DATE)`` (``to_timestamp(x)``
        parses as a CAST already); None for any other node (a format is not these casts)."""
        span = dialect.span(node)
        name = _anonymous_name(node)
        if isinstance(node, exp.TsOrDsToDate) and node.args.get("format") is None and node.this is not None \
                and span != dialect.span(node.this):  # not the TO_DATE the parser wraps around operands
            target, tried, operand = "DATE", False, node.this
        elif name in _CAST_FUNCTIONS and len(node.expressions) == 1:
            target, tried = _CAST_FUNCTIONS[name]
            operand = node.expressions[0]
        else:
            return None
        return p.Operator("explicit_cast", (self.lower_operand(operand),), options=(("to", target), ("try", tried)),
                          span=span)
    # -- string casts (end) --

    def lower_synonym(self, node: exp.Expression) -> p.Expression | None:
        """Spark functions that are another operator (Spark's own definitions): ``equal_null(a,
        b)`` is ``a <=> b``, ``negative(x)`` is ``-x``, ``isnull(x)`` / ``isnotnull(x)`` are ``x
        IS [NOT] NULL``, ``nullifzero(x)`` is ``nullif(x, 0)``, ``zeroifnull(x)`` is
        ``coalesce(x, 0)`` and ``btrim(s [, chars])`` is ``trim(BOTH [chars] FROM s)``; None for
        any other node."""
        span = dialect.span(node)
        if isinstance(node, exp.EqualNull):
            return p.Operator("null_safe_eq", (self.lower_operand(node.this), self.lower_operand(node.expression)),
                              span=span)
        if isinstance(node, exp.Negative):
            return p.Operator("neg", (self.lower_operand(node.this),), span=span)
        name = _anonymous_name(node)
        counts = SYNONYM_ARGUMENTS.get(name or "")
        if counts is None:
            return None
        arguments = list(node.expressions)
        if not counts[0] <= len(arguments) <= counts[1]:
            expected = str(counts[0]) if counts[0] == counts[1] else f"{counts[0]} or {counts[1]}"
            raise self.scope.error(
                "WRONG_NUM_ARGS", f"The `{_written_name(node, self.scope.sql)}` requires {expected} parameters but "
                f"the actual number is {len(arguments)}", node)
        operands = tuple(self.lower_operand(a) for a in arguments)
        if name in ("isnull", "isnotnull"):
            test = p.Operator("is", (operands[0], p.Constant(None)), span=span)
            return test if name == "isnull" else p.Operator("not", (test,), span=span)
        if name == "nullifzero":
            return p.Operator("nullif", (operands[0], p.Constant(0)), span=span)
        if name == "zeroifnull":
            return p.Operator("coalesce", (operands[0], p.Constant(0)), span=span)
        return p.Operator("trim", operands, options=(("side", "both"),), span=span)  # btrim

    def lower_strict_math(self, node: exp.Expression) -> p.Expression:
        """``ln``, ``log`` (one or two arguments), ``log10``, ``log2``, ``log1p``, ``exp``,
        ``expm1``, ``power`` / ``pow``, ``cbrt``, the inverse trigonometric and hyperbolic
        functions and ``hypot``, which Spark computes with Java's ``StrictMath``
        (``STRICT_MATH``)."""
        written = _written_name(node, self.scope.sql)
        name = "ln" if isinstance(node, exp.Ln) else STRICT_MATH[written.lower()]
        if isinstance(node, exp.Log):  # log(b, x); log10(x) and log2(x) parse with a base
            arguments = [node.expression] if name in ("log10", "log2") else [node.this, node.expression]
        elif isinstance(node, exp.Pow):
            arguments = [node.this, node.expression]
        elif isinstance(node, exp.Anonymous):
            arguments = list(node.expressions)
        else:
            arguments = [node.this] + [v for k, v in node.args.items() if k != "this" and v]
        expected = 2 if name in _BINARY_STRICT_MATH else 1
        if len(arguments) != expected or any(a is None for a in arguments):
            raise self.scope.error(
                "WRONG_NUM_ARGS",
                f"The `{written}` requires {expected} parameters but the actual number is "
                f"{len([a for a in arguments if a is not None])}", node)
        return p.Operator(name, tuple(self.lower_operand(a) for a in arguments), span=dialect.span(node))

    def lower_rounding(self, node: exp.Expression) -> p.Expression:
        """``round(x[, d])`` / ``bround(x[, d])``, and ``floor(x, d)`` / ``ceil(x, d)``: ``x``
        lowered, ``d`` (default 0) an integer literal, as Spark requires a constant scale
        (``DATATYPE_MISMATCH.NON_FOLDABLE_INPUT`` otherwise), within the range sparkcep
        evaluates exactly (``ROUNDING_SCALE``)."""
        if isinstance(node, (exp.Floor, exp.Ceil)):
            name = "floor" if isinstance(node, exp.Floor) else "ceil"
            value, scale = node.this, node.args.get("decimals")
            extra = [k for k, v in node.args.items() if v and k not in ("this", "decimals")]
            written = _written_name(node, self.scope.sql)
        elif isinstance(node, exp.Round):
            name = written = "round"
            value, scale = node.this, node.args.get("decimals")
            extra = [k for k, v in node.args.items() if v and k not in ("this", "decimals")]
        else:
            name = written = "bround"
            arguments = list(node.expressions)
            value = arguments[0] if arguments else None
            scale = arguments[1] if len(arguments) > 1 else None
            extra = arguments[2:]
        if value is None or extra:
            raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                   f"'{written}' takes a number and an optional scale", node)
        digits = 0 if scale is None else _integer_literal(scale)
        if digits is None or not -ROUNDING_SCALE <= digits <= ROUNDING_SCALE:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"the scale of '{written}' between rows of a match must be an integer literal from "
                f"{-ROUNDING_SCALE} to {ROUNDING_SCALE} (Spark requires a constant scale)", scale)
        return p.Operator(name, (self.lower_operand(value),),
                          options=(("scale", digits), ("mode", ROUNDING[name])), span=dialect.span(node))

    def lower_date_add(self, node: exp.TsOrDsAdd, written: str) -> p.Expression:
        """``date_add(d, n)`` / ``dateadd(d, n)``, and ``date_sub(d, n)``, which the parser writes
        as ``date_add(d, n * -1)``: the plan operator ``date_sub`` of n itself, as Spark's
        ``DateSub`` (its INT subtraction wraps around as Spark's does)."""
        unit = node.args.get("unit")
        days = node.expression
        subtract = written.lower() == "date_sub"
        if subtract:
            if not (isinstance(days, exp.Mul) and isinstance(days.expression, exp.Neg)):
                raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                       f"'{written}' takes a date and a number of days", node)
            days = days.this
        if written.lower() not in ("date_add", "dateadd", "date_sub") or \
                (unit is not None and unit.name.upper() != "DAY"):
            raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                   f"'{written}' with these arguments cannot combine values from different "
                                   "rows of a match in DEFINE; date_add(d, n) and date_sub(d, n) can", node)
        return p.Operator("date_sub" if subtract else "date_add",
                          (self.lower_operand(node.this), self.lower_operand(days)), span=dialect.span(node))

    def lower_months_between(self, node: exp.MonthsBetween, written: str) -> p.Expression:
        """``months_between(end, start [, roundOff])``: roundOff, when written, must be the
        literal TRUE or FALSE (an option of the plan operator)."""
        round_off = node.args.get("roundoff")
        if round_off is not None and not isinstance(round_off, exp.Boolean):
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"the roundOff of '{written}' between rows of a match must be the literal TRUE or FALSE",
                round_off)
        options = (("round_off", round_off is None or bool(round_off.this)),)
        return p.Operator("months_between", (self.lower_operand(node.this), self.lower_operand(node.expression)),
                          options=options, span=dialect.span(node))

    def lower_datetime_field(self, node: exp.Expression) -> p.Expression:
        """``extract(field FROM x)``, ``date_part(field, x)`` / ``datepart``: the plan operator of
        the field (``p.EXTRACT_FIELDS``; Spark requires the field to be a constant)."""
        written = _written_name(node, self.scope.sql)
        if isinstance(node, exp.Extract):
            field_node, source = node.this, node.expression
            name = field_node.name if isinstance(field_node, (exp.Var, exp.Column, exp.Identifier)) else None
        else:
            if len(node.expressions) != 2:
                raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes two arguments", node)
            field_node, source = node.expressions
            name = field_node.this if isinstance(field_node, exp.Literal) and field_node.is_string else None
        if name is None:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"the field of '{written}' must be a constant, such as 'HOUR'", field_node)
        operator = p.EXTRACT_FIELDS.get(name.upper())
        if operator is None:
            raise self.scope.error(
                "INVALID_EXTRACT_FIELD",
                f"'{written}' has no field {name}; the fields are YEAR, YEAROFWEEK, QUARTER, MONTH, WEEK, DAY, "
                "DAYOFWEEK, DAYOFWEEK_ISO, DOY, HOUR, MINUTE and SECOND (and their abbreviations)", field_node)
        return p.Operator(operator, (self.lower_operand(source),), span=dialect.span(node))

    # -- datetime patterns (begin) -------------------------------------------------------------
    def lower_datetime_pattern(self, node: exp.Expression) -> p.Expression | None:
        """``date_format`` / ``to_char`` / ``to_varchar`` (of a date or timestamp),
        ``from_unixtime``, ``to_date``, ``to_timestamp`` / ``to_timestamp_ltz``,
        ``to_timestamp_ntz``, ``try_to_timestamp``, ``try_to_date``, ``unix_timestamp`` /
        ``to_unix_timestamp``: the plan operator ``PATTERN_FUNCTIONS[name]`` of the first
        argument, with the pattern as an option (``pattern``, its offsets ``pattern_at``; None
        for the default of ``from_unixtime`` and ``unix_timestamp``). The pattern must be a
        string literal: the parser rewrites it (into strftime's notation) and reads ``'a''b'`` as
        two literals where Spark reads one, so it is read here from the statement's text, as one
        string token. None when ``node`` is not one of these calls (``to_date(x)`` without a
        pattern is a cast, lowered elsewhere)."""
        name = _anonymous_name(node)
        if not (isinstance(node, _PATTERN_NODES) or name in PATTERN_CALLS):
            return None
        written = _written_name(node, self.scope.sql)
        operator, parsing, least = PATTERN_CALLS.get(written.lower(), (None, False, 2))
        if operator is None:
            return None
        arguments = _call_arguments(self.scope.sql, dialect.span(node))
        if arguments is None or len(arguments) < least:
            if written.lower() == "to_date":
                return None
            raise self._pattern_refusal(node, written)
        if len(arguments) > 2:
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` takes at most two arguments", node)
        operand = node.expressions[0] if isinstance(node, exp.Anonymous) else node.this
        if isinstance(operand, exp.TimeStrToTime) and dialect.find_span(operand) == dialect.find_span(operand.this):
            operand = operand.this  # the parser's own wrapper around date_format's operand
        options: tuple = (("function", written.lower()),)
        if len(arguments) == 2:
            start, end = arguments[1]
            pattern = _string_literal(self.scope.sql[start:end])
            if pattern is None:
                raise self.scope.error_at(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"the pattern of '{written}' between rows of a match must be one string literal, such as "
                    "'yyyy-MM-dd HH:mm' (a quote inside it written \\' or inside a \"...\" literal)", start, end)
            options += (("pattern", pattern), ("pattern_at", (start, end)))
        else:
            options += (("pattern", None), ("pattern_at", dialect.span(node)))
        return p.Operator(operator, (self.lower_operand(operand),), options=options, span=dialect.span(node))

    def _pattern_refusal(self, node: exp.Expression, written: str):
        if written.lower() in ("date_format", "to_char", "to_varchar"):  # Spark: WRONG_NUM_ARGS too
            return self.scope.error("WRONG_NUM_ARGS", f"The `{written}` requires 2 parameters but the actual "
                                                      "number is 1", node)
        return self.scope.error(
            "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
            f"'{written}' without a pattern cannot combine values from different rows of a match in DEFINE "
            "(Spark casts the string); give the pattern, or apply it inside the navigation", node)
    # -- datetime patterns (end) ---------------------------------------------------------------

    def lower_date_trunc(self, node: exp.TimestampTrunc, written: str) -> p.Expression:
        """``date_trunc(unit, x)``: the unit, a STRING operand, must be written as a string
        literal here (the parser keeps only its name, and would keep a column's name the same
        way, so the literal is read from the statement's text)."""
        start, _end = dialect.span(node)
        operand_start = dialect.span(node.this)[0]
        opening = self.scope.sql.find("(", start, operand_start)
        unit = self.scope.sql[opening + 1:operand_start].strip().removesuffix(",").strip()
        literal = re.fullmatch(r"'([A-Za-z]*)'|\"([A-Za-z]*)\"", unit)
        if opening < 0 or literal is None:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"the unit of '{written}' between rows of a match must be a string literal, such as 'HOUR'", node)
        constant = p.Constant(literal.group(1) if literal.group(1) is not None else literal.group(2))
        return p.Operator("date_trunc", (constant, self.lower_operand(node.this)), span=dialect.span(node))

    def lower_timestampdiff(self, node: exp.Expression, written: str) -> p.Expression:
        """``timestampdiff(unit, start, end)``, also written ``datediff(unit, start, end)``: the
        unit is an option of the plan operator (``p.TIMESTAMPDIFF_UNITS``)."""
        unit = node.args["unit"]
        name = (unit.name if isinstance(unit, (exp.Var, exp.Column, exp.Identifier)) else unit.sql()).lower()
        if name not in p.TIMESTAMPDIFF_UNITS:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"'{written}' in {unit.sql().upper()} cannot combine values from different rows of a "
                f"match in DEFINE; the units are {', '.join(u.upper() for u in p.TIMESTAMPDIFF_UNITS)}",
                node)
        start, end = _written_operand(node.expression), _written_operand(node.this)
        return p.Operator("timestampdiff", (self.lower_operand(start), self.lower_operand(end)),
                          options=(("unit", name),), span=dialect.span(node))

    def lower_string_match(self, node: exp.Expression) -> p.Expression:
        """``[NOT] LIKE | ILIKE [ANY | SOME | ALL] [ESCAPE 'c']`` and ``RLIKE`` / ``REGEXP`` /
        ``regexp_like`` / ``regexp`` as Spark's parser builds them: ``ESCAPE`` must be one
        character; ``x LIKE ANY (p1, p2)`` is ``x LIKE p1 OR x LIKE p2`` (ALL: AND), each
        negated for ``NOT LIKE ANY/ALL``. A pattern written as a string literal is checked here
        (Spark compiles a constant pattern before it reads any row)."""
        span = dialect.span(node)
        escape = None
        if isinstance(node, exp.Escape):
            escape = self.escape_character(node.expression)
            node = node.this
            if not isinstance(node, (exp.Like, exp.ILike)) or isinstance(node.expression, (exp.Any, exp.All)):
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    "ESCAPE applies only to a single LIKE or ILIKE pattern here", node)
        if isinstance(node, exp.Anonymous):  # regexp(x, p)
            if len(node.expressions) != 2:
                raise self.scope.error("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                                       f"'{node.name}' takes a string and a pattern", node)
            subject, pattern, name, negate = node.expressions[0], node.expressions[1], "rlike", False
        else:
            extra = [k for k, v in node.args.items() if v and k not in ("this", "expression", "negate")]
            if extra:  # e.g. regexp_like(x, p, flags)
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"'{_written_name(node, self.scope.sql)}' with these arguments cannot combine "
                    "values from different rows of a match in DEFINE", node)
            subject, pattern, name = node.this, node.expression, GLUE[type(node)]
            negate = bool(node.args.get("negate"))
        options = (("escape", escape),) if escape is not None else ()
        quantified = isinstance(pattern, (exp.Any, exp.All))
        patterns = _quantified_patterns(pattern) if quantified else [pattern]
        value = self.lower_operand(subject)
        matches = []
        for each in patterns:
            self.check_constant_pattern(name, each, escape or "\\")
            match = p.Operator(name, (value, self.lower_operand(each)), options=options, span=span)
            matches.append(p.Operator("not", (match,), span=span) if negate else match)
        if not quantified:
            return matches[0]
        if len(matches) == 1:
            return matches[0]
        return p.Operator("or" if isinstance(pattern, exp.Any) else "and", tuple(matches), span=span)

    def lower_regex_function(self, node: exp.Expression) -> p.Expression:
        """``regexp_extract(s, p[, idx])`` (idx 1 when omitted), ``regexp_replace(s, p, r[,
        position])`` (position an integer literal from 1, as Spark requires a constant one),
        ``regexp_count(s, p)``, ``regexp_substr(s, p)`` and ``regexp_instr(s, p[, idx])``
        (``sparkcep.evaluation.regex_functions``). A pattern written as a string literal is
        checked here, at the pattern, as for RLIKE; so is a literal replacement's ``${name}``."""
        name = REGEX_FUNCTIONS[type(node)]
        written = _written_name(node, self.scope.sql)
        allowed = {"regexp_extract": ("this", "expression", "group"),
                   "regexp_replace": ("this", "expression", "replacement", "position"),
                   "regexp_instr": ("this", "expression", "position")}.get(name, ("this", "expression"))
        extra = [k for k, v in node.args.items() if v is not None and k not in allowed
                 and k != "null_if_pos_overflow"]
        if extra or node.args.get("expression") is None or (
                name == "regexp_replace" and node.args.get("replacement") is None):
            arguments = [v for k, v in node.args.items() if isinstance(v, exp.Expression)]
            expected = "2" if len(allowed) == 2 else f"{len(allowed) - 1} or {len(allowed)}"
            raise self.scope.error(
                "WRONG_NUM_ARGS",
                f"The `{written}` requires {expected} parameters but the actual number is {len(arguments)}",
                node)
        subject, pattern = node.this, node.expression
        self.check_constant_pattern("rlike", pattern, "\\")  # the same Java patterns as RLIKE
        operands = [self.lower_operand(subject), self.lower_operand(pattern)]
        if name == "regexp_extract":
            group = node.args.get("group")
            operands.append(self.lower_operand(group) if group is not None else p.Constant(1))
        elif name == "regexp_instr" and node.args.get("position") is not None:
            operands.append(self.lower_operand(node.args["position"]))
        elif name == "regexp_replace":
            replacement = node.args["replacement"]
            if isinstance(replacement, exp.Literal) and replacement.is_string:
                from sparkcep.errors import MatchRuntimeError
                from sparkcep.plan.java_regex import check_replacement

                try:
                    check_replacement(replacement.this)
                except MatchRuntimeError as error:
                    raise self.scope.error(error.code, error.message, replacement) from None
            operands.append(self.lower_operand(replacement))
            operands.append(p.Constant(self.regexp_replace_position(node, written)))
        return p.Operator(name, tuple(operands), span=dialect.span(node))

    def regexp_replace_position(self, node: exp.Expression, written: str) -> int:
        """The position of ``regexp_replace``: an integer literal from 1 to 2147483647, as Spark
        checks a constant one (``DATATYPE_MISMATCH``, at the position)."""
        position = node.args.get("position")
        if position is None:
            return 1
        value = _integer_literal(position)
        if value is None:
            raise self.scope.error(
                "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                f"the position of '{written}' between rows of a match must be an integer literal "
                "(Spark requires a constant position)", position)
        if not 0 < value <= (1 << 31) - 1:
            raise self.scope.error(
                "DATATYPE_MISMATCH",
                f"Cannot resolve \"{written}\" due to data type mismatch: The position must be "
                f"between (0, 2147483647] (current value = {value})", position)
        return value

    def escape_character(self, node: exp.Expression) -> str:
        if not (isinstance(node, exp.Literal) and node.is_string and len(node.this) == 1):
            raise self.scope.error(
                "INVALID_ESCAPE_CHARACTER",
                "the ESCAPE of LIKE/ILIKE must be a string literal of exactly one character", node)
        return node.this

    def check_constant_pattern(self, name: str, pattern: exp.Expression, escape: str) -> None:
        """A pattern written as a string literal: invalid (or, for RLIKE, outside what sparkcep
        reproduces exactly) is an error at the pattern, before any row is read."""
        if not (isinstance(pattern, exp.Literal) and pattern.is_string):
            return
        from sparkcep.errors import MatchRuntimeError
        from sparkcep.plan.java_regex import compile_java_regex
        from sparkcep.plan.like_pattern import like_regex

        try:
            if name == "rlike":
                compile_java_regex(pattern.this)
            else:  # ILIKE lowers the pattern as Spark's ``lower`` (``operators.lower``)
                like_regex(pattern.this.lower() if name == "ilike" else pattern.this, escape)
        except MatchRuntimeError as error:
            raise self.scope.error(error.code, error.message, pattern) from None

    def lower_operand(self, node: exp.Expression | list) -> p.Expression:
        if isinstance(node, list):
            return p.Operator("list", tuple(self.lower_operand(n) for n in node))
        if node is None:
            return p.Constant(None)
        return self.lower_dependent(node, self.classify(node))

    # ----------------------------------------------------------------------------------------
    # Aggregates (DEFINE and MEASURES)
    # ----------------------------------------------------------------------------------------

    def aggregate(self, node: exp.Expression, final: bool) -> p.Aggregate:
        inner = node.this if isinstance(node, dx.RunningFinal) else node
        function = _python_aggregate_name(inner, define=self.current is not None)
        if function is None:
            raise self.unsupported_aggregate(inner, "here")
        argument = inner.this
        if function in ("min_by", "max_by"):
            return self.extremum_by(inner, function)
        if isinstance(inner, exp.Anonymous):
            if len(inner.expressions) != 1:
                raise self.scope.error(
                    "UNSUPPORTED_AGGREGATE",
                    f"{function.upper()} takes a single argument inside MATCH_RECOGNIZE",
                    inner,
                )
            return self.aggregate_over(inner, function, inner.expressions[0], False, final)
        if argument is None and function == "count":
            argument = exp.Star()  # COUNT() is COUNT(*), as in Trino: the rows of the match
        if argument is None:
            raise self.scope.error(
                "AGGREGATE_ARGUMENTS", f"{function.upper()} needs an argument", inner
            )
        distinct = False
        if isinstance(argument, exp.Distinct):
            distinct = True
            if len(argument.expressions) != 1:
                raise self.scope.error(
                    "UNSUPPORTED_AGGREGATE", "DISTINCT takes exactly one argument here", argument
                )
            argument = argument.expressions[0]
        extra = [a for k, a in inner.args.items() if k not in ("this", "big_int", "nulls_excluded")
                 and a]
        if extra and function in ("min", "max"):  # Trino's min(x, n) / max(x, n): Spark's error
            raise self.scope.error(
                "WRONG_NUM_ARGS",
                f"The `{function}` requires 1 parameters but the actual number is "
                f"{1 + len(inner.expressions)} (the n {'least' if function == 'min' else 'greatest'} "
                f"values, Trino's {function}(x, n), are not a Spark function)",
                inner,
            )
        if extra:
            raise self.scope.error(
                "UNSUPPORTED_AGGREGATE",
                f"{function.upper()} takes a single argument inside MATCH_RECOGNIZE",
                inner,
            )
        return self.aggregate_over(inner, function, argument, distinct, final)

    def aggregate_over(
        self, inner: exp.Expression, function: str, argument: exp.Expression, distinct: bool,
        final: bool,
    ) -> p.Aggregate:
        if function == "count" and isinstance(argument, exp.Star):
            return p.Aggregate("count", None, None, False, final)
        if function == "count" and isinstance(argument, exp.Column) and isinstance(argument.this, exp.Star):
            return p.Aggregate("count", self.qualifier(argument), None, False, final)
        self.check_no_nested(argument, f"{function.upper()}(...)", allow_logical=False)
        sets = self.consistent_set(inner, argument, f"{function.upper()}(...)")
        variables = next(iter(sets)) if sets else None
        column = self.value_column(argument)
        return p.Aggregate(function, variables, column, distinct, final)

    def extremum_by(self, inner: exp.Expression, function: str) -> p.Aggregate:
        """``min_by(x, y)`` / ``max_by(x, y)`` in DEFINE: x of the row of the least / greatest y
        (RUNNING, over the rows so far); x and y must read the same pattern variable."""
        name = _function_name(inner, self.scope.sql)
        count = self.top_count(inner.args.get("count"))
        argument, ordering = inner.this, inner.expression
        what = f"{name}(...)"
        if argument is None or ordering is None:
            raise self.scope.error("WRONG_NUM_ARGS", f"`{name}` requires 2 or 3 parameters (x, y[, k])", inner)
        self.check_no_nested(argument, what, allow_logical=False)
        self.check_no_nested(ordering, what, allow_logical=False)
        sets = self.consistent_set(inner, argument, what) | self.consistent_set(inner, ordering, what)
        variables = self.one_variable_set(sets, what, inner)
        return p.Aggregate(function, variables, self.value_column(argument), False, False,
                           ordering=self.value_column(ordering), count=count,
                           span=dialect.span(inner) if count is not None else None)

    def top_count(self, k: exp.Expression | None) -> int | None:
        """The k of ``min_by(x, y, k)`` / ``max_by(x, y, k)`` (None without one), checked as Spark
        checks it when it analyses the call: a constant (a column is Spark's
        ``DATATYPE_MISMATCH.NON_FOLDABLE_INPUT``) from 1 to 100,000 (NULL counts as 0:
        ``DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE``); an integer literal beyond INT is Spark's
        ``CAST_OVERFLOW``. Spark also folds other constants (``1 + 1``, ``'2'``, ``2.5``); DEFINE
        takes an integer literal only."""
        if k is None:
            return None
        if isinstance(k, exp.Null):
            value = 0
        else:
            negative = isinstance(k, exp.Neg)
            literal = k.this if negative else k
            if not (isinstance(literal, exp.Literal) and not literal.is_string
                    and re.fullmatch(r"\d+", literal.this)):
                if any(isinstance(n, exp.Column) for n in k.walk()):
                    raise self.scope.error(
                        "DATATYPE_MISMATCH",
                        "the input k should be a foldable int expression; however, got "
                        f"{self.scope.sql[slice(*dialect.span(k))]}", k)
                raise self.scope.error(
                    "UNSUPPORTED_AGGREGATE",
                    "the k of MIN_BY / MAX_BY in DEFINE must be an integer literal", k)
            value = -int(literal.this) if negative else int(literal.this)
            if not -2**31 <= value < 2**31:
                raise self.scope.error(
                    "CAST_OVERFLOW",
                    f'The value {value}L of the type "BIGINT" cannot be cast to "INT" due to an '
                    "overflow", k)
        if not 1 <= value <= TOP_COUNT_LIMIT:
            raise self.scope.error(
                "DATATYPE_MISMATCH",
                f"The `k` must be between [1, {TOP_COUNT_LIMIT}] (current value = {value})", k)
        return value

    def define_aggregate(self, node: exp.Expression) -> p.Expression:
        """An aggregate in DEFINE, computed in Python with RUNNING semantics: over a column
        (``aggregate``) or over CLASSIFIER() / MATCH_NUMBER() of each row."""
        inner = node.this if isinstance(node, dx.RunningFinal) else node
        function = _python_aggregate_name(inner, define=True)
        argument = inner.this if function is not None else None
        if isinstance(inner, exp.Anonymous):
            argument = inner.expressions[0] if inner.expressions else None
        distinct = isinstance(argument, exp.Distinct) and len(argument.expressions) == 1
        if distinct:
            argument = argument.expressions[0]
        label = self.call(argument) if isinstance(argument, exp.Expression) else None
        if label is None or label.name not in ("CLASSIFIER", "MATCH_NUMBER"):
            if function is None:
                raise self.unsupported_aggregate(inner, "in DEFINE")
            return self.aggregate(node, final=False)
        what = label.name.lower()
        if function not in _LABEL_AGGREGATES[what]:
            raise self.scope.error(
                "UNSUPPORTED_AGGREGATE",
                f"{_function_name(inner, self.scope.sql)} cannot aggregate {label.name}() in "
                f"DEFINE; supported: {', '.join(sorted(_LABEL_AGGREGATES[what])).upper()}",
                inner,
            )
        variables = None
        if label.argument is not None:
            variables = self.scope.resolve(_name_identifier(label.argument))
        return p.LabelAggregate(function, variables, what, distinct)

    def unsupported_aggregate(self, inner: exp.Expression, where: str):
        name = _function_name(inner, self.scope.sql)
        return self.scope.error(
            "UNSUPPORTED_AGGREGATE",
            f"aggregate {name} is not supported {where}; DEFINE supports COUNT, SUM, AVG, MIN, "
            "MAX, COLLECT_LIST/ARRAY_AGG, COUNT_IF, BOOL_AND/EVERY, BOOL_OR/SOME, ANY_VALUE, "
            "MIN_BY, MAX_BY "
            "(MEASURES: every Spark aggregate)",
            inner,
        )

    def navigated_label(self, call: Call, final: bool = False) -> p.NavigatedLabel | None:
        """``CLASSIFIER()`` or ``MATCH_NUMBER()`` as the whole argument of a navigation:
        FIRST/LAST(CLASSIFIER([X]), k), PREV/NEXT(CLASSIFIER([X]), m) and
        PREV/NEXT(FIRST/LAST(CLASSIFIER([X]), k), m) (ISO/IEC 19075-5, 5.6); else None."""
        if call.name not in ("PREV", "NEXT", "FIRST", "LAST"):
            return None
        shift = 0
        logical = call
        if call.name in ("PREV", "NEXT"):
            shift = -call.offset if call.name == "PREV" else call.offset
            inner = self.call(_unparenthesised(call.argument))
            if inner is not None and inner.name in ("FIRST", "LAST"):
                logical = inner
                final = final or self.final_of(inner.node)
        target = self.call(_unparenthesised(logical.argument))
        if target is None or target.name not in ("CLASSIFIER", "MATCH_NUMBER"):
            return None
        if self.current is not None and final:
            raise self.scope.error(
                "FINAL_IN_DEFINE", "FINAL semantics cannot be used in DEFINE", call.node
            )
        if shift and self.window is None:
            raise self.scope.error(
                "NAVIGATION_REQUIRES_ORDER_BY",
                f"{call.name} needs the MATCH_RECOGNIZE clause to have an ORDER BY",
                call.node,
            )
        variables = None
        if target.argument is not None:
            variables = self.scope.resolve(_name_identifier(target.argument))
        # PREV/NEXT(CLASSIFIER()) moves from the current row: the implicit LAST(..., 0)
        from_start = logical.name == "FIRST"
        offset = logical.offset if logical.name in ("FIRST", "LAST") else 0
        return p.NavigatedLabel(
            target.name.lower(), variables, from_start, offset, shift, final
        )

    def python_aggregate(self, inner: exp.Expression) -> bool:
        """Does Python compute this MEASURES aggregate (COUNT/SUM/AVG/MIN/MAX/COLLECT_LIST
        over a column, one argument)? Else Spark does, over the match's rows."""
        if type(inner) not in AGGREGATES:
            return False
        extra = [a for k, a in inner.args.items()
                 if k not in ("this", "big_int", "nulls_excluded") and a]
        if extra:
            return False
        return not any(
            (c := self.call(n)) is not None and c.name in ("CLASSIFIER", "MATCH_NUMBER")
            for n in inner.walk()
        )

    def spark_aggregate(self, node: exp.Expression, final: bool, component) -> str:
        """A MEASURES aggregate Spark computes: Python lists the match's rows (RUNNING: up to
        the current row; FINAL: all) mapped to the aggregate's variable as structs of the
        values it reads (``p.MatchRows``), and the measure applies the user's own aggregate
        text to them: ``(SELECT max_by(r.f0, r.f1) FROM explode(<rows>) AS e(r))``. So every
        Spark aggregate, with Spark's own semantics, is available in MEASURES."""
        inner = node.this if isinstance(node, dx.RunningFinal) else node
        name = _function_name(inner, self.scope.sql)
        what = f"{name}(...)"
        arguments = list(inner.iter_expressions())
        if isinstance(inner, exp.Filter):
            arguments = [*inner.this.iter_expressions(), inner.expression]
        for argument in arguments:
            self.check_no_nested(argument, what, allow_logical=False, allow_labels=True)
        fields: list = []
        sets: set = set()
        splicer = Splicer(self.scope.sql)
        row = quote_identifier(f"{PREFIX_ROW}r")
        marks: list[tuple[int, int, int]] = []  # (start, end, field): for the registration check

        def field(source) -> str:
            if source not in fields:
                fields.append(source)
            return f"{row}.{quote_identifier(f'f{fields.index(source)}')}"

        def visit(n: exp.Expression) -> None:
            call = self.call(n)
            if call is not None and call.name in ("CLASSIFIER", "MATCH_NUMBER"):
                if call.argument is not None:
                    sets.add(self.scope.resolve(_name_identifier(call.argument)))
                splicer.replace(*dialect.span(n), field(call.name.lower()))
                marks.append((*dialect.span(n), fields.index(call.name.lower())))
                return
            if isinstance(n, exp.Column):
                self.reject_star(n)
                sets.add(self.qualifier(n))
                column = self.value_column(n)
                splicer.replace(*dialect.span(n), field(column))
                marks.append((*dialect.span(n), fields.index(column)))
                return
            for child in n.iter_expressions():
                visit(child)

        for child in inner.iter_expressions():
            visit(child)
        variables = self.one_variable_set(sets, what, inner)
        if not fields:  # count(*) FILTER (WHERE true): the rows are all it needs
            fields.append("match_number")
        match_rows = p.MatchRows(variables, tuple(fields), final)
        rows = component(match_rows)
        text = splicer.render(*dialect.span(inner))
        self.spark_aggregates.setdefault(match_rows, []).append(
            _segments(self.scope.sql, *dialect.span(inner), marks)
        )
        exploded = f"{quote_identifier(PREFIX_ROW + 'e')}({row})"
        # a row WITH UNMATCHED ROWS has no match: its measures are NULL, not an empty aggregate
        return f"IF({rows} IS NULL, NULL, (SELECT {text} FROM explode({rows}) AS {exploded}))"

    # ----------------------------------------------------------------------------------------
    # MEASURES
    # ----------------------------------------------------------------------------------------

    def lower_measure(
        self, node: exp.Expression, components: list[p.Expression], one_row: bool
    ) -> str:
        """The Spark SQL of a measure over the function's output: the user's text with every
        match-dependent part replaced by a component column (appended to ``components``)."""
        self.current = None
        self.reject_star_expansion(node)
        splicer = Splicer(self.scope.sql)

        def component(expression: p.Expression) -> str:
            if expression not in components:
                components.append(expression)
            return quote_identifier(f"__sparkcep_c{components.index(expression)}")

        def visit(n: exp.Expression) -> None:
            if is_subquery(n):
                return  # evaluated by Spark over the function's output, as written
            final = one_row or self.final_of(n)
            if n is node and is_match_frame_value(n):
                splicer.replace(*dialect.span(n), component(self.match_frame_value(n)))
                return
            if isinstance(n, dx.MatchStatus):  # WITH TIMED OUT MATCHES (analysis checked)
                splicer.replace(*dialect.span(n), component(p.MatchStatus()))
                return
            if isinstance(n, dx.UncertainMatchFunction):  # UNCERTAIN TIME (analysis checked)
                uncertain = p.Confidence() if n.this == "CONFIDENCE" else p.MatchTimeRange(
                    UNCERTAIN_BOUNDS[n.this])
                splicer.replace(*dialect.span(n), component(uncertain))
                return
            call = self.call(n)
            if call is not None:
                splicer.replace(*dialect.span(n), component(self.measure_call(call, final)))
                return
            if isinstance(n, dx.RunningFinal) and not (
                isinstance(n.this, exp.AggFunc) or is_aggregate(n.this)
            ):
                raise self.scope.error(
                    "RUNNING_FINAL_TARGET",
                    "RUNNING and FINAL apply only to FIRST, LAST and aggregate functions",
                    n,
                )
            if isinstance(n, exp.Filter) and _is_any_aggregate(n.this):
                # agg(...) FILTER (WHERE ...): Spark filters the match's rows, then aggregates
                splicer.replace(*dialect.span(n), self.spark_aggregate(n, final, component))
                return
            inner = n.this if isinstance(n, dx.RunningFinal) else n
            if isinstance(inner, exp.AggFunc) or is_aggregate(inner):
                if self.python_aggregate(inner):
                    splicer.replace(*dialect.span(n), component(self.aggregate(n, final)))
                else:
                    splicer.replace(*dialect.span(n), self.spark_aggregate(n, final, component))
                return
            if isinstance(n, exp.Window):
                raise self.scope.error(
                    "WINDOW_FUNCTION_IN_MATCH_RECOGNIZE",
                    "window functions cannot be used in DEFINE or MEASURES",
                    n,
                )
            if isinstance(n, exp.Column):
                self.reject_star(n)
                nav = p.Navigation(self.qualifier(n), False, 0, self.value_column(n), final)
                splicer.replace(*dialect.span(n), component(nav))
                return
            for child in n.iter_expressions():
                visit(child)

        visit(node)
        start, end = dialect.span(node)
        return "(" + splicer.render(start, end) + ")"

    def match_frame_value(self, node: exp.Expression) -> p.Navigation:
        """``first_value(e)``, ``last_value(e)`` or ``nth_value(e, n)`` over a window with row
        pattern recognition (R020): e at the first, last or n-th row of the row's match, its
        window frame (ISO/IEC 19075-5, 6.5), NULL beyond it or where no match was found: the
        FINAL navigation FIRST(e), LAST(e), FIRST(e, n - 1) over the match's rows (a qualified
        column reads its variable's rows, as in SUM(A.x) OVER w)."""
        what = f"{_written_name(node, self.scope.sql)}(...)"
        argument = node.this
        self.check_no_nested(argument, what, allow_logical=False)
        sets = self.consistent_set(node, argument, what)
        variables = next(iter(sets)) if sets else None
        offset = int(node.args["offset"].this) - 1 if isinstance(node, exp.NthValue) else 0
        return p.Navigation(variables, not isinstance(node, exp.LastValue), offset,
                            self.value_column(argument), True)

    def measure_call(self, call: Call, final: bool) -> p.Expression:
        labelled = self.navigated_label(call, final)
        if labelled is not None:
            return labelled
        if call.name == "MATCH_NUMBER":
            return p.MatchNumber()
        if call.name == "CLASSIFIER":
            variables = None
            if call.argument is not None:
                variables = self.scope.resolve(_name_identifier(call.argument))
            return p.Classifier(variables, final)
        what = f"{call.name}(...)"
        self.check_no_nested(call.argument, what, allow_logical=call.name in ("PREV", "NEXT"))
        sets = self.consistent_set(call.node, call.argument, what)
        if not sets:
            raise self.scope.error(
                "NAVIGATION_WITHOUT_COLUMN",
                f"{call.name} needs a column reference in its argument",
                call.node,
            )
        (variables,) = sets
        if call.name in ("FIRST", "LAST"):
            return p.Navigation(
                variables, call.name == "FIRST", call.offset, self.value_column(call.argument), final
            )
        # PREV/NEXT: physical offset from the row a logical navigation (explicit, or the implicit
        # LAST of a plain reference) points to; lag/lead computes the shifted value per row.
        logical = next(
            (c for c in map(self.call, call.argument.walk()) if c is not None), None
        )
        from_start, offset = False, 0
        if logical is not None:
            from_start, offset = logical.name == "FIRST", logical.offset
            final = final or self.final_of(logical.node)
        column = self.values.add(self.render_call(call))
        self.physical_columns[column] = call.offset if call.name == "NEXT" else -call.offset
        return p.Navigation(variables, from_start, offset, column, final)


def shift_name(index: int) -> str:
    """The column holding shifted value ``index`` (PREV or NEXT over a stream)."""
    return f"__sparkcep_p{index}"


#: over a stream with NEXT: the ordering operator's event-time column, the time of the row that
#: let it release a row (its last NEXT successor), which the matching operator is watermarked on
RELEASE_COLUMN = "__sparkcep_release"


#: over a stream whose late rows are routed to a table (``runtime.stream_writer``): a late row of
#: the clause's input, whole (a struct of the relation's columns), beside the matches; NULL on
#: every other row
LATE_ROW_COLUMN = "__sparkcep_late_row"


def shift_argument_name(index: int) -> str:
    """The column holding the argument of shifted value ``index`` before it is shifted."""
    return f"__sparkcep_a{index}"


_NOT_LITERAL = object()

PREFIX_ROW = "__sparkcep_"

# Spark aggregate functions sqlglot does not parse as aggregates (it parses them as calls of
# unknown functions): inside MATCH_RECOGNIZE they aggregate the match's rows too.
SPARK_AGGREGATE_NAMES = frozenset({
    "every", "some", "bool_and", "bool_or", "histogram_numeric", "product", "try_sum", "try_avg",
    "count_min_sketch", "hll_sketch_agg", "hll_union_agg", "bitmap_construct_agg",
    "bitmap_or_agg", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2",
    "regr_sxx", "regr_sxy", "regr_syy", "approx_top_k", "kll_sketch_agg_bigint",
})


# Aggregates Python computes in DEFINE besides AGGREGATES (RUNNING, row by row); their Spark
# semantics are simple enough to be exact: see sparkcep.evaluation.interpreter.
DEFINE_AGGREGATES: dict[type, str] = {
    exp.CountIf: "count_if",
    exp.LogicalAnd: "bool_and",
    exp.LogicalOr: "bool_or",
    exp.AnyValue: "any_value",
    exp.ArgMin: "min_by",
    exp.ArgMax: "max_by",
}
DEFINE_AGGREGATE_NAMES = {"every": "bool_and", "bool_and": "bool_and", "some": "bool_or",
                          "bool_or": "bool_or"}


def _python_aggregate_name(inner: exp.Expression, define: bool) -> str | None:
    """The plan's name of an aggregate Python computes, or None."""
    function = AGGREGATES.get(type(inner))
    if function is None and define:
        function = DEFINE_AGGREGATES.get(type(inner))
        if function is None and is_aggregate(inner):
            function = DEFINE_AGGREGATE_NAMES.get(inner.name.lower())
    return function


MATCH_FRAME_VALUES = (exp.FirstValue, exp.LastValue, exp.NthValue)


def is_match_frame_value(node: exp.Expression) -> bool:
    """A value window function called over a window with row pattern recognition and compiled
    as one of its measures (``compiler.window``): only there is such a call a measure's whole
    expression with a window (or ``RESPECT NULLS``) around it; in MATCH_RECOGNIZE's MEASURES a
    window function is refused and ``first_value(x)`` alone is Spark's aggregate."""
    return isinstance(node, MATCH_FRAME_VALUES) and isinstance(
        node.parent, (exp.Window, exp.RespectNulls, dx.PatternWindowCall))


def is_aggregate(node: exp.Expression) -> bool:
    """An aggregate call sqlglot parses as an unknown function (``SPARK_AGGREGATE_NAMES``)."""
    return (isinstance(node, exp.Anonymous) and isinstance(node.this, str | exp.Identifier)
            and node.name.lower() in SPARK_AGGREGATE_NAMES)


def _combined_kind(node: exp.Expression, kinds: list[Kind]) -> Kind:
    """How ``node`` depends on the match, given how its operands do (``Lowering.classify``)."""
    kind = _one_row_kind(kinds)
    if kind.what == NAV and isinstance(node, NON_STRICT):
        return Kind(DEP)
    return kind


def _one_row_kind(kinds: list[Kind]) -> Kind:
    """What operands of these kinds read together: one navigated row (NAV), the current row
    (LOCAL), nothing (CONST), or more than one row (DEP); whether the function over them may be
    pushed into that row's navigation is its caller's to decide."""
    if any(k.what == DEP for k in kinds):
        return Kind(DEP)
    keys = {k.key for k in kinds if k.what == NAV}
    has_local = any(k.what == LOCAL for k in kinds)
    if len(keys) > 1 or (keys and has_local):
        return Kind(DEP)
    if keys:
        return Kind(NAV, keys.pop())
    return Kind(LOCAL) if has_local else Kind(CONST)


def _is_higher_order(node: exp.Expression) -> bool:
    """A function call with a lambda argument (``transform(a, x -> x + 1)``)."""
    return any(isinstance(child, exp.Lambda) for child in node.iter_expressions())


#: Spark's bound on the k of ``min_by(x, y, k)`` / ``max_by(x, y, k)`` (``MaxMinByK.MAX_K``)
TOP_COUNT_LIMIT = 100_000


def _function_name(node: exp.Expression, sql: str) -> str:
    """The function's name as the user wrote it (sqlglot may rename it, e.g. max_by)."""
    start, end = dialect.span(node)
    text = sql[start:end]
    return text.split("(", 1)[0].strip() or type(node).__name__.upper()


def _written_name(node: exp.Expression, sql: str) -> str:
    """The operator or function of ``node`` as the user wrote it, for messages: sqlglot's class
    names are not (``array_join`` parses as ArrayToString, ``||`` as DPipe, CAST as TryCast in
    some dialects)."""
    start, end = dialect.span(node)
    left, right = node.args.get("this"), node.args.get("expression")
    if isinstance(node, exp.Binary) and isinstance(left, exp.Expression) and isinstance(right, exp.Expression):
        between = sql[dialect.span(left)[1]:dialect.span(right)[0]].strip()
        while between.endswith("("):  # a parenthesised right operand
            between = between[:-1].strip()
        while between.startswith(")"):
            between = between[1:].strip()
        if between and between != ",":  # "," : a function call, regexp_like(a, b)
            return " ".join(between.split())
    written = re.match(r"\s*([A-Za-z_][\w.]*)\s*\(", sql[start:end])
    if written:
        return written.group(1)
    word = re.match(r"\s*([A-Za-z_]\w*)", sql[start:end])
    return word.group(1) if word else type(node).__name__.upper()


# Expressions that are boolean whatever their operands (Spark checks the operands' types).
_BOOLEAN_FORMS = (exp.Predicate, exp.Boolean, exp.Connector, exp.Not, exp.Exists)


# The aggregates DEFINE computes over CLASSIFIER() (a STRING) and MATCH_NUMBER() (a BIGINT) of
# each row, whose Spark semantics on that type Python reproduces exactly.
_LABEL_AGGREGATES = {
    "classifier": frozenset({"count", "min", "max", "collect_list", "any_value"}),
    "match_number": frozenset({"count", "min", "max", "sum", "collect_list", "any_value"}),
}


def _is_any_aggregate(node: exp.Expression) -> bool:
    return isinstance(node, exp.AggFunc) or is_aggregate(node)


def _segments(sql: str, start: int, end: int, marks: list[tuple[int, int, int]]) -> tuple:
    """``sql[start:end]`` as text pieces and, where ``marks`` say, field numbers."""
    pieces: list = []
    position = start
    for mark_start, mark_end, number in sorted(marks):
        pieces += [sql[position:mark_start], number]
        position = mark_end
    pieces.append(sql[position:end])
    return tuple(pieces)


def _unparenthesised(node: exp.Expression) -> exp.Expression:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _python_literal(node: exp.Expression):
    if isinstance(node, exp.Paren):
        return _python_literal(node.this)
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        text = node.this
        if "e" in text.lower():
            return _NOT_LITERAL  # 1E300 is a DOUBLE in Spark: Catalyst computes it as a column
        try:
            return int(text)
        except ValueError:
            pass
        try:
            from decimal import Decimal

            return Decimal(text)
        except Exception:
            return _NOT_LITERAL
    return _NOT_LITERAL


def _is_regexp_call(node: exp.Expression) -> bool:
    """``regexp(x, p)``, Spark's other name of ``x RLIKE p`` (sqlglot knows no such function)."""
    return (isinstance(node, exp.Anonymous) and isinstance(node.this, str | exp.Identifier)
            and node.name.lower() == "regexp")


def _quantified_patterns(node: exp.Any | exp.All) -> list[exp.Expression]:
    """The patterns of ``LIKE ANY (p1, p2, ...)``."""
    inner = node.this
    while isinstance(inner, exp.Paren) and not isinstance(inner.this, exp.Tuple):
        inner = inner.this
    if isinstance(inner, exp.Paren):
        inner = inner.this
    return list(inner.expressions) if isinstance(inner, exp.Tuple) else [inner]


# the scales of round/bround sparkcep evaluates (exactly, in Python's decimal arithmetic)
ROUNDING_SCALE = 1000


def _anonymous_name(node: exp.Expression) -> str | None:
    """The lower-case name of a function sqlglot does not model (``pmod``, ``bround``)."""
    if isinstance(node, exp.Anonymous) and isinstance(node.this, str | exp.Identifier):
        return node.name.lower()
    return None


def _integer_literal(node: exp.Expression) -> int | None:
    """The value of an integer literal, possibly negated and parenthesised (``-2``), else None."""
    if isinstance(node, exp.Paren):
        return _integer_literal(node.this)
    if isinstance(node, exp.Neg):
        inner = _integer_literal(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and not node.is_string and re.fullmatch(r"\d+", node.this):
        return int(node.this)
    return None


def _operands(node: exp.Expression) -> list:
    """Operands of a glue operator in the order ``sparkcep.evaluation`` expects."""
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    if isinstance(node, (exp.ConcatWs, exp.Array)):
        return list(node.expressions)
    if isinstance(node, exp.ArrayToString):
        return [node.this, node.expression] + ([node.args.get("null")] if node.args.get("null") else [])
    if isinstance(node, (exp.Sign, exp.Floor, exp.Ceil, exp.Sqrt, exp.Degrees, exp.Radians, exp.LastDay, exp.UnixDate,
                         exp.DateFromUnixDate, exp.Quarter, exp.Hour, exp.Minute, exp.Second, exp.UnixSeconds,
                         exp.UnixMillis, exp.UnixMicros, exp.IsNan, exp.Initcap, exp.StrToUnix,
                         exp.ArraySize, exp.ArrayDistinct, exp.ArrayMax, exp.ArrayMin, exp.Dayname, exp.Monthname)):
        return [node.this]  # unix_timestamp's format is not read for a DATE or TIMESTAMP
    if isinstance(node, (exp.Year, exp.Month, exp.Day, exp.DayOfMonth, exp.DayOfWeek, exp.DayOfYear,
                         exp.WeekOfYear)):  # the parser wraps the operand in a TO_DATE of its own
        return [_written_operand(node.this)]
    if isinstance(node, exp.Nanvl):
        return [node.this, node.expression]
    if isinstance(node, exp.ParseUrl):
        return [node.this, node.args.get("part_to_extract")] + ([node.args["key"]] if node.args.get("key") else [])
    if isinstance(node, exp.Elt):
        return [node.this, *node.expressions]
    if isinstance(node, exp.WidthBucket):
        return [node.this, node.args.get("min_value"), node.args.get("max_value"), node.args.get("num_buckets")]
    if isinstance(node, exp.MapContainsKey):
        return [node.this, node.args.get("key")]
    if isinstance(node, exp.ArraySlice):  # slice(arr, start, length)
        return [node.this, node.args.get("start"), node.args.get("end")]
    if isinstance(node, (exp.Coalesce, exp.Greatest, exp.Least)):
        return [node.this, *node.expressions]
    if isinstance(node, exp.Concat):
        return list(node.expressions)
    if isinstance(node, exp.In):
        return [node.this, list(node.expressions)]
    if isinstance(node, exp.Between):
        return [node.this, node.args.get("low"), node.args.get("high")]
    if isinstance(node, exp.Substring):
        return [node.this, node.args.get("start")] + ([node.args.get("length")] if node.args.get("length") else [])
    if isinstance(node, (exp.Lower, exp.Upper, exp.Length, exp.Reverse, exp.BitwiseNot, exp.BitwiseCount, exp.Ascii,
                         exp.BitLength, exp.MD5, exp.SHA)):
        return [node.this]
    if isinstance(node, exp.Chr):
        return list(node.expressions)
    if isinstance(node, exp.SHA2):  # sha2(x) alone is refused at binding (Spark: WRONG_NUM_ARGS)
        return [node.this] + ([node.args.get("length")] if node.args.get("length") else [])
    if isinstance(node, exp.SubstringIndex):
        return [node.this, node.args.get("delimiter"), node.args.get("count")]
    if isinstance(node, exp.Pad):
        return [node.this, node.expression] + ([node.args.get("fill_pattern")] if node.args.get("fill_pattern") else [])
    if isinstance(node, exp.Repeat):
        return [node.this, node.args.get("times")]
    if isinstance(node, (exp.Hex, exp.Unhex)):  # unhex(x, failOnError) is refused at binding
        return [node.this] + [v for k, v in node.args.items() if k != "this" and v is not None]
    if isinstance(node, exp.Translate):
        return [node.this, node.args.get("from_"), node.args.get("to")]
    if isinstance(node, exp.SplitPart):
        return [node.this, node.args.get("delimiter"), node.args.get("part_index")]
    if isinstance(node, exp.Levenshtein):  # sqlglot names Spark's third argument, the threshold, ins_cost
        return [node.this, node.expression] + ([node.args.get("ins_cost")] if node.args.get("ins_cost") else [])
    if isinstance(node, exp.StrPosition):  # locate(substr, str[, pos])
        return [node.args.get("substr"), node.this] + ([node.args.get("position")] if node.args.get("position") else [])
    if isinstance(node, exp.Trim):  # trim(str[, characters])
        return [node.this] + ([node.expression] if node.expression else [])
    if isinstance(node, exp.Replace):
        return [node.this, node.expression] + ([node.args.get("replacement")] if node.args.get("replacement") else [])
    if isinstance(node, exp.DateDiff):  # the parser wraps each operand in a TO_DATE of its own
        return [_written_operand(node.this), _written_operand(node.expression)]
    if isinstance(node, (exp.If, exp.Nvl2)):
        return [node.this, node.args.get("true"), node.args.get("false")]
    if isinstance(node, exp.Case):
        # case(subject, default, when1, then1, when2, then2, ...)
        flat: list = [node.this, node.args.get("default")]
        for branch in node.args.get("ifs") or []:
            flat += [branch.this, branch.args.get("true")]
        return flat
    if isinstance(node, exp.Is):
        return [node.this, node.expression]
    if isinstance(node, (exp.Not, exp.Neg, exp.Abs, exp.Paren)):
        return [node.this]
    return [node.this, node.expression]


# -- the rest of the datetime functions (begin) --
# the functions that are Spark's CAST without a pattern (their analysed plans), other than to_date
# and to_timestamp: function -> (target type, TRY_CAST)
# the functions of Spark's TIME type (refused between rows with their own message)
TIME_FUNCTIONS = ("make_time", "to_time", "try_to_time", "time_diff", "time_trunc", "time_from_seconds",
                  "time_from_millis", "time_from_micros", "time_to_seconds", "time_to_millis", "time_to_micros")
DATETIME_CONSTRUCTORS = ("timestamp_seconds", "timestamp_millis", "timestamp_micros", "make_dt_interval")
_CAST_FUNCTIONS = {"to_timestamp_ntz": ("TIMESTAMP_NTZ", False), "try_to_timestamp": ("TIMESTAMP", True),
                   "to_timestamp_ltz": ("TIMESTAMP", False), "try_to_date": ("DATE", True)}
# -- the rest of the datetime functions (end) --


# -- datetime patterns (begin) ------------------------------------------------------------------
# function as written -> (plan operator, whether the pattern parses, the fewest arguments)
PATTERN_CALLS = {
    "date_format": ("date_format", False, 2), "to_char": ("date_format", False, 2),
    "to_varchar": ("date_format", False, 2), "from_unixtime": ("from_unixtime", False, 1),
    "to_date": ("to_date", True, 2), "try_to_date": ("to_date", True, 2),
    "to_timestamp": ("to_timestamp", True, 2), "to_timestamp_ltz": ("to_timestamp", True, 2),
    "try_to_timestamp": ("to_timestamp", True, 2), "to_timestamp_ntz": ("to_timestamp_ntz", True, 2),
    "unix_timestamp": ("unix_timestamp", True, 1), "to_unix_timestamp": ("unix_timestamp", True, 1),
}
_PATTERN_NODES = (exp.TimeToStr, exp.ToChar, exp.UnixToStr, exp.StrToTime, exp.StrToUnix, exp.TsOrDsToDate)


def _call_arguments(sql: str, call: tuple[int, int]) -> list[tuple[int, int]] | None:
    """The offsets of the arguments of the call written at ``call`` (``f(a, b)``), split at
    its top-level commas (outside brackets and quotes), each stripped of spaces; None if the
    text is not a call."""
    start, end = call
    opening = sql.find("(", start, end)
    if opening < 0 or sql[end - 1] != ")":
        return None
    spans, depth, quote, i, begin = [], 0, None, opening + 1, opening + 1
    while i < end - 1:
        c = sql[i]
        if quote:
            if c == "\\" and quote != "`":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"`":
            quote = c
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((begin, i))
            begin = i + 1
        i += 1
    spans.append((begin, end - 1))
    stripped = []
    for a, b in spans:
        while a < b and sql[a].isspace():
            a += 1
        while b > a and sql[b - 1].isspace():
            b -= 1
        stripped.append((a, b))
    return [] if stripped == [(stripped[0][0], stripped[0][0])] else stripped


def _string_literal(text: str) -> str | None:
    """The value of ``text`` if it is exactly one SQL string literal (``'...'``, ``"..."``,
    ``r'...'``, with Spark's backslash escapes), else None."""
    from sparkcep.dialect.dialect import SparkCep
    from sqlglot.tokens import TokenType

    try:
        tokens = SparkCep().tokenize(text)
    except Exception:  # noqa: BLE001 - not a literal the tokenizer reads
        return None
    if len(tokens) != 1 or tokens[0].token_type not in (TokenType.STRING, TokenType.RAW_STRING):
        return None
    if tokens[0].start != 0 or tokens[0].end != len(text) - 1:
        return None
    return tokens[0].text
# -- datetime patterns (end) --------------------------------------------------------------------


def _written_operand(node: exp.Expression) -> exp.Expression:
    """``node`` without the ``TO_DATE`` sqlglot's parser adds around ``datediff``'s operands
    (it spans no text of its own); a ``to_date`` the user wrote stays."""
    if isinstance(node, exp.TsOrDsToDate) and node.this is not None \
            and dialect.span(node) == dialect.span(node.this):
        return node.this
    return node


def _column_name(node: exp.Expression) -> str | None:
    """A column reference's own name (the last part: ``A.x`` is ``x``, ``A.s.f`` is ``f``), the
    name Spark gives a struct's field or an ``arrays_zip`` element of it; None for any other node."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Column) and isinstance(node.this, exp.Identifier):
        return node.this.this
    return None


def _is_plain_name(node: exp.Expression) -> bool:
    return isinstance(node, exp.Identifier) or (
        isinstance(node, exp.Column) and node.args.get("table") is None
        and isinstance(node.this, exp.Identifier)
    )


def _name_identifier(node: exp.Expression) -> exp.Identifier:
    return node if isinstance(node, exp.Identifier) else node.this
