"""The bench's "then" column: an earlier commit's code measured by the same probe as today's."""

from __future__ import annotations

import subprocess

import pytest

from bench import earlier, probe
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup


def _has_commit(commit: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(earlier.REPOSITORY), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


def test_positions_named_by_where_they_are_are_found_again() -> None:
    """The positions today's run searched, named by (match, step), are the same decisions when asked for by name."""
    engine = registry.engine("snitch")
    setup = MatchSetup("basic", 2)
    chosen = probe.positions(engine, setup, 7, probe.every_fifth_searchable("snitch"), 4)
    again = probe.positions(engine, setup, 7, probe.at([p.where for p in chosen]), len(chosen))
    assert len(chosen) == 4
    assert [p.where for p in again] == [p.where for p in chosen]
    assert [p.legal for p in again] == [p.legal for p in chosen]
    assert [p.view for p in again] == [p.view for p in chosen]


def test_the_earlier_commit_is_measured_with_its_own_code() -> None:
    """Probe(commit) runs bench.probe on the exported commit, a job at a time (a child on other code is refused)."""
    if not _has_commit(earlier.BASELINE_COMMIT):
        pytest.fail(f"{earlier.BASELINE_COMMIT} is not in this clone's history; the bench's baseline needs it")
    with earlier.Probe(earlier.BASELINE_COMMIT) as then:
        first = then.ask({"game": "zoo", "mode": "beginner", "seats": 2, "playout_seconds": 0.05})
        second = then.ask({"game": "beasts", "mode": "capture", "seats": 2, "playout_seconds": 0.05})
        child = then._child
    assert first["actions_per_second"] > 0 and first["games_per_second"] > 0
    assert second["actions_per_second"] > 0
    assert child is not None and child.poll() is not None, "the child is stopped when the block ends"


def test_todays_code_answers_the_same_jobs_from_a_child() -> None:
    """Probe() runs today's packages (every file it imported lies in this repository)."""
    with earlier.Probe() as now:
        answer = now.ask({"game": "zoo", "mode": "beginner", "seats": 2, "playout_seconds": 0.05})
    assert answer["games_per_second"] > 0


def test_an_unknown_commit_is_unavailable_not_a_crash() -> None:
    """A commit the clone lacks (a shallow clone) is reported as unavailable, with git's reason."""
    with pytest.raises(earlier.Unavailable, match="git archive"), earlier.Probe(commit="0" * 40):
        pass
