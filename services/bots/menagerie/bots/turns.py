"""Playing one decision for one seat, through the game's public API.

A bot holds a seat token (marked as a bot's) and sees exactly what a human in the seat
would: the seat's view and legal actions, as the game service wrote them for the seat's
bot with the move that made its turn (BotTurn, menagerie.shared.bots: the same engine calls
GetView and ListLegalActions make), or else as it fetches them (both at once, when its
level reads the view); it chooses, and submits with the view version it saw. The first
way costs one call instead of three: the worker's CPU per move was mostly its gRPC calls,
the game service's mostly answering them (docs/scaling.md). The idempotency key names
the decision (match, seat, version), so the same task delivered twice still moves once;
a task that comes late finds the view moved on and does nothing.

Every call waits at most `call_timeout` seconds and all the calls of one decision at most
`decision_timeout` together (BotSettings derives both from the redispatch interval and
checks that they nest), so a game service that hangs holds a worker for a fraction of
that interval. A call that uses its whole time raises GameUnresponsive, which the worker
uses to mark the game (menagerie.bots.marks); a service that is down or whose store is
down answers at once (UNAVAILABLE) and holds nobody up.

A player keeps, per game, the stub on its channel and one policy per level (as `make
arena` plays a policy through many matches: a game's greedy level builds its tables
once, and what it caches depends only on what it is shown), and per seat the token it
signed for it (until half its life is gone): a decision signs nothing, and the game
service finds the token in its cache of verified ones instead of decoding it again.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import grpc
import msgspec
import structlog

from menagerie.bots.games import BINDINGS
from menagerie.rules.bots import SEARCH_LEVELS, Policy, SearchBudget, policy_for
from menagerie.rules.rng import seed_from
from menagerie.shared.bots import bot_turn_decoder
from menagerie.shared.games.binding import GameBinding
from menagerie.shared.rpc.channels import match_metadata
from menagerie.shared.tokens import TokenSigner

log = structlog.get_logger(__name__)

BOT_TOKEN_SECONDS = 300
# A kept token is signed again once less than this is left of its life.
TOKEN_RENEW_SECONDS = BOT_TOKEN_SECONDS / 2
KEPT_TOKENS = 10_000  # seats whose token a player keeps (the least recently used go first)


class TurnResult(StrEnum):
    """What became of a bot decision."""

    PLAYED = "played"
    STALE = "stale"  # the seat's view moved on: someone else already decided
    NOTHING_TO_DO = "nothing to do"
    NOT_DUE = "not due"  # a human's timer has not run out after all
    REFUSED = "refused"  # the game refused the move: a bug worth a log line
    IN_PROGRESS = "in progress"  # another task is playing this decision (a duplicate delivery)
    GAME_UNRESPONSIVE = "game unresponsive"  # not tried: the game's service is marked unresponsive


class GameUnresponsive(Exception):
    """A call to a game service got no answer in its whole time: the service hangs."""

    # Its args are its constructor's, so Celery can pickle it into the task's failure.
    def __init__(self, game: str, method: str) -> None:
        super().__init__(game, method)
        self.game = game

    def __str__(self) -> str:
        return f"{self.args[0]} {self.args[1]}: no answer within the call's deadline"


class DecisionTimedOut(TimeoutError):
    """The decision's calls used up its whole time (decision_timeout) before it was submitted."""


def decision_key(match_id: str, seat: int, view_version: int) -> str:
    """The idempotency key of one bot decision."""
    return f"bot:{match_id}:{seat}:{view_version}"


def seat_view(binding: GameBinding, reply: Any) -> Any:
    """What a policy is handed to read: the seat's GetView answer as the engine's view type, never a state."""
    return binding.messages.view_value(reply.view)


