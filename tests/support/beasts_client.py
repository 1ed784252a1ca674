"""A small synchronous client of the Beasts service for tests and benchmarks."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import grpc

from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC metadata carrying `token`."""
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Match:
    """A created match and its seat tokens."""

    match_id: str
    tokens: dict[int, str]
    summary: common_pb2.MatchSummary


class BeastsClient:
    """Stubs of Beasts and Matches on one channel."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.beasts = beasts_pb2_grpc.BeastsStub(self.channel)
        self.matches = matches_pb2_grpc.MatchesStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def create(
        self,
        service_token: str,
        mode: str = "training",
        seats: int = 3,
        options: dict[str, str] | None = None,
        seed: int | None = None,
        bots: tuple[int, ...] = (),
        bot_level: str = "random",
        turn_timer: int = 0,
        match_id: str = "",
    ) -> Match:
        """Creates a match with human seats p0, p1, … (and bots where asked)."""
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
                game="beasts", mode=mode, options=options or {}, turn_timer_seconds=turn_timer
            ),
            seats=seat_infos,
        )
        if seed is not None:
            request.seed = seed
        reply = self.matches.CreateMatch(request, metadata=bearer(service_token))
        return Match(reply.match.match_id, {t.seat: t.token for t in reply.seat_tokens}, reply.match)

    def view(self, match_id: str, token: str) -> beasts_pb2.GetViewResponse:
        return self.beasts.GetView(beasts_pb2.GetViewRequest(match_id=match_id), metadata=bearer(token))

    def legal(self, match_id: str, token: str) -> beasts_pb2.ListLegalActionsResponse:
        return self.beasts.ListLegalActions(
            beasts_pb2.ListLegalActionsRequest(match_id=match_id), metadata=bearer(token)
        )

    def submit(
        self, match_id: str, token: str, action: beasts_pb2.Action, version: int, key: str | None = None
    ) -> beasts_pb2.SubmitActionResponse:
        request = beasts_pb2.SubmitActionRequest(
            match_id=match_id,
            expected_version=version,
            idempotency_key=uuid.uuid4().hex if key is None else key,
            action=action,
        )
        return self.beasts.SubmitAction(request, metadata=bearer(token))

    def summary(self, match_id: str, token: str) -> common_pb2.MatchSummary:
        return self.matches.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id), metadata=bearer(token)).match

    def play_step(self, match: Match, choose: Any) -> beasts_pb2.SubmitActionResponse | None:
        """One action by the seat to act, chosen by `choose(actions)`; None when the match is over."""
        summary = self.summary(match.match_id, next(iter(match.tokens.values())))
        if not summary.to_act:
            return None
        token = match.tokens[summary.to_act[0]]
        legal = self.legal(match.match_id, token)
        return self.submit(match.match_id, token, choose(legal.actions), legal.view_version)
