"""A live match's chart for its spectators (issue 30, item 11): a real game service, dispatcher and Celery worker.

A spectator asks GetLiveWinChances: the match is watched from then on, and as it moves the
pool estimates it from the spectator's view of a step, at most once every 2 s per match. Each
estimate is the one `WinChances.of_view` makes of that step's spectator's view (GetReplay
without a seat), so nothing a seat keeps hidden counts; a match nobody watches gets none.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import grpc
import pytest
import redis

from menagerie.common.v1 import matches_pb2
from menagerie.rules.rng import seed_from
from menagerie.search.chances import WinChances
from menagerie.shared.games.binding import binding
from menagerie.shared.store.keys import match_keys
from menagerie.shared.tokens import TokenSigner
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, Match, bearer, status_of
from tests.support.probes import wait_for
from tests.support.stored_match import SHARDS

pytestmark = pytest.mark.integration


def live(client: GameClient, match_id: str, token: str) -> list[Any]:
    """The live estimates so far (asking keeps the match watched)."""
    request = matches_pb2.GetLiveWinChancesRequest(match_id=match_id)
    return list(client.matches.GetLiveWinChances(request, metadata=bearer(token)).steps)


def more_than(count: int, client: GameClient, match_id: str, token: str) -> bool:
    """Whether the match has more than `count` live estimates."""
    return len(live(client, match_id, token)) > count


def play_one(client: GameClient, match: Match, rng: random.Random) -> None:
    """Seat 0's next decision, taken at random once it is its turn (the bot plays seat 1)."""
    wait_for(lambda: bool(client.legal(match.match_id, match.tokens[0]).actions), 60, "seat 0's turn")
    legal = client.legal(match.match_id, match.tokens[0])
    client.submit(match.match_id, match.tokens[0], rng.choice(list(legal.actions)), legal.view_version)


def spectators_estimate(client: GameClient, match_id: str, token: str, version: int) -> list[float] | None:
    """The estimate of step `version` made here from its spectator's view, as the pool's task makes it."""
    request = matches_pb2.GetReplayRequest(match_id=match_id, from_version=version, page_size=1)
    [step] = client.matches.GetReplay(request, metadata=bearer(token)).steps
    view = client.pb2.View()
    assert step.view.Unpack(view)
    game = binding("zoo")
    return WinChances("zoo", engine=game.engine).of_view(game.messages.view_value(view), seed_from(match_id, version))


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_a_watched_live_match_gets_its_chart_from_the_spectators_view(
    game_client: GameClients, service_token: str, signer: TokenSigner, redis_url: str
) -> None:
    zoo = game_client("zoo")
    watched = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="greedy", seed=41)
    unwatched = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="greedy", seed=42)
    spectator, _ = signer.issue_player("p-spectator", "Spectator", 600)
    assert live(zoo, watched.match_id, spectator) == []  # nothing yet; from now on the match is watched
    client = redis.Redis.from_url(redis_url)
    due = match_keys(watched.match_id, SHARDS).live_due
    rng = random.Random(5)
    for before in range(3):  # three moves, each once the last estimate's throttle period is over
        wait_for(lambda: client.exists(due) == 0, 30, "the end of the 2 s between two estimates")
        assert len(live(zoo, watched.match_id, spectator)) == before
        play_one(zoo, watched, rng)
        play_one(zoo, unwatched, rng)
        wait_for(partial(more_than, before, zoo, watched.match_id, spectator), 60, "the move's live estimate")
    steps = live(zoo, watched.match_id, spectator)
    versions = [s.version for s in steps]
    assert len(steps) == 3 and versions == sorted(versions)
    for step in steps:
        assert len(step.chances) == 2 and all(0.0 <= c <= 1.0 for c in step.chances)
        found = spectators_estimate(zoo, watched.match_id, spectator, step.version)
        assert found is not None and list(step.chances) == pytest.approx(found, abs=1e-12)
    assert not client.exists(match_keys(unwatched.match_id, SHARDS).live)  # nobody watched it: no estimate
    assert 0 < client.ttl(match_keys(watched.match_id, SHARDS).live) <= 3600


def test_live_estimates_are_kept_from_the_pool_only_and_checked(
    game_client: GameClients, service_token: str, signer: TokenSigner
) -> None:
    zoo = game_client("zoo")
    match = zoo.create(service_token, mode="beginner", seats=2, seed=43)
    player, _ = signer.issue_player("p-chart", "Chart", 600)
    bot, _ = signer.issue_seat(match.match_id, 0, "bot:estimates", "Bot", 600, bot=True)

    def record(token: str, *chances: float, live: bool = True) -> None:
        request = matches_pb2.RecordWinEstimatesRequest(match_id=match.match_id, live=live)
        request.steps.add(version=1, chances=chances)
        zoo.matches.RecordWinEstimates(request, metadata=bearer(token))

    assert status_of(lambda: record(player, 0.5, 0.5))[0] == grpc.StatusCode.PERMISSION_DENIED
    assert status_of(lambda: record(bot, 0.5))[0] == grpc.StatusCode.INVALID_ARGUMENT  # one chance per seat
    assert status_of(lambda: record(bot, 0.5, 0.5, live=False))[0] == grpc.StatusCode.FAILED_PRECONDITION
    record(bot)  # no estimate at this step: the chart says so
    assert [(s.version, list(s.chances)) for s in live(zoo, match.match_id, player)] == [(1, [])]
    record(bot, 0.25, 0.75)
    assert [(s.version, list(s.chances)) for s in live(zoo, match.match_id, player)] == [(1, [0.25, 0.75])]
    missing = matches_pb2.GetLiveWinChancesRequest(match_id="m-none")
    code, _ = status_of(lambda: zoo.matches.GetLiveWinChances(missing, metadata=bearer(player)))
    assert code == grpc.StatusCode.NOT_FOUND
