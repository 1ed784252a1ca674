"""A finished match's win estimates: each seat's chance to win at every step, for its replay's chart.

The dispatcher queues one task per finished match (its FINISHED notice) on the game's search
queue: the work is a search level's kind, seconds of CPU rather than a call. The task asks the
game service, with a bot's seat token of the match, for the match's seed and actions
(`Matches.GetReplay` without views: a finished match reveals them), replays the match with the
game's engine, estimates every step with the `mcts` level's evaluation from a spectator's view
(menagerie.search.chances: nothing any seat kept hidden counts), and hands the estimates to the
game service (`Matches.RecordWinEstimates`), which keeps them beside the match: a game service
stays the only writer of a match's records. Running it twice stores the same estimates again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc

from menagerie.bots.games import BINDINGS
from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import seed_from
from menagerie.search.chances import WinChances
from menagerie.shared.rpc.channels import match_metadata
from menagerie.shared.tokens import TokenSigner

SUBJECT = "bot:estimates"
TOKEN_SECONDS = 300
# Steps per GetReplay page (its largest): without views a page is a few kilobytes.
PAGE_SIZE = 200


Metadata = tuple[tuple[str, str], ...]


class Estimator:
    """What both estimators share: the game services' Matches API with a bot's token, and each game's WinChances."""

    def __init__(
        self,
        signer: TokenSigner,
        endpoints: dict[str, str],
        channel: Callable[[str], grpc.Channel],
        call_timeout: float,
    ) -> None:
        self.signer = signer
        self.endpoints = endpoints
        self.channel = channel
        self.call_timeout = call_timeout
        self._chances: dict[str, WinChances] = {}

    def matches_api(self, game: str, match_id: str) -> tuple[Any, Metadata]:
        """The game service's Matches stub and the metadata of a call about `match_id` (token, routing)."""
        stub = matches_pb2_grpc.MatchesStub(self.channel(self.endpoints[game]))
        # A bot's token of the match (the pool's keys sign no other kind): a finished match shows anyone
        # its replay, and GetReplay without a seat answers a match in progress with the spectator's views.
        token, _ = self.signer.issue_seat(match_id, 0, SUBJECT, "Bot", TOKEN_SECONDS, bot=True)
        return stub, (("authorization", f"Bearer {token}"), match_metadata(match_id))

    def chances_of(self, game: str) -> WinChances:
        """The game's estimator (the mcts level's evaluation), made once per game and kept."""
        chances = self._chances.get(game)
        if chances is None:
            chances = self._chances[game] = WinChances(game, engine=BINDINGS[game].engine)
        return chances


class MatchEstimator(Estimator):
    """Computes and records the win estimates of finished matches, one game service call per page and one to store."""

    def estimate(self, game: str, match_id: str) -> int:
        """Estimates and records every step of a finished match; how many steps got an estimate (0: not finished)."""
        stub, auth = self.matches_api(game, match_id)
        pages = list(self._pages(stub, auth, match_id))
        if not pages or not pages[0].HasField("seed"):
            return 0  # not over: nothing to estimate yet
        chances = self._estimated(game, match_id, pages)
        request = matches_pb2.RecordWinEstimatesRequest(match_id=match_id)
        for version, values in chances:
            request.steps.add(version=version, chances=values)
        stub.RecordWinEstimates(request, metadata=auth, timeout=self.call_timeout)
        return len(request.steps)

    def _pages(self, stub: Any, auth: Metadata, match_id: str) -> Iterator[Any]:
        """The replay's pages, without views: each step's seat and action, and the seed."""
        version = 1
        while version:
            page = stub.GetReplay(
                matches_pb2.GetReplayRequest(
                    match_id=match_id, from_version=version, page_size=PAGE_SIZE, without_views=True
                ),
                metadata=auth,
                timeout=self.call_timeout,
            )
            yield page
            version = page.next_version

    def _estimated(self, game: str, match_id: str, pages: list[Any]) -> list[tuple[int, list[float]]]:
        """Each step's (version, chances) with an estimate: the match replayed from its seed and actions."""
        binding = BINDINGS[game]
        engine = binding.engine
        chances = self.chances_of(game)
        summary = pages[0].match
        config = summary.config
        state, _ = engine.setup(MatchSetup(config.mode, len(summary.seats), dict(config.options)), pages[0].seed)
        action = binding.pb2.Action()
        out = []
        for step in (step for page in pages for step in page.steps):
            if step.HasField("seat"):
                if not step.action.Unpack(action):
                    raise ValueError(
                        f"step {step.version} of {match_id} holds no {binding.pb2.Action.DESCRIPTOR.full_name}"
                    )
                engine.apply(state, step.seat, binding.messages.action_value(action))
            found = chances.of(state, seed_from(match_id, step.version))
            if found is not None:
                out.append((step.version, found))
        return out