class TurnPlayer:
    """Plays bot decisions against the game services named in `endpoints`."""

    def __init__(
        self,
        signer: TokenSigner,
        endpoints: dict[str, str],
        channel: Callable[[str], grpc.Channel],
        call_timeout: float,
        decision_timeout: float,
        searched: Callable[[str, float, float], None] | None = None,
    ) -> None:
        self.signer = signer
        # Told (game, seconds the search took, its budget) after each searching level's choice (the worker's metric).
        self.searched = searched
        self.endpoints = endpoints
        self.channel = channel
        self.call_timeout = call_timeout
        self.decision_timeout = decision_timeout
        self._stubs: dict[str, tuple[grpc.Channel, Any]] = {}
        self._local = threading.local()  # the policies, per thread (Celery's threads pool)
        # (match, seat, level) -> (token, expires at, the kid that signed it)
        self._tokens: OrderedDict[tuple[str, int, str], tuple[str, int, str]] = OrderedDict()
        self._tokens_lock = threading.Lock()
        self._turn_decoders: dict[str, msgspec.msgpack.Decoder[Any]] = {}  # per game: its BotTurn

    def play(
        self,
        game: str,
        match_id: str,
        seat: int,
        view_version: int,
        level: str,
        budget: float = 1.0,
        turn: bytes | None = None,
    ) -> TurnResult:
        """Decides and submits one action for `seat` if its view is still at `view_version`.

        `turn` is the seat's BotTurn as the game service wrote it with the move that made the
        seat's turn (menagerie.bots.marks reads it): when it is of this version and holds what
        the level reads, the bot decides from it and makes one call, SubmitAction; else (none,
        or a timeout decision for a player's seat) it asks for the view and legal actions
        first. A move chosen from a written turn that the game refuses is decided again from
        what the game answers now. A searching level thinks for `budget` seconds; that time is
        added to the decision's (its calls' time stays what it was: the search is not a call).
        """
        binding = BINDINGS[game]
        search = level in SEARCH_LEVELS
        policy = self._policy(game, level, budget if search else 0.0)
        give_up_at = time.monotonic() + self.decision_timeout + (budget if search else 0.0)
        # The match's id routes the calls to its replica on a per-match channel (menagerie.shared.rpc.channels).
        auth = (("authorization", f"Bearer {self._token(match_id, seat, level)}"), match_metadata(match_id))
        calls = _Calls(game, self._stub(game), auth, self.call_timeout, give_up_at)
        decision = _Decision(binding, match_id, seat, view_version)
        written = self._written(game, turn, view_version, policy.needs_view)
        if written is TurnResult.STALE:
            return written
        read = written if written is not None else calls.read(decision, policy.needs_view)
        if isinstance(read, TurnResult):
            return read
        result, reason = calls.submit(decision, policy, *read)
        if result is TurnResult.REFUSED and written is not None:
            log.info("a move decided from the written turn was refused; deciding again", match=match_id, seat=seat)
            read = calls.read(decision, policy.needs_view)
            if isinstance(read, TurnResult):
                return read
            result, reason = calls.submit(decision, policy, *read)
        if result is TurnResult.REFUSED:
            log.error("a bot's move was refused", match=match_id, seat=seat, reason=reason)
        return result

    def _written(
        self, game: str, turn: bytes | None, view_version: int, needs_view: bool
    ) -> tuple[Any, list[Any]] | TurnResult | None:
        """(view, legal actions) from the seat's written BotTurn when it is this decision's; STALE when the seat's
        view moved on since (its turn is of a later version); None when the bot must ask."""
        if not turn:
            return None
        decoder = self._turn_decoders.get(game)
        if decoder is None:
            engine = BINDINGS[game].engine
            decoder = self._turn_decoders[game] = bot_turn_decoder(engine.view_type, engine.action_type)
        try:
            written = decoder.decode(turn)
        except msgspec.DecodeError:
            log.warning("a bot turn the worker cannot read; asking the game instead", game=game)
            return None
        if written.view_version > view_version:
            return TurnResult.STALE
        if written.view_version < view_version or (needs_view and written.view is None):
            return None
        return written.view, written.actions

    def _stub(self, game: str) -> Any:
        """The game's stub on its current channel (a new channel, after a fork, gets a new stub)."""
        channel = self.channel(self.endpoints[game])
        kept = self._stubs.get(game)
        if kept is None or kept[0] is not channel:
            binding = BINDINGS[game]
            kept = self._stubs[game] = (channel, getattr(binding.pb2_grpc, f"{binding.service}Stub")(channel))
        return kept[1]

    def _policy(self, game: str, level: str, budget: float) -> Policy:
        """This thread's policy of `level` for `game` (a searching one's per budget), made on first use.

        Kept per thread: a policy's caches are not thread-safe.
        """
        policies: dict[tuple[str, str, float], Policy] = self._local.__dict__.setdefault("policies", {})
        policy = policies.get((game, level, budget))
        if policy is None:
            made = policy_for(game, level, SearchBudget(seconds=budget)) if budget else policy_for(game, level)
            policy = policies[game, level, budget] = made
        return policy

    def _token(self, match_id: str, seat: int, level: str) -> str:
        """The seat's bot token: the one kept for it while it has more than TOKEN_RENEW_SECONDS to live.

        A token is signed again at once when the worker's key is rotated (its kid changes), so
        none signed by the old key is in use once that key is dropped.
        """
        key = (match_id, seat, level)
        kid = self.signer.signing_kid()
        with self._tokens_lock:  # shared by the threads of Celery's threads pool
            kept = self._tokens.get(key)
            if kept is None or kept[1] - time.time() <= TOKEN_RENEW_SECONDS or kept[2] != kid:
                token, expires = self.signer.issue_seat(
                    match_id, seat, f"bot:{level}", "Bot", BOT_TOKEN_SECONDS, bot=True
                )
                kept = self._tokens[key] = (token, expires, kid)
                if len(self._tokens) > KEPT_TOKENS:
                    self._tokens.popitem(last=False)
            self._tokens.move_to_end(key)
            return kept[0]


