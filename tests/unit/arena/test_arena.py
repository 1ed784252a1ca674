"""The arena: its table adds up, a seed replays identically, bad arguments are refused, `menagerie arena` reaches it;
the sweep plays the same matches, line-up by line-up."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from menagerie.arena import local, pool, records, sweep
from menagerie.arena.main import budget_of, main
from menagerie.arena.stats import percentile, wilson
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.errors import InvalidArgument


def _run(plan: local.Plan) -> local.ArenaRun:
    """The plan played in this process, as the tables count it."""
    return records.arena_of(records.setting_of(plan), pool.run(plan))


def _summary(arena: local.ArenaRun) -> list[tuple[object, ...]]:
    """Everything a run decided (not its timings)."""
    return [(p.first, p.second, p.results) for p in arena.pairings]


def test_a_competitive_table_adds_up_and_rotates_seats() -> None:
    plan = local.make_plan("zoo", "beginner", ["greedy", "random"], games=6, seed=3)
    arena = _run(plan)
    (pairing,) = arena.pairings
    assert (pairing.first, pairing.second) == ("greedy", "random")
    assert pairing.games == 6
    assert pairing.first_wins + pairing.second_wins + pairing.shared + pairing.draws == pairing.games
    # The first level sits in seat 0, then 1, then 0…: each seat alike.
    assert [r.levels.index("greedy") for r in pairing.results] == [0, 1, 0, 1, 0, 1]
    assert [r.seed for r in pairing.results] == [3, 4, 5, 6, 7, 8]
    assert all(r.actions > 0 for r in pairing.results)
    assert pairing.mean_actions == sum(r.actions for r in pairing.results) / 6
    # Every decision of every match was timed, each under the level that made it.
    assert sum(len(times) for times in arena.decision_seconds.values()) == sum(r.actions for r in pairing.results)


def test_every_pair_of_levels_is_played_in_the_order_named() -> None:
    plan = local.make_plan("zoo", "beginner", ["greedy", "random", "mcts"], games=1, seed=0)
    assert plan.pairings() == [("greedy", "random"), ("greedy", "mcts"), ("random", "mcts")]


def test_a_cooperative_mode_plays_each_level_as_a_team_on_the_same_seeds() -> None:
    plan = local.make_plan("pursuit", None, ["greedy", "random"], games=4, seed=1, options={"difficulty": "easy"})
    arena = _run(plan)
    assert arena.cooperative and arena.seats == 3
    assert [(p.first, p.second) for p in arena.pairings] == [("greedy", None), ("random", None)]
    for pairing in arena.pairings:
        assert pairing.first_wins + pairing.losses == pairing.games == 4
        assert all(set(r.levels) == {pairing.first} for r in pairing.results)
    assert [r.seed for r in arena.pairings[0].results] == [r.seed for r in arena.pairings[1].results]


def test_a_seed_replays_identically_with_an_iteration_budget() -> None:
    budget = budget_of(None, 3)
    assert budget.iterations == 3 and budget.seconds >= 3600  # only iterations stop the search
    # Beasts training: a game of choices, and a match of it a fraction of Zoo's time (the suite's time, issue 34).
    plan = local.make_plan("beasts", "training", ["mcts", "random"], games=1, seed=5, budget=budget)
    first, second = _run(plan), _run(plan)
    assert _summary(first) == _summary(second)
    other = _run(local.make_plan("beasts", "training", ["mcts", "random"], games=1, seed=6, budget=budget))
    assert _summary(other) != _summary(first)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "no game 'chess'"),
        ({"bots": ["greedy", "grandmaster"]}, "no bot level grandmaster"),
        ({"bots": ["greedy"]}, "name at least two distinct levels"),
        ({"bots": ["greedy", "greedy"]}, "name at least two distinct levels"),
        ({"games": 0}, "--games must be at least 1"),
        ({"mode": "expert"}, "expert"),
    ],
)
def test_bad_arguments_are_refused_with_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"game": "zoo", "mode": "beginner", "bots": ["greedy", "random"], "games": 1}
    arguments.update(kwargs)
    with pytest.raises(InvalidArgument, match=message):
        local.make_plan(
            str(arguments["game"]),
            str(arguments["mode"]),
            list(arguments["bots"]),  # type: ignore[call-overload]
            int(arguments["games"]),  # type: ignore[call-overload]
            0,
        )


def test_budget_flags() -> None:
    assert budget_of(None, 0) == SearchBudget()
    assert budget_of(0.25, 0) == SearchBudget(seconds=0.25)
    assert budget_of(2.0, 100) == SearchBudget(seconds=2.0, iterations=100)
    with pytest.raises(InvalidArgument, match="--budget"):
        budget_of(0.0, 0)


def test_wilson_and_percentile() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high and round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 0) == (0.0, 1.0)
    assert percentile([float(v) for v in range(1, 101)], 0.99) == 99.0
    assert percentile([], 0.99) == 0.0


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "zoo", "--mode", "beginner", "--bots", "greedy,random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "greedy vs random" in out and "95% Wilson" in out and "decision time per level" in out
    assert main(["--game", "zoo", "--bots", "greedy"]) == 2
    assert "two distinct levels" in capsys.readouterr().out


def test_menagerie_arena_runs_the_arena_without_importing_it() -> None:
    """The terminal client execs `menagerie-arena` (it may not import an engine or a bot)."""
    menagerie = shutil.which("menagerie", path=str(Path(sys.executable).parent))
    assert menagerie is not None
    done = subprocess.run(
        [menagerie, "arena", "--game", "zoo", "--bots", "greedy,random", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "greedy vs random" in done.stdout


# ------------------------------------------------------------------ menagerie arena sweep


def test_the_sweep_plays_the_matches_the_pairing_table_plays() -> None:
    """One match loop: the sweep's greedy seat and results are the pairing table's for the same seeds."""
    plan = local.make_plan("zoo", "beginner", ["greedy", "random"], games=4, seed=3)
    (pairing,) = _run(plan).pairings
    tally = sweep.run("zoo", 4, 2, "beginner", plan.options, base_seed=3)
    assert [r.greedy_won for r in tally.results] == [r.levels.index("greedy") in r.winners for r in pairing.results]
    assert [r.actions for r in tally.results] == [r.actions for r in pairing.results]


def test_option_settings_vary_each_option_or_take_the_values_chosen() -> None:
    mode = registry.engine("beasts").info.mode("advanced")
    difficulties = next(o.allowed_values for o in mode.options if o.name == "difficulty")
    settings = sweep.option_settings(mode, {"difficulty": "all"})
    assert [s["difficulty"] for s in settings] == list(difficulties)
    assert [s["difficulty"] for s in sweep.option_settings(mode, {"difficulty": "hard,gentle"})] == ["hard", "gentle"]
    assert sweep.parse_seats("2,4,2") == [2, 4] and sweep.parse_seats(None) == [None]
    with pytest.raises(InvalidArgument, match="--seats"):
        sweep.parse_seats("two")


def test_the_sweep_command_prints_a_block_per_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", "--game", "zoo", "--mode", "beginner", "--games", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.count(", 2 seats, greedy vs random: 2 games in ") == 2  # each negative_values setting
    assert "  greedy wins  2/2 = 100.0%  (95% Wilson " in out and "fair share 50.0%" in out
    assert main(["sweep", "--game", "pursuit", "--games", "1", "--option", "difficulty=easy"]) == 0
    out = capsys.readouterr().out
    assert "pursuit coop difficulty=easy, 3 seats, random team vs greedy team: 1 games per team" in out
    assert out.count("    ended by: 1× ") == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "all", "--mode", "beginner"], "--game all plays each game's defaults"),
        (["--game", "zoo", "--option", "difficulty=all"], "no mode of zoo has the options difficulty"),
        (["--game", "zoo", "--opponent", "grandmaster"], "no bot level 'grandmaster'"),
        (["--game", "zoo", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_the_sweep_refuses_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", *argv])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
