"""The arena through the running services (`--through-stack`): the lobby seats, the bot pool plays.

The same pairings and seat rotation as in process (menagerie.arena.local), each match a
private table at the lobby (CreateTable): every seat but one is a bot seat at the table's
level, played by the bot pool (a searching level from its search queue, thinking for the
table's `bot_budget_seconds`), and the one seat left is the arena's, which it plays as any
client would — the seat's view and legal actions over gRPC with the seat token the lobby
signed, its choice submitted with the view version it saw — with a policy of its level
in this process. A lobby table needs one seat for a player, and one level for its bots:
so in a 2-seat pairing the bot pool plays the first level named (the one under test, e.g.
`mcts`) and the arena the second; with more seats the arena plays the single seat of the
first level, the pool the others; a team is the pool's but for one seat. The results are
the services': each match's outcome and length from the game service's GetMatch.
Decision times are those of the arena's own seat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import grpc

from menagerie.arena.local import ArenaRun, MatchResult, Pairing, Plan, make_policy, split_level
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.rules.bots import Policy
from menagerie.shared.bots import MAX_BOT_BUDGET_SECONDS
from menagerie.shared.games.binding import GameBinding, bindings
from menagerie.shared.rpc.channels import open_channel

CALL_SECONDS = 10.0
READY_SECONDS = 3.0
# How long a match may take through the services before the arena gives up on it.
MATCH_SECONDS = 3600.0
POLL_SECONDS = 0.02  # between reads while the bot pool is deciding


class PlatformDown(Exception):
    """The lobby or a game service does not answer: the platform is not running (make run)."""


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _ready(channel: grpc.Channel, what: str, address: str) -> None:
    try:
        grpc.channel_ready_future(channel).result(timeout=READY_SECONDS)
    except grpc.FutureTimeoutError:
        raise PlatformDown(
            f"no {what} answers at {address} within {READY_SECONDS:g} s: --through-stack plays through the running"
            " services; start them with `make run` (or name the lobby with --lobby / MENAGERIE_LOBBY)"
        ) from None


def arena_seat(plan: Plan, pairing: tuple[str, str | None], lineup: tuple[str, ...]) -> int:
    """The seat the arena plays itself in a match of `pairing` (see the module's docstring)."""
    first, second = pairing
    if second is None:
        return 0
    if plan.seats == 2:
        return lineup.index(second)
    return lineup.index(first)


class StackArena:
    """One guest at the lobby that opens a table per match and plays its seat."""

    def __init__(self, plan: Plan, lobby: str, tls_ca: str = "") -> None:
        self.plan = plan
        self.tls_ca = tls_ca
        self.channel = open_channel(lobby, tls_ca)
        _ready(self.channel, "lobby", lobby)
        self.lobby = lobby_pb2_grpc.LobbyStub(self.channel)
        offered = {g.game: g for g in self.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=CALL_SECONDS).games}
        listing = offered.get(plan.game)
        if listing is None or not listing.available:
            known = ", ".join(g for g, entry in offered.items() if entry.available) or "none"
            raise PlatformDown(f"the lobby at {lobby} does not offer {plan.game} now; it offers: {known}")
        reply = self.lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="arena"), timeout=CALL_SECONDS)
        self.auth = _bearer(reply.token)
        self.binding: GameBinding = bindings()[plan.game]
        self._games: dict[str, tuple[Any, matches_pb2_grpc.MatchesStub]] = {}

    def close(self) -> None:
        """Closes the lobby's channel."""
        self.channel.close()

    def _game(self, endpoint: str) -> tuple[Any, matches_pb2_grpc.MatchesStub]:
        kept = self._games.get(endpoint)
        if kept is None:
            channel = open_channel(endpoint, self.tls_ca)
            _ready(channel, f"{self.plan.game} service", endpoint)
            stub = getattr(self.binding.pb2_grpc, f"{self.binding.service}Stub")(channel)
            kept = self._games[endpoint] = (stub, matches_pb2_grpc.MatchesStub(channel))
        return kept

    def seat(self, spec: str, own: int) -> lobby_pb2.Seating:
        """A private table, every seat but `own` played by the pool at the level `spec` names; the arena's seating."""
        plan = self.plan
        bot_level, own_budget = split_level(spec, plan.budget)
        budget = own_budget or plan.budget
        request = lobby_pb2.CreateTableRequest(
            game=plan.game,
            mode=plan.mode.mode,
            options=plan.options,
            seats=plan.seats,
            bot_seats=[seat for seat in range(plan.seats) if seat != own],
            bot_level=bot_level,
            bot_budget_seconds=min(budget.seconds, MAX_BOT_BUDGET_SECONDS),
        )
        created = self.lobby.CreateTable(request, metadata=self.auth, timeout=CALL_SECONDS)
        watch = lobby_pb2.WatchTicketRequest(ticket_id=created.ticket.ticket_id)
        for update in self.lobby.WatchTicket(watch, metadata=self.auth, timeout=60):
            ticket = update.ticket
            if ticket.status == lobby_pb2.TICKET_STATUS_SEATED:
                return ticket.seating
            if ticket.status != lobby_pb2.TICKET_STATUS_WAITING:
                break
        raise RuntimeError(f"the lobby did not seat the arena's table {created.table_id}")

    def play(self, seating: lobby_pb2.Seating, level: str, policy: Policy, times: dict[str, list[float]]) -> Any:
        """Plays the arena's seat until the match is over; returns the game service's summary of it."""
        # The binding's messages: the game's own proto, or the generic service's JSON for a game without one.
        pb, messages = self.binding.pb2, self.binding.messages
        stub, matches = self._game(seating.game_endpoint)
        auth = _bearer(seating.seat_token)
        match_id, seat = seating.match_id, seating.seat
        rng = random.Random(f"arena:{match_id}:{seat}")
        give_up = time.monotonic() + MATCH_SECONDS
        while time.monotonic() < give_up:
            legal = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match_id), metadata=auth, timeout=10)
            if not legal.actions:
                summary = matches.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id), metadata=auth, timeout=10)
                if summary.match.status == common_pb2.MATCH_STATUS_FINISHED:
                    return summary.match
                time.sleep(POLL_SECONDS)
                continue
            view = None
            if policy.needs_view:
                reply = stub.GetView(pb.GetViewRequest(match_id=match_id), metadata=auth, timeout=10)
                if reply.view_version != legal.view_version:
                    continue  # the seat's view moved on between the two reads: read both again
                view = messages.view_value(reply.view)
            actions = [messages.action_value(a) for a in legal.actions]
            started = time.perf_counter()
            choice = policy.choose(view, actions, seat, rng)
            times.setdefault(level, []).append(time.perf_counter() - started)
            request = pb.SubmitActionRequest(
                match_id=match_id,
                expected_version=legal.view_version,
                idempotency_key=f"arena:{match_id}:{seat}:{legal.view_version}",
                action=messages.action(choice),
            )
            try:
                stub.SubmitAction(request, metadata=auth, timeout=10)
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:  # ABORTED: the view moved on; decide again
                    raise
        raise RuntimeError(f"match {match_id} did not finish within {MATCH_SECONDS:g} s")


