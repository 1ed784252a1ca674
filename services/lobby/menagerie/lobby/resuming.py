"""A player's matches in progress (ListMyMatches) and a seat taken up again (ResumeSeat), from the seat book
and the game services' own summaries."""

from __future__ import annotations

import asyncio

import grpc

from menagerie.common.v1 import common_pb2
from menagerie.lobby.checks import MATCH_ID
from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.seats import SeatBook, SeatedMatch
from menagerie.lobby.v1 import lobby_pb2
from menagerie.rules.errors import FailedPrecondition, InvalidArgument, NotFound, PermissionDenied, Unavailable
from menagerie.rules.text import listing, seat_name
from menagerie.shared.settings import LobbySettings
from menagerie.shared.tokens import Principal, TokenSigner


class MatchesInProgress:
    """The lobby's view of the matches its players sit in: listed with their state, and seats resumed."""

    def __init__(self, book: SeatBook, directory: GameDirectory, signer: TokenSigner, settings: LobbySettings) -> None:
        self.book = book
        self.directory = directory
        self.signer = signer
        self.settings = settings

    async def summary(self, match: SeatedMatch) -> common_pb2.MatchSummary | None:
        """The game service's public summary of the match; None when it did not answer.

        NotFound when the game service no longer has the match (its retention ran out).
        """
        if match.game not in self.directory.endpoints:
            return None  # a game no longer configured: its matches cannot be reached from here
        try:
            reply = await self.directory.get_match(match.game, match.match_id)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.NOT_FOUND:
                raise NotFound(f"the {match.game} service no longer has match {match.match_id}") from None
            return None
        return reply.match

    async def list_for(self, player: Principal) -> lobby_pb2.ListMyMatchesResponse:
        """The player's matches in progress, each seat with the game service's summary (finished ones forgotten)."""
        matches = await self.book.matches_of(player.subject)

        async def summary(match: SeatedMatch) -> common_pb2.MatchSummary | NotFound | None:
            try:
                return await self.summary(match)
            except NotFound as gone:
                return gone

        summaries = await asyncio.gather(*(summary(m) for m in matches))
        response = lobby_pb2.ListMyMatchesResponse()
        finished = []
        for match, found in zip(matches, summaries, strict=True):
            if match.game not in self.directory.endpoints:
                continue  # a game this lobby no longer offers: nowhere to send the player
            if isinstance(found, NotFound) or (found is not None and found.status == common_pb2.MATCH_STATUS_FINISHED):
                finished.append(match.match_id)
                continue
            for seat in match.seats_of(player.subject):
                entry = response.matches.add(
                    match_id=match.match_id,
                    game=match.game,
                    mode=match.mode,
                    seat=seat,
                    game_endpoint=self.directory.public_endpoint(match.game),
                    available=found is not None,
                )
                entry.started_at.FromMilliseconds(match.started_ms)
                if found is not None:
                    entry.seats.extend(found.seats)
                    entry.to_act.extend(found.to_act)
                    entry.my_turn = seat in found.to_act
                    entry.away = seat in found.away
                    entry.version = found.version
                    entry.clock.CopyFrom(found.clock)
                else:
                    entry.seats.extend(
                        common_pb2.SeatInfo(
                            seat=s.seat,
                            player_id=s.player_id,
                            display_name=s.display_name,
                            kind=common_pb2.SEAT_KIND_BOT if s.bot else common_pb2.SEAT_KIND_HUMAN,
                            bot_level=s.bot_level,
                        )
                        for s in match.seats
                    )
        await self.book.forget(player.subject, finished)
        return response

    async def resume(self, player: Principal, request: lobby_pb2.ResumeSeatRequest) -> lobby_pb2.ResumeSeatResponse:
        """A fresh seat token for one of the player's seats in a match in progress."""
        if not MATCH_ID.fullmatch(request.match_id):
            raise InvalidArgument("match_id is required: the id ListMyMatches or the ticket's seating gave")
        match = await self.book.match(request.match_id)
        if match is None:
            raise NotFound(f"the lobby knows no match {request.match_id} (ListMyMatches lists yours in progress)")
        seats = match.seats_of(player.subject)
        if not seats:
            raise PermissionDenied(f"you have no seat in match {request.match_id}")
        seat = request.seat if request.HasField("seat") else seats[0]
        if seat not in seats:
            yours = listing([seat_name(s) for s in seats])
            raise PermissionDenied(f"{seat_name(seat)} of match {request.match_id} is not yours (yours: {yours})")
        summary = await self.summary(match)
        if summary is None:
            raise Unavailable(f"the {match.game} service is not reachable right now; try again shortly")
        if summary.status == common_pb2.MATCH_STATUS_FINISHED:
            await self.book.forget(player.subject, [match.match_id])
            raise FailedPrecondition(f"match {match.match_id} has finished; there is no seat to resume")
        holder = match.seats[seat]
        # Signed like the tokens CreateMatch hands out (the same secret): the game service accepts it.
        token, expires = self.signer.issue_seat(
            match.match_id, seat, holder.player_id, holder.display_name, self.settings.seat_token_ttl_seconds
        )
        response = lobby_pb2.ResumeSeatResponse(
            seating=lobby_pb2.Seating(
                match_id=match.match_id,
                seat=seat,
                seat_token=token,
                game_endpoint=self.directory.public_endpoint(match.game),
                seats=len(match.seats),
                bots=match.bots,
            ),
            game=match.game,
            mode=match.mode,
        )
        response.expires_at.FromSeconds(expires)
        return response
