"""SubmitAction's floor for `make bench`: a game service with nothing behind SubmitAction but decoding and encoding.

Usage: python -m bench.floor GAME ANSWERS_FILE [--write]

The process starts as every game service does (menagerie.shared.rpc.bootstrap: the same
interceptor, token check, quotas, health and reflection) and serves the game's typed
service, whose SubmitAction decodes the request as the real one does (Inbound: the action
as the engine's struct) and answers with the game's real answers, encoded as the real one
encodes them (Outbound.submitted). The answers are the service's own along a planned
match, recorded by the bench (ANSWERS_FILE: a msgpack list of SubmitActionResponse bytes)
and replayed in turn. No engine, no Redis, no check of the match: what the real
SubmitAction costs above this process is the game's work, and no faster handler can
answer under the floor's figures on the same machine.

With --write, each answer is also written to Redis before it goes out, as a move must be:
one EVALSHA over the store's pipelined connection (Runtime.runner) setting one hash field to
the answer. What SubmitAction costs above that is the host's own work (its checks, the
engine, building the commit) and the rest of the commit's script.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn

import grpc
import msgspec

from menagerie.shared.games.binding import GameBinding, binding
from menagerie.shared.games.inbound import Inbound
from menagerie.shared.games.outbound import Outbound
from menagerie.shared.rpc.bootstrap import Register, Runtime, run_service
from menagerie.shared.rpc.interceptor import Context, require_principal
from menagerie.shared.settings import GameServiceSettings


class FloorServicer:
    """The game's typed service whose SubmitAction only decodes the request and encodes a recorded answer."""

    def __init__(
        self, game: GameBinding, answers: list[bytes], write: Callable[[str, bytes], Awaitable[object]] | None = None
    ) -> None:
        self.inbound = Inbound(game.messages)
        self.outbound = Outbound(game)
        self._answers = itertools.cycle(answers)
        self._write = write

    async def SubmitAction(self, request: Any, context: Context) -> Any:  # noqa: N802 - gRPC method name
        """The real handler's steps around the host: the caller, the action decoded, the answer encoded."""
        require_principal()
        move = self.inbound.move(request)
        move.decode_action()
        answer = next(self._answers)
        if self._write is not None:
            await self._write(move.match_id, answer)
        return self.outbound.submitted(answer)

    async def _elsewhere(self, request: Any, context: Context) -> NoReturn:
        """Only SubmitAction is measured."""
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the floor serves SubmitAction only")

    GetView = ListLegalActions = Watch = _elsewhere


# The least a durable move writes: one script call, one hash field.
WRITE = "redis.call('HSET', KEYS[1], 'answer', ARGV[1]); return 1"


def floor_registrar(game: GameBinding, answers: list[bytes], write: bool) -> Register:
    """The bootstrap's `register` for the floor: the game's typed service, nothing else."""

    async def register(server: grpc.aio.Server, runtime: Runtime) -> list[str]:
        writer = None
        if write:
            runner, script = runtime.runner(), runtime.redis.register_script(WRITE)

            async def writer(match_id: str, answer: bytes) -> object:
                return await runner.script(script, [f"bench:floor:{{{match_id}}}"], [answer])

        game.add_to_server(FloorServicer(game, answers, writer), server)
        return [game.service_name]

    return register


def main() -> None:
    """Serves GAME's floor until SIGTERM."""
    game, answers_file = sys.argv[1:3]
    answers = msgspec.msgpack.decode(Path(answers_file).read_bytes(), type=list[bytes])
    bound = binding(game)
    run_service(game, GameServiceSettings, floor_registrar(bound, answers, "--write" in sys.argv[3:]))


if __name__ == "__main__":
    main()
