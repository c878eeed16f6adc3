"""The SQL:2016 engine (strict contiguity): the compiled pattern program, the preferment-ordered
backtracking matcher, and the regex fast path for row-local DEFINEs.

May import: ``sparkcep.engines`` (contract, spec, rowpattern), ``sparkcep.errors``."""
