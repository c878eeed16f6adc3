"""Tests of the dialect package: parsing, round trips, spans, syntax errors."""
