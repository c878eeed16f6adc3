"""Mutated queries never leak anything but sparkcep ParseError (with a position)."""

import random

from sparkcep import dialect
from sparkcep.errors import ParseError

from .corpus import CORPUS

PIECES = ["(", ")", ",", "{", "}", "-}", "{-", "!", "*", "+", "?", "|", "PATTERN", "DEFINE", "AS",
          "MEASURES", "'", "`", "/*", "--", "FINAL", "PREV(", "SKIP", "TO", "WITHIN", "INTERVAL",
          "MATCH_RECOGNIZE", "ALL", "ROWS", ";", "\n", "1", "A", "$", "^"]


def test_mutations_raise_only_parse_errors():
    rng = random.Random(20240601)
    for _ in range(600):
        sql = rng.choice(CORPUS)
        for _ in range(rng.randint(1, 3)):
            p = rng.randrange(len(sql) + 1)
            op = rng.random()
            if op < 0.4:
                sql = sql[:p] + " " + rng.choice(PIECES) + " " + sql[p:]
            elif op < 0.8:
                sql = sql[:p] + sql[p + rng.randint(1, 6):]
            else:
                sql = sql[:p]
        try:
            dialect.parse(sql)
        except ParseError as error:
            assert error.code.isupper() and error.line >= 1 and error.column >= 1, sql
