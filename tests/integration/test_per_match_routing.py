"""A per-match channel sends every call of one match to one replica, and another when that one is gone.

Two real gRPC servers on loopback stand for two replicas of a game service; each answers
which one it is. The channels are the ones the bot worker opens (menagerie.shared.rpc.channels).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from menagerie.shared.rpc.channels import match_metadata, open_channel

METHOD = "/menagerie.test.Replica/Which"
MATCHES = 40
CALLS_PER_MATCH = 6


def _replica(name: bytes) -> tuple[grpc.Server, str]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    answer: grpc.RpcMethodHandler[bytes, bytes] = grpc.unary_unary_rpc_method_handler(lambda _request, _context: name)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("menagerie.test.Replica", {"Which": answer})])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, f"127.0.0.1:{port}"


@pytest.fixture
def replicas() -> Iterator[list[tuple[grpc.Server, str]]]:
    started = [_replica(b"a"), _replica(b"b")]
    yield started
    for server, _ in started:
        server.stop(None)


def _answers(channel: grpc.Channel, match_ids: list[str]) -> dict[str, set[bytes]]:
    which: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(METHOD)
    seen: dict[str, set[bytes]] = defaultdict(set)
    for _ in range(CALLS_PER_MATCH):
        for match_id in match_ids:
            seen[match_id].add(which(b"", metadata=(match_metadata(match_id),), timeout=10))
    return seen


def test_every_call_of_a_match_reaches_one_replica_and_the_matches_are_spread(
    replicas: list[tuple[grpc.Server, str]],
) -> None:
    matches = [f"match-{n}" for n in range(MATCHES)]
    with open_channel("|".join(address for _, address in replicas), per_match=True) as channel:
        seen = _answers(channel, matches)
    assert all(len(answers) == 1 for answers in seen.values()), seen
    assert {answer for answers in seen.values() for answer in answers} == {b"a", b"b"}


def test_a_round_robin_channel_spreads_one_matchs_calls(replicas: list[tuple[grpc.Server, str]]) -> None:
    with open_channel("|".join(address for _, address in replicas)) as channel:
        seen = _answers(channel, ["match-0"])
    assert seen["match-0"] == {b"a", b"b"}


def test_a_matchs_calls_go_to_the_other_replica_when_its_own_is_gone(
    replicas: list[tuple[grpc.Server, str]],
) -> None:
    matches = [f"match-{n}" for n in range(MATCHES)]
    with open_channel("|".join(address for _, address in replicas), per_match=True) as channel:
        before = _answers(channel, matches)
        replicas[0][0].stop(None)
        after = _answers(channel, matches)
    moved = [match_id for match_id, answers in before.items() if answers == {b"a"}]
    assert moved, before  # some matches were on the replica that stopped
    assert all(answers == {b"b"} for answers in after.values()), after