@dataclass(frozen=True)
class _Decision:
    """The decision a task plays: a seat of a match at a view version."""

    binding: GameBinding
    match_id: str
    seat: int
    view_version: int


@dataclass(frozen=True)
class _Calls:
    """One decision's calls to its game's service, each within its own time and the decision's."""

    game: str
    stub: Any
    auth: tuple[tuple[str, str], ...]
    call_timeout: float
    give_up_at: float  # time.monotonic() when the decision's time is up

    def time_left(self, method: str) -> float:
        """The time `method` may take: the call's, or what is left of the decision's (DecisionTimedOut when none)."""
        timeout = min(self.call_timeout, self.give_up_at - time.monotonic())
        if timeout <= 0:
            raise DecisionTimedOut(f"{self.game}: no time left for {method}")
        return timeout

    def answer(self, method: str, timeout: float, get: Callable[[], Any]) -> Any:
        """What `get` answers; GameUnresponsive when a call given its full time got no answer."""
        try:
            return get()
        except grpc.RpcError as error:
            # Only a call given its full time says the service hangs; a shorter one
            # may have run out of the decision's time instead.
            if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED and timeout >= self.call_timeout:
                raise GameUnresponsive(self.game, method) from error
            raise

    def call(self, method: str, request: Any) -> Any:
        """One call to the game's service, within the time left."""
        timeout = self.time_left(method)
        return self.answer(
            method, timeout, lambda: getattr(self.stub, method)(request, metadata=self.auth, timeout=timeout)
        )

    def read(self, decision: _Decision, needs_view: bool) -> tuple[Any, list[Any]] | TurnResult:
        """(view, legal actions) as the game answers them now, or why there is nothing to decide."""
        binding, match_id = decision.binding, decision.match_id
        pb = binding.pb2
        view = None
        if needs_view:
            # Both reads at once: the view's call runs while this thread makes the other.
            view_timeout = self.time_left("GetView")
            pending = self.stub.GetView.future(
                pb.GetViewRequest(match_id=match_id), metadata=self.auth, timeout=view_timeout
            )
            try:
                legal = self.call("ListLegalActions", pb.ListLegalActionsRequest(match_id=match_id))
                reply = self.answer("GetView", view_timeout, pending.result)
            finally:
                pending.cancel()  # a no-op once it answered; else nobody waits for it any more
            if reply.view_version != decision.view_version:
                return TurnResult.STALE
            view = seat_view(binding, reply)
        else:
            legal = self.call("ListLegalActions", pb.ListLegalActionsRequest(match_id=match_id))
        if legal.view_version != decision.view_version:
            return TurnResult.STALE
        if not legal.actions:
            return TurnResult.NOTHING_TO_DO
        return view, [binding.messages.action_value(a) for a in legal.actions]

    def submit(self, decision: _Decision, policy: Policy, view: Any, actions: list[Any]) -> tuple[TurnResult, str]:
        """Chooses among `actions` and submits the choice at the decision's version; what became of it, and why."""
        binding, match_id, seat, version = decision.binding, decision.match_id, decision.seat, decision.view_version
        if not actions:
            return TurnResult.NOTHING_TO_DO, ""
        choice = policy.choose(view, actions, seat, random.Random(seed_from(match_id, seat, version)))
        request = binding.pb2.SubmitActionRequest(
            match_id=match_id,
            expected_version=version,
            idempotency_key=decision_key(match_id, seat, version),
            action=binding.messages.action(choice),
        )
        try:
            self.call("SubmitAction", request)
        except grpc.RpcError as error:
            code = error.code()
            if code == grpc.StatusCode.ABORTED:  # the seat's view moved on: a later task decides
                return TurnResult.STALE, ""
            if code == grpc.StatusCode.PERMISSION_DENIED:
                return TurnResult.NOT_DUE, ""
            if code == grpc.StatusCode.FAILED_PRECONDITION:
                return TurnResult.REFUSED, str(error.details())
            raise
        return TurnResult.PLAYED, ""
