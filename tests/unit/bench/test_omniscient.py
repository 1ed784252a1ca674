"""The all-seeing search of bench/omniscient.py: it sees the true hidden state, never the future."""

from __future__ import annotations

import msgspec
import pytest

from bench.omniscient import AllSeeing, main
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup


def builtins(value: object) -> object:
    return msgspec.to_builtins(value)


def test_its_determinization_is_the_true_state_with_a_fresh_rng() -> None:
    engine = registry.engine("beasts")
    setup = MatchSetup("training", 2, engine.info.validate(MatchSetup("training", 2, {})))
    state, _ = engine.setup(setup, 5)
    seeing = AllSeeing(engine)
    seeing.observe(state)
    view = engine.view(state, 0)
    seen = builtins(seeing.determinize(view, 0, 123))
    true = builtins(state)
    honest = builtins(engine.determinize(view, 0, 123))
    assert isinstance(seen, dict) and isinstance(true, dict) and isinstance(honest, dict)
    assert [k for k in true if seen[k] != true[k]] == ["rng"]
    # The honest determinization shuffles the face-down tokens: it differs beyond the Rng.
    assert [k for k in true if honest[k] != true[k]] != ["rng"]
    # The copy is the search's own: playing on it leaves the match alone.
    copy = seeing.determinize(view, 0, 123)
    seat = engine.to_act(copy).must[0]
    engine.perform(copy, seat, engine.legal_actions(copy, seat)[0])
    assert builtins(copy) != true and builtins(state) == true


def test_it_plays_matches_against_greedy_and_reports_the_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "beasts", "--mode", "training", "--games", "2", "--iterations", "50"]) == 0
    printed = capsys.readouterr().out
    assert "all-seeing mcts (50 iterations) vs greedy, seeds 300-301: won " in printed
    assert "/2 = " in printed
    against_random = ["--game", "beasts", "--mode", "capture", "--games", "1", "--iterations", "20"]
    against_random += ["--rival", "random"]
    assert main(against_random) == 0
    assert "beasts capture, all-seeing mcts (20 iterations) vs random, seeds 300-300" in capsys.readouterr().out


def test_a_cooperative_mode_is_refused() -> None:
    with pytest.raises(SystemExit, match="cooperative"):
        main(["--game", "pursuit", "--mode", "coop", "--games", "1"])
