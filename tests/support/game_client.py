"""Small synchronous clients of the game services for tests and benchmarks."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.rules.contract import MatchSetup
from menagerie.shared.games.binding import binding

# gRPC metadata: the authorization header of a call.
Auth = tuple[tuple[str, str], ...]


def bearer(token: str) -> Auth:
    """gRPC metadata carrying `token`."""
    return (("authorization", f"Bearer {token}"),)


def status_of(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    """The status code and details of a call that must be refused (fails the test when it is not)."""
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details() or ""


@dataclass
class SeatPlay:
    """How one seat's play to the end of a match went."""

    summary: common_pb2.MatchSummary  # the finished match
    moves: int  # actions the seat submitted and the service acknowledged
    aborted: int  # submissions refused because the table had moved on (decided again)


@dataclass
class Match:
    """A created match and its seat tokens."""

    match_id: str
    tokens: dict[int, str]
    summary: common_pb2.MatchSummary


class GameClient:
    """Stubs of one installed game's typed service and Matches on one channel.

    Any game: its messages and stub come from its binding (menagerie.shared.games.binding),
    e.g. GameClient("zoo", address).stub.Watch(client.pb2.WatchRequest(...)).
    """

    def __init__(self, game: str, address: str) -> None:
        self.game = game
        self.binding = binding(game)
        self.pb2 = self.binding.pb2
        self.channel = grpc.insecure_channel(address)
        self.stub: Any = self.binding.stub(self.channel)
        self.matches = matches_pb2_grpc.MatchesStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def create(
        self,
        service_token: str,
        mode: str = "",
        seats: int = 3,
        options: dict[str, str] | None = None,
        seed: int | None = None,
        bots: tuple[int, ...] = (),
        bot_level: str = "random",
        turn_timer: int = 0,
        match_id: str = "",
    ) -> Match:
        """Creates a match with human seats p0, p1, … (and bots where asked); `mode` defaults to the game's first."""
        mode = mode or self.binding.info.modes[0].mode
        seat_infos = [
            common_pb2.SeatInfo(
                seat=i,
                player_id="" if i in bots else f"p{i}",
                display_name=f"Player {i}",
                kind=common_pb2.SEAT_KIND_BOT if i in bots else common_pb2.SEAT_KIND_HUMAN,
                bot_level=bot_level if i in bots else "",
            )
            for i in range(seats)
        ]
        request = matches_pb2.CreateMatchRequest(
            match_id=match_id,
            config=common_pb2.MatchConfig(
                game=self.game, mode=mode, options=options or {}, turn_timer_seconds=turn_timer
            ),
            seats=seat_infos,
        )
        if seed is not None:
            request.seed = seed
        reply = self.matches.CreateMatch(request, metadata=bearer(service_token))
        return Match(reply.match.match_id, {t.seat: t.token for t in reply.seat_tokens}, reply.match)

    def view(self, match_id: str, token: str) -> Any:
        return self.stub.GetView(self.pb2.GetViewRequest(match_id=match_id), metadata=bearer(token))

    def legal(self, match_id: str, token: str) -> Any:
        request = self.pb2.ListLegalActionsRequest(match_id=match_id)
        return self.stub.ListLegalActions(request, metadata=bearer(token))

    def submit_request(self, match_id: str, action: Any, version: int, key: str | None = None) -> Any:
        return self.pb2.SubmitActionRequest(
            match_id=match_id,
            expected_version=version,
            idempotency_key=uuid.uuid4().hex if key is None else key,
            action=action,
        )

    def submit(self, match_id: str, token: str, action: Any, version: int, key: str | None = None) -> Any:
        return self.stub.SubmitAction(self.submit_request(match_id, action, version, key), metadata=bearer(token))

    def summary(self, match_id: str, token: str) -> common_pb2.MatchSummary:
        return self.matches.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id), metadata=bearer(token)).match

    def finished(self, match_id: str, token: str, timeout: float = 120.0) -> common_pb2.MatchSummary:
        """The match's summary once it is over (others, bots, play it); fails after `timeout` s."""
        deadline = time.monotonic() + timeout
        while (summary := self.summary(match_id, token)).status != common_pb2.MATCH_STATUS_FINISHED:
            assert time.monotonic() < deadline, f"match {match_id} did not finish within {timeout:g} s"
            time.sleep(0.1)
        return summary

    def replay(self, match_id: str, token: str, **asked: Any) -> list[Any]:
        """Every page of the match's replay (GetReplay, `asked` its options), in order."""
        pages = []
        version = 1
        while version:
            request = matches_pb2.GetReplayRequest(match_id=match_id, from_version=version, **asked)
            pages.append(self.matches.GetReplay(request, metadata=bearer(token)))
            version = pages[-1].next_version
        return pages

    def replayed(self, match_id: str, token: str) -> Iterator[tuple[int, Any, Any]]:
        """A finished match replayed by its engine from its seed and recorded actions, as the bots' estimate task does.

        Yields each step's (seat, action, state before it); the state is one object, changed in
        place after each yield: once the steps are done it is the match's last state.
        """
        pages = self.replay(match_id, token, without_views=True)
        engine = self.binding.engine
        config = pages[0].match.config
        setup = MatchSetup(config.mode, len(pages[0].match.seats), dict(config.options))
        state, _ = engine.setup(setup, pages[0].seed)
        message = self.pb2.Action()
        for step in (step for page in pages for step in page.steps if step.HasField("seat")):
            assert step.action.Unpack(message), step.action.type_url
            action = self.binding.messages.action_value(message)
            yield step.seat, action, state
            engine.apply(state, step.seat, action)

    def play_step(self, match: Match, choose: Any) -> Any:
        """One action by the seat to act, chosen by `choose(actions)`; None when the match is over."""
        summary = self.summary(match.match_id, next(iter(match.tokens.values())))
        if not summary.to_act:
            return None
        token = match.tokens[summary.to_act[0]]
        legal = self.legal(match.match_id, token)
        return self.submit(match.match_id, token, choose(legal.actions), legal.view_version)

    def play_to_end(self, match: Match, rng: random.Random, limit: int = 5000) -> common_pb2.MatchSummary:
        """Random legal actions (`play_step`) until the match is over; returns its final summary."""
        for _ in range(limit):
            try:
                if self.play_step(match, rng.choice) is None:
                    return self.summary(match.match_id, next(iter(match.tokens.values())))
            except grpc.RpcError as error:
                # The caller's budget (200 calls a second) answers a client as fast as this one: wait as told.
                if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise
                time.sleep(0.05)
        raise AssertionError(f"match {match.match_id} still running after {limit} actions")

    def play_seat_to_end(
        self, match_id: str, seat: int, token: str, rng: random.Random, timeout: float = 240
    ) -> SeatPlay:
        """Plays `seat` with random legal actions whenever it is asked to act, until the match ends.

        Other seats (bots, other clients) play meanwhile; ABORTED means the table moved on
        between reading the legal actions and submitting, so the seat decides again.
        """
        deadline = time.monotonic() + timeout
        moves = aborted = 0
        while (summary := self.summary(match_id, token)).status != common_pb2.MATCH_STATUS_FINISHED:
            assert time.monotonic() < deadline, "the match did not finish"
            if seat not in summary.to_act:
                time.sleep(0.02)
                continue
            legal = self.legal(match_id, token)
            if not legal.actions:
                continue
            try:
                self.submit(match_id, token, rng.choice(legal.actions), legal.view_version)
                moves += 1
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:
                    raise
                aborted += 1
        return SeatPlay(summary, moves, aborted)
