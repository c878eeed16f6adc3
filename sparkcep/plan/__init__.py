"""The compiled plan the executors run: the match-dependent expression IR and ``MatchPlan`` (pure
data, pickled into the registered Spark function).

May import: ``sparkcep.engines`` (spec only), ``sparkcep.errors``."""
