"""The gateway sends every call about one match to one replica of its game service (MENAGERIE_GAME_ROUTING).

Two real grpc.aio servers on loopback stand for two replicas of a game service; each
answers GetReplay with which one it is. The gateway's own Backends and Forwarder call
them, as they do for a browser's Connect request, so players' moves reach the replica
that holds the match's snapshot, as the bots' do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, cast

import grpc
import pytest
from connectrpc.request import RequestContext

from menagerie.common.v1 import matches_pb2
from menagerie.gateway.app import MATCHES, Backends
from menagerie.gateway.forward import Forwarder, UnaryHandler

pytestmark = pytest.mark.integration

MATCH_COUNT = 31  # odd: round-robin then gives each match both replicas in turn
CALLS_PER_MATCH = 5


async def _replica(number: int) -> tuple[grpc.aio.Server, str]:
    """A server answering Matches/GetReplay with next_version = its number."""

    async def which(_request: matches_pb2.GetReplayRequest, _context: Any) -> matches_pb2.GetReplayResponse:
        return matches_pb2.GetReplayResponse(next_version=number)

    server = grpc.aio.server()
    handler = grpc.unary_unary_rpc_method_handler(
        which,
        request_deserializer=matches_pb2.GetReplayRequest.FromString,
        response_serializer=matches_pb2.GetReplayResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(MATCHES.full_name, {"GetReplay": handler})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, f"127.0.0.1:{port}"


@pytest.fixture
async def two_replicas() -> AsyncIterator[str]:
    """The address the gateway is given for a game with two replicas ('a|b')."""
    started = [await _replica(1), await _replica(2)]
    yield "|".join(address for _, address in started)
    for server, _ in started:
        await server.stop(None)


async def _replicas_by_match(backends: Backends, address: str) -> dict[str, set[int]]:
    """Which replicas answered each match's GetReplay calls, forwarded as the gateway forwards a browser's."""
    forwarder = Forwarder(MATCHES, backends.channel(address, game=True), call_timeout=5, stream_timeout=5)
    context: RequestContext[Any, Any] = RequestContext(
        method=cast("Any", None), http_method="POST", request_headers=cast("Any", {"authorization": "Bearer t"})
    )
    get_replay = cast("UnaryHandler", forwarder.get_replay)
    seen: dict[str, set[int]] = defaultdict(set)
    try:
        for _ in range(CALLS_PER_MATCH):
            for n in range(MATCH_COUNT):
                match_id = f"match-{n}"
                answer = await get_replay(matches_pb2.GetReplayRequest(match_id=match_id), context)
                seen[match_id].add(cast("matches_pb2.GetReplayResponse", answer).next_version)
    finally:
        await backends.close()
    return seen


async def test_per_match_routing_sends_each_matchs_calls_to_one_replica(two_replicas: str) -> None:
    seen = await _replicas_by_match(Backends(per_match_games=True), two_replicas)
    assert all(len(replicas) == 1 for replicas in seen.values()), seen
    assert set.union(*seen.values()) == {1, 2}  # and the matches are spread over both


async def test_round_robin_routing_spreads_one_matchs_calls(two_replicas: str) -> None:
    seen = await _replicas_by_match(Backends(per_match_games=False), two_replicas)
    assert all(replicas == {1, 2} for replicas in seen.values()), seen
