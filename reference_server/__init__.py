"""The reference indexer: an in-memory implementation of every method, limit and error rule.

It reads params and shapes from the contract (`schema.Contract`) and never imports the harness.
"""
