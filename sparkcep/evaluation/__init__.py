"""Evaluating the plan's match-dependent expressions in Python: operators, the interpreter that
defines their semantics, the generated fast form, DEFINE conditions and the MEASURES context.

May import: ``sparkcep.plan``, ``sparkcep.engines`` (contract), ``sparkcep.errors``."""
