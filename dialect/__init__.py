"""The sparkcep SQL dialect for sqlglot."""
