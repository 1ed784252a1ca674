"""The rating ladder of bot levels (issue 33): rated as the leaderboard rates players, stored with the game's data."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest
from openskill.models import PlackettLuce
from rich.console import Console

from menagerie.arena import ladder, local, records
from menagerie.rules import registry
from menagerie.rules.bots import SEARCH_LEVELS, SearchBudget, levels
from menagerie.rules.contract import Outcome, SeatResult
from menagerie.shared.bots import BOT_LEVELS
from menagerie.shared.ladder import (
    LADDER_FILE,
    Ladder,
    ModeLadder,
    RatedLevel,
    about,
    luck_note,
    nearest,
    read_ladder,
)


def _records(winner_of: dict[tuple[str, str], str], games: int) -> tuple[records.Setting, list[records.GameRecord]]:
    """A made-up round-robin of zoo beginner: in every match of a pair, the level `winner_of` names wins."""
    plan = local.make_plan("zoo", "beginner", ["random", "greedy", "mcts@0.1"], games=games, seed=0)
    setting = records.setting_of(plan)
    made = []
    for match in plan.matches():
        best = winner_of[match.first, match.second or ""]
        seat = match.levels.index(best)
        seats = [SeatResult(s, "win" if s == seat else "loss", rank=1 if s == seat else 2) for s in range(2)]
        made.append(
            records.GameRecord(
                setting, match.index, match.first, match.second, match.levels, match.seed, (seat,), 10,
                Outcome(seats, "made up"), {},
            )
        )  # fmt: skip
    return setting, made


def test_levels_are_rated_with_the_leaderboards_model_in_match_order() -> None:
    beats = {("random", "greedy"): "greedy", ("random", "mcts@0.1"): "mcts@0.1", ("greedy", "mcts@0.1"): "mcts@0.1"}
    setting, games = _records(beats, games=5)
    rated = ladder.rate(setting, games, SearchBudget())
    assert [(r.level, r.budget_seconds) for r in rated] == [("mcts", 0.1), ("greedy", 0.0), ("random", 0.0)]
    assert [(r.matches, r.wins) for r in rated] == [(10, 10), (10, 5), (10, 0)]
    # The same updates by hand, match by match, with the lobby's model and its ordinal.
    model = PlackettLuce()
    by_hand = {name: model.rating() for name in ("random", "greedy", "mcts@0.1")}
    for record in games:
        names = list(record.levels)
        teams = [[by_hand[name]] for name in names]
        ranks: list[float] = [next(s.rank for s in record.outcome.seats if s.seat == seat) for seat in range(2)]
        for name, (after,) in zip(names, model.rate(teams, ranks=ranks), strict=True):
            by_hand[name] = after
    for level in rated:
        name = "mcts@0.1" if level.level == "mcts" else level.level
        expected = by_hand[name]
        assert level.mu == pytest.approx(expected.mu) and level.sigma == pytest.approx(expected.sigma)
        assert level.rating == pytest.approx(expected.ordinal())


def test_a_ladder_file_keeps_its_other_modes(tmp_path: Path) -> None:
    path = tmp_path / LADDER_FILE
    one = ModeLadder("menagerie arena ladder --game zoo --mode beginner", "2025-01-01", 2, 3, 1, [])
    level = RatedLevel("greedy", 0.0, 30.0, 5.0, 15.0, 3, 2)
    two = ModeLadder("menagerie arena ladder --game zoo --mode advanced", "2025-01-02", 2, 3, 1, [level])
    ladder.write_ladder(path, "zoo", "beginner", one)
    ladder.write_ladder(path, "zoo", "advanced", two)
    kept = msgspec.json.decode(path.read_bytes(), type=Ladder)
    assert kept.modes == {"advanced": two, "beginner": one} and kept.model == ladder.MODEL


def test_the_nearest_level_to_a_tables_ratings() -> None:
    ladder_levels = [RatedLevel(name, 0.0, 0.0, 0.0, rating, 1, 0) for name, rating in [("a", 20), ("b", 5), ("c", -3)]]
    assert nearest(ladder_levels, [4.0, 8.0]).level == "b"  # type: ignore[union-attr]
    assert nearest(ladder_levels, [30.0]).level == "a"  # type: ignore[union-attr]
    assert nearest(ladder_levels, [1.0]).level == "c", "equally near: the weaker"  # type: ignore[union-attr]
    assert nearest(ladder_levels, []).level == "c", "nobody rated: the gentlest"  # type: ignore[union-attr]
    assert nearest([], [1.0]) is None
    assert about(1450.4) == "Bot · about 1,450" and about(-2.6) == "Bot · about -3"


def _with_random_winning(wins: int, seats: int = 2, level: str = "random") -> ModeLadder:
    rated = [RatedLevel("greedy", 0.0, 30.0, 4.0, 18.0, 48, 48 - wins)]
    rated.append(RatedLevel(level, 0.0, 20.0, 4.0, 8.0, 48, wins))
    return ModeLadder("menagerie arena ladder --game beasts", "2026-12-05", seats, 48, 16, rated)


def test_a_mode_where_random_wins_half_a_fair_share_is_called_a_game_of_luck() -> None:
    assert luck_note(_with_random_winning(12)) == (
        "A game of luck: the random bot, which picks any legal move, won 12 of its 48 ladder matches, "
        "so a level's rating says little here."
    ), "12 of 48 at 2 seats: half of a coin toss's 24"
    assert luck_note(_with_random_winning(11)) == ""
    assert luck_note(_with_random_winning(6, seats=4)) != "" and luck_note(_with_random_winning(5, seats=4)) == ""
    assert luck_note(_with_random_winning(40, level="greedy")) == "", "no random level: nothing measured"


def test_the_ladder_command_plays_rates_and_writes_a_mode(tmp_path: Path) -> None:
    """`menagerie arena ladder`: the round-robin played, its levels rated strongest first, the file written."""
    out = io.StringIO()
    argv = ["--game", "zoo", "--mode", "beginner", "--levels", "random,greedy", "--games", "2", "--jobs", "1"]
    argv += ["--runs", str(tmp_path / "runs"), "--ladder", str(tmp_path / LADDER_FILE)]
    assert ladder.ladder_main(argv, Console(file=out, width=200)) == 0
    written = msgspec.json.decode((tmp_path / LADDER_FILE).read_bytes(), type=Ladder).modes["beginner"]
    assert written.matches == 2 and sorted(level.level for level in written.levels) == ["greedy", "random"]
    assert [level.rating for level in written.levels] == sorted((lv.rating for lv in written.levels), reverse=True)
    assert written.command == (
        "menagerie arena ladder --game zoo --mode beginner --levels random,greedy --games 2 --seed 0"
    )
    assert len((tmp_path / "runs" / "zoo-beginner.jsonl").read_text().splitlines()) == 3, "a run line, 2 matches"
    printed = out.getvalue()
    assert "zoo beginner, 2 seats: 2 matches, 2 per pair" in printed and "Bot · about" in printed


def test_the_ladder_table_carries_the_lobbys_note_on_luck() -> None:
    out = io.StringIO()
    Console(file=out, width=200).print(ladder.ladder_table("beasts", "capture", _with_random_winning(16)))
    assert "A game of luck: the random bot, which picks any legal move, won 16 of its 48" in out.getvalue()


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_shipped_ladder_rates_levels_the_lobby_offers(game: str) -> None:
    """Each game's ladder.json is the command's output: competitive modes, levels the platform plays, counts."""
    found = read_ladder(game)
    info = registry.engine(game).info
    if found is None:
        assert all(mode.cooperative for mode in info.modes), f"{game} ships no {LADDER_FILE}"
        return
    assert found.game == game and found.modes
    for mode, rated in found.modes.items():
        assert not info.mode(mode).cooperative
        assert rated.command.startswith(f"menagerie arena ladder --game {game} --mode {mode} ")
        assert rated.matches > 0 and rated.levels == sorted(rated.levels, key=lambda level: -level.rating)
        for level in rated.levels:
            assert level.level in BOT_LEVELS and level.level in levels(game)
            assert (level.budget_seconds > 0) == (level.level in SEARCH_LEVELS)
            assert level.rating == pytest.approx(level.mu - 3 * level.sigma)
