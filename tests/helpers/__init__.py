"""Helpers shared by the tests (data, builders, Pilot steps)."""
