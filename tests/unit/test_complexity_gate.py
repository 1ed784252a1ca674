"""The complexity gate `make lint` runs (tests/support/complexity.py) finds what it should."""

from __future__ import annotations

from tests.support.complexity import LIMIT, offenders, scan


def test_a_long_chain_of_cases_is_an_offender_and_a_short_one_is_not() -> None:
    """A method with more branches than the limit is named with its complexity; a small one is not."""
    long_chain = "\n".join(f"        if x == {i}:\n            return {i}" for i in range(LIMIT + 1))
    short = "    def label(self):\n        return 1\n"
    source = f"class Words:\n    def event(self, x):\n{long_chain}\n        return None\n\n{short}"
    assert offenders(source, "words.py") == [f"words.py:Words.event ({LIMIT + 2})"]


def test_no_engine_or_contract_function_is_above_the_limit() -> None:
    """Every engine module, its text and the rules contract (what `make lint` checks)."""
    assert scan() == []
