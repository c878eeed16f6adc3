"""The SASE engines (SKIP TILL NEXT MATCH, SKIP TILL ANY MATCH): SASE+ NFA^b runs over a shared
match buffer, and SASE++ postponed result construction; a trailing negation wraps either
(``trailing``).

May import: ``sparkcep.engines`` (contract, spec, rowpattern, run_context, budgets),
``sparkcep.errors``."""
