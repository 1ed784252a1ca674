"""The game services the lobby knows: what they offer, and creating matches on them."""

from __future__ import annotations

import asyncio
import time

import grpc
import structlog

from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.lobby.v1 import lobby_pb2
from menagerie.rules.contract import GameInfo, ModeInfo
from menagerie.rules.errors import InvalidArgument, Unavailable
from menagerie.shared import codec
from menagerie.shared.aio import pause
from menagerie.shared.bots import BOT_LEVELS
from menagerie.shared.ladder import Ladder, ModeLadder, about, luck_note, read_ladder
from menagerie.shared.rpc.channels import QUICK_RECONNECT, open_aio_channel
from menagerie.shared.tokens import TokenSigner

log = structlog.get_logger(__name__)

SERVICE_TOKEN_SECONDS = 3600
REFRESH_SECONDS = 10.0
# A player waits on it (ListMyMatches, ResumeSeat): a silent service is reported, not waited out.
GET_MATCH_SECONDS = 2.0


class GameDirectory:
    """One channel per configured game service, its description, and a service credential."""

    def __init__(
        self, endpoints: dict[str, str], public: dict[str, str], signer: TokenSigner, ca_file: str = ""
    ) -> None:
        self.endpoints = endpoints
        self.public = public
        self._signer = signer
        # Quick reconnects: the games often start beside the lobby, and one back is listed within a second.
        self._channels = {
            game: open_aio_channel(address, ca_file, QUICK_RECONNECT) for game, address in endpoints.items()
        }
        self._stubs = {game: matches_pb2_grpc.MatchesStub(ch) for game, ch in self._channels.items()}
        self._described: dict[str, matches_pb2.DescribeGameResponse] = {}
        self._info: dict[str, GameInfo] = {}
        self._available: dict[str, bool] = dict.fromkeys(endpoints, False)
        self._ladders: dict[str, Ladder | None] = {}  # each game's bot ladder (menagerie.shared.ladder)
        self._token = ("", 0, "")  # (credential, expires at, the kid that signed it)

    def _credential(self) -> tuple[tuple[str, str], ...]:
        token, expires, kid = self._token
        current_kid = self._signer.signing_kid()
        # Signed again when it nears its end or the lobby's key rotated (the old key may soon be dropped).
        if expires - time.time() < SERVICE_TOKEN_SECONDS / 4 or kid != current_kid:
            token, expires = self._signer.issue_service("lobby", SERVICE_TOKEN_SECONDS)
            self._token = (token, expires, current_kid)
        return (("authorization", f"Bearer {token}"),)

    async def refresh(self) -> None:
        """Asks every game service what it offers; marks the silent ones unavailable."""
        for game, stub in self._stubs.items():
            try:
                reply = await stub.DescribeGame(matches_pb2.DescribeGameRequest(), timeout=2)
            except grpc.RpcError as error:
                if self._available[game]:
                    log.warning("game service unavailable", game=game, code=error.code().name)
                self._available[game] = False
                continue
            if reply.game != game:
                log.error("game service answers for another game", configured=game, answered=reply.game)
                self._available[game] = False
                continue
            self._described[game] = reply
            self._info[game] = codec.from_message(reply, GameInfo)
            self._available[game] = True

    async def run(self, stop: asyncio.Event) -> None:
        """Refreshes the descriptions until stop (quickly while a service is missing)."""
        while not stop.is_set():
            await self.refresh()
            await pause(stop, REFRESH_SECONDS if all(self._available.values()) else 1.0)

    def listing(self) -> lobby_pb2.ListGamesResponse:
        """Every configured game, with its modes when the service has answered."""
        response = lobby_pb2.ListGamesResponse()
        for game in self.endpoints:
            entry = response.games.add(game=game, endpoint=self.public_endpoint(game), available=self._available[game])
            described = self._described.get(game)
            if described is not None:
                entry.title = described.title
                entry.modes.extend(described.modes)
                for mode in entry.modes:
                    mode.bot_levels.extend(self.bot_levels(game, mode.mode))
                    mode.bot_levels_note = self.bot_levels_note(game, mode.mode)
        return response

    def _ladder(self, game: str, mode: str) -> ModeLadder | None:
        """The mode's ladder (None when the game ships none, or it does not rate the mode)."""
        if game not in self._ladders:
            self._ladders[game] = read_ladder(game)  # package data: read once, it changes with a release
        ladder = self._ladders[game]
        return ladder.modes.get(mode) if ladder is not None else None

    def bot_levels(self, game: str, mode: str) -> list[matches_pb2.BotLevelRating]:
        """The mode's bot levels by their ladder rating, strongest first (none when the game ships no ladder)."""
        rated = self._ladder(game, mode)
        return [
            matches_pb2.BotLevelRating(
                level=level.level,
                budget_seconds=level.budget_seconds,
                rating=level.rating,
                matches=level.matches,
                label=about(level.rating),
            )
            for level in (rated.levels if rated is not None else [])
        ]

    def offered_bot_levels(self, game: str, mode: str) -> list[matches_pb2.BotLevelRating]:
        """The mode's rated levels a table may ask for (the ladder may rate others), strongest first."""
        return [rated for rated in self.bot_levels(game, mode) if rated.level in BOT_LEVELS]

    def bot_levels_note(self, game: str, mode: str) -> str:
        """What a player should know before choosing among the mode's bot levels ('' when nothing)."""
        rated = self._ladder(game, mode)
        return luck_note(rated) if rated is not None else ""

    def info(self, game: str) -> GameInfo:
        """What a game offers, or why it cannot be played now."""
        if game not in self.endpoints:
            known = ", ".join(self.endpoints)
            raise InvalidArgument(f"unknown game {game!r}; games: {known}")
        info = self._info.get(game)
        if info is None or not self._available[game]:
            raise Unavailable(f"the {game} service is not reachable right now; try again shortly")
        return info

    def mode(self, game: str, mode: str) -> ModeInfo:
        """A mode of a game, or InvalidArgument naming the modes that exist."""
        return self.info(game).mode(mode)

    def public_endpoint(self, game: str) -> str:
        """The address clients dial for `game`."""
        return self.public.get(game, self.endpoints[game])

    async def create_match(
        self,
        game: str,
        match_id: str,
        config: common_pb2.MatchConfig,
        seats: list[common_pb2.SeatInfo],
    ) -> matches_pb2.CreateMatchResponse:
        """Creates (or finds again: the id makes it idempotent) a match on the game service."""
        request = matches_pb2.CreateMatchRequest(match_id=match_id, config=config, seats=seats)
        return await self._stubs[game].CreateMatch(request, metadata=self._credential(), timeout=5)

    async def get_match(self, game: str, match_id: str) -> matches_pb2.GetMatchResponse:
        """A match's public summary from its game service (grpc.RpcError when it does not answer in 2 s)."""
        request = matches_pb2.GetMatchRequest(match_id=match_id)
        return await self._stubs[game].GetMatch(request, metadata=self._credential(), timeout=GET_MATCH_SECONDS)

    async def close(self) -> None:
        """Closes the channels."""
        for channel in self._channels.values():
            await channel.close()
