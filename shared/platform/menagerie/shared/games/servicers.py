"""The gRPC servicers of a game service: thin translators over GameHost.

The bootstrap's interceptor has already decoded the request and verified the token;
errors raised here (menagerie.rules.errors) become status codes there.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.shared.games.host import GameHost
from menagerie.shared.rpc.interceptor import Context, require_principal


class MatchesServicer(matches_pb2_grpc.MatchesServicer):
    """menagerie.common.v1.Matches for one game."""

    def __init__(self, host: GameHost) -> None:
        self.host = host

    async def CreateMatch(  # noqa: N802 - gRPC method name
        self, request: matches_pb2.CreateMatchRequest, context: Context
    ) -> matches_pb2.CreateMatchResponse:
        return await self.host.create_match(require_principal(), request)

    async def GetMatch(  # noqa: N802
        self, request: matches_pb2.GetMatchRequest, context: Context
    ) -> matches_pb2.GetMatchResponse:
        require_principal()
        return await self.host.get_match(request)

    async def ListMatches(  # noqa: N802
        self, request: matches_pb2.ListMatchesRequest, context: Context
    ) -> matches_pb2.ListMatchesResponse:
        require_principal()
        return await self.host.list_matches(request)

    async def DescribeGame(  # noqa: N802
        self, request: matches_pb2.DescribeGameRequest, context: Context
    ) -> matches_pb2.DescribeGameResponse:
        return self.host.describe_game()


class GameServicer:
    """A game's typed service (GetView, ListLegalActions, SubmitAction, Watch).

    Every game's proto names these four methods and their messages alike, so this one
    class serves them all; `GameBinding.add_to_server` registers it under the game's
    own service name.
    """

    def __init__(self, host: GameHost) -> None:
        self.host = host

    async def GetView(self, request: Any, context: Context) -> Any:  # noqa: N802
        return await self.host.get_view(require_principal(), request)

    async def ListLegalActions(self, request: Any, context: Context) -> Any:  # noqa: N802
        return await self.host.list_legal_actions(require_principal(), request)

    async def SubmitAction(self, request: Any, context: Context) -> Any:  # noqa: N802
        return await self.host.submit_action(require_principal(), request)

    async def Watch(self, request: Any, context: Context) -> AsyncIterator[Any]:  # noqa: N802
        async for response in self.host.watch(require_principal(), request):
            yield response
