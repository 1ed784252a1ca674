"""Tests of the bot pool's own pieces against a real Redis (the whole pool: tests/integration)."""
