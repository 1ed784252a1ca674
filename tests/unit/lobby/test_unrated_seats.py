"""Who the ratings leave out, and how a seat's decisions are counted (issue 14, item 3)."""

from __future__ import annotations

from menagerie.common.v1 import common_pb2
from menagerie.lobby.ratings import mostly_timed_out
from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL
from menagerie.shared.settings import BotSettings, LobbySettings
from menagerie.shared.store import DecisionCount, MatchMeta, MatchRecord, SeatMeta

HUMAN = common_pb2.SEAT_KIND_HUMAN
BOT = common_pb2.SEAT_KIND_BOT


def finished(decisions: list[tuple[int, int]], kinds: list[int]) -> common_pb2.MatchEvent:
    return common_pb2.MatchEvent(
        kind=common_pb2.MATCH_EVENT_KIND_FINISHED,
        seats=[common_pb2.SeatInfo(seat=i, player_id=f"p{i}", kind=kind) for i, kind in enumerate(kinds)],  # type: ignore[arg-type]
        decisions=[
            common_pb2.SeatDecisions(seat=i, by_player=mine, by_timeout=bot) for i, (mine, bot) in enumerate(decisions)
        ],
    )


def test_a_human_seat_is_unrated_only_when_the_timeout_bot_made_more_than_half_its_decisions() -> None:
    notice = finished([(5, 6), (6, 6), (0, 1), (9, 0)], [HUMAN, HUMAN, HUMAN, HUMAN])
    assert mostly_timed_out(notice) == {0, 2}


def test_bot_seats_and_notices_without_counts_leave_everyone_rated() -> None:
    assert mostly_timed_out(finished([(0, 0), (0, 3)], [HUMAN, BOT])) == set()
    assert mostly_timed_out(finished([], [HUMAN, HUMAN])) == set()


def test_decision_counts_grow_by_who_decided_and_cover_every_seat() -> None:
    meta = MatchMeta("g", "m", {}, 30, [SeatMeta(0, "a", "A"), SeatMeta(1, "b", "B")], 1, 0)
    record = MatchRecord("m1", meta, 1, b"", [1, 1], [0], [], "active", None, 0)
    assert record.decision_counts() == [DecisionCount(), DecisionCount()]  # a record written before the counts
    counts = record.decision_counts()
    counts[0] = counts[0].after(timeout_decision=True).after(timeout_decision=False).after(timeout_decision=True)
    assert counts[0] == DecisionCount(by_player=1, by_timeout=2)


def test_bots_default_to_the_strongest_level() -> None:
    assert DEFAULT_BOT_LEVEL == "greedy" and DEFAULT_BOT_LEVEL in BOT_LEVELS
    base = {"REDIS_URL": "redis://127.0.0.1:1/0", "verify_keys_file": "/keys/verify-keys.json"}
    assert BotSettings.model_validate(base).timeout_bot_level == "greedy"
    assert LobbySettings.model_validate(base).ticket_watch_grace_seconds == 15
