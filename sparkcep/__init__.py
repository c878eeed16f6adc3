"""sparkcep: MATCH_RECOGNIZE and complex event processing for Spark SQL."""

from sparkcep.errors import SparkCepError

__all__ = ["SparkCepError"]
