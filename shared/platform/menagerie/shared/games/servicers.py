"""The gRPC servicers of a game service: thin translators over GameHost.

The bootstrap's interceptor has already decoded the request and verified the token;
errors raised here (menagerie.rules.errors) become status codes there. Each method is
inbound binding (request → host call), the host, outbound binding (result → reply).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.shared.games import howto, inbound, outbound, readings
from menagerie.shared.games.host import GameHost
from menagerie.shared.games.inbound import Inbound
from menagerie.shared.games.outbound import Outbound
from menagerie.shared.rpc.interceptor import Context, require_principal


class MatchesServicer(matches_pb2_grpc.MatchesServicer):
    """menagerie.common.v1.Matches for one game."""

    def __init__(self, host: GameHost, replies: Outbound, generic: Outbound | None = None) -> None:
        self.host = host
        self.how_to = howto.load(host.info.game)
        self.readings = readings.load(host.info.game)
        # A replay's views in the game's own messages, or the generic ones (when asked; a game without a proto
        # has only those: `replies` then).
        self.replies = replies
        self.generic = generic or replies

    async def CreateMatch(  # noqa: N802 - gRPC method name
        self, request: matches_pb2.CreateMatchRequest, context: Context
    ) -> matches_pb2.CreateMatchResponse:
        return outbound.created(await self.host.create_match(require_principal(), inbound.match_request(request)))

    async def GetMatch(  # noqa: N802
        self, request: matches_pb2.GetMatchRequest, context: Context
    ) -> matches_pb2.GetMatchResponse:
        require_principal()
        return outbound.got(await self.host.get_match(request.match_id))

    async def ListMatches(  # noqa: N802
        self, request: matches_pb2.ListMatchesRequest, context: Context
    ) -> matches_pb2.ListMatchesResponse:
        require_principal()
        return outbound.page(await self.host.list_matches(inbound.page_request(request)))

    async def LeaveSeat(  # noqa: N802
        self, request: matches_pb2.LeaveSeatRequest, context: Context
    ) -> matches_pb2.LeaveSeatResponse:
        match = await self.host.change_seat(require_principal(), request.match_id, away=True)
        return matches_pb2.LeaveSeatResponse(match=outbound.summary(match))

    async def ReturnToSeat(  # noqa: N802
        self, request: matches_pb2.ReturnToSeatRequest, context: Context
    ) -> matches_pb2.ReturnToSeatResponse:
        match = await self.host.change_seat(require_principal(), request.match_id, away=False)
        return matches_pb2.ReturnToSeatResponse(match=outbound.summary(match))

    async def DescribeGame(  # noqa: N802
        self, request: matches_pb2.DescribeGameRequest, context: Context
    ) -> matches_pb2.DescribeGameResponse:
        return outbound.describe_game(self.host.info)

    async def GetRules(  # noqa: N802
        self, request: matches_pb2.GetRulesRequest, context: Context
    ) -> matches_pb2.GetRulesResponse:
        return outbound.rules(self.host.info, self.how_to, self.readings, request.mode)

    async def GetReplay(  # noqa: N802
        self, request: matches_pb2.GetReplayRequest, context: Context
    ) -> matches_pb2.GetReplayResponse:
        replies = self.generic if request.generic else self.replies
        return replies.replay(await self.host.replay(require_principal(), inbound.replay_request(request)))

    async def RecordWinEstimates(  # noqa: N802
        self, request: matches_pb2.RecordWinEstimatesRequest, context: Context
    ) -> matches_pb2.RecordWinEstimatesResponse:
        chances = {step.version: list(step.chances) for step in request.steps}
        await self.host.record_win_estimates(require_principal(), request.match_id, chances, live=request.live)
        return matches_pb2.RecordWinEstimatesResponse()

    async def GetLiveWinChances(  # noqa: N802
        self, request: matches_pb2.GetLiveWinChancesRequest, context: Context
    ) -> matches_pb2.GetLiveWinChancesResponse:
        match, chances = await self.host.live_win_chances(require_principal(), request.match_id)
        return outbound.live_chances(match, chances)


class GameServicer:
    """A game's typed service (GetView, ListLegalActions, SubmitAction, Watch).

    Every game's proto names these four methods and their messages alike, so this one
    class serves them all; `GameBinding.add_to_server` registers it under the game's
    own service name.
    """

    def __init__(self, host: GameHost, inbound: Inbound, outbound: Outbound) -> None:
        self.host = host
        self.inbound = inbound
        self.outbound = outbound

    async def GetView(self, request: Any, context: Context) -> Any:  # noqa: N802
        return self.outbound.get_view(await self.host.get_view(require_principal(), request.match_id))

    async def ListLegalActions(self, request: Any, context: Context) -> Any:  # noqa: N802
        return self.outbound.legal_actions(await self.host.list_legal_actions(require_principal(), request.match_id))

    async def SubmitAction(self, request: Any, context: Context) -> Any:  # noqa: N802
        answer = await self.host.submit_action(require_principal(), self.inbound.move(request))
        return self.outbound.submitted(answer)

    async def Watch(self, request: Any, context: Context) -> AsyncIterator[Any]:  # noqa: N802
        updates = self.host.watch(require_principal(), request.match_id, request.from_version)
        async for update in updates:
            yield self.outbound.watch_update(update)