def _result(summary: Any, lineup: tuple[str, ...], seed: int) -> MatchResult:
    winners = frozenset(s.seat for s in summary.outcome.seats if s.result == common_pb2.RESULT_WIN)
    return MatchResult(seed, lineup, winners, int(summary.version) - 1)


def run(plan: Plan, lobby: str, on_match: Callable[[], None] | None = None, tls_ca: str = "") -> ArenaRun:
    """Plays every pairing of `plan` through the services at `lobby`; PlatformDown when they do not answer.

    A match's seed is the game service's (the lobby gives none): through the stack the
    matches differ from the in-process ones, and from run to run.
    """
    try:
        stack = StackArena(plan, lobby, tls_ca)
    except grpc.RpcError as error:
        if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            details = error.details()
            raise PlatformDown(f"the lobby at {lobby} does not answer: {details} (make run starts it)") from None
        raise
    policies = {level: make_policy(plan.game, level, plan.budget) for level in plan.levels}
    arena = ArenaRun(plan.game, plan.mode.mode, plan.seats, plan.options, plan.mode.cooperative)
    try:
        for first, second in plan.pairings():
            pairing = Pairing(first, second)
            for index in range(plan.games):
                lineup = plan.lineup((first, second), index)
                own = arena_seat(plan, (first, second), lineup)
                bot_level = lineup[(own + 1) % plan.seats] if plan.seats > 1 else lineup[own]
                seating = stack.seat(bot_level, own)
                if seating.seat != own:
                    raise RuntimeError(f"the lobby seated the arena in seat {seating.seat}, not {own}")
                summary = stack.play(seating, lineup[own], policies[lineup[own]], arena.decision_seconds)
                pairing.results.append(_result(summary, lineup, plan.seed + index))
                if on_match is not None:
                    on_match()
            arena.pairings.append(pairing)
    finally:
        stack.close()
    return arena
