"""A live match's win estimates, for its spectators' chart (Matches.GetLiveWinChances).

While someone watches a match's chart, the dispatcher sends this task as the match moves, at
most once every LIVE_EVERY_MS per match (menagerie.shared.store.match_store: the move's
submit.lua marks the turn notice that asks for one). The task asks
the game service for the spectator's view of one step (`Matches.GetReplay` without a seat: the
service's one view function, as any spectator sees it), estimates each seat's chance from that
view alone (menagerie.search.chances `WinChances.of_view`: the engine rebuilds a state from the
spectator's view, so nothing a seat keeps hidden can count, and the true state is never read),
and hands it to the game service (`RecordWinEstimates` with `live`), which keeps it a while
beside the match. A step whose spectator's view reveals too little for an estimate is recorded
without chances, so the chart can say so.
"""

from __future__ import annotations

from menagerie.bots.estimates import Estimator
from menagerie.bots.games import BINDINGS
from menagerie.common.v1 import matches_pb2
from menagerie.rules.rng import seed_from


class LiveEstimator(Estimator):
    """Estimates one step of a match in progress from the spectator's view and records it."""

    def estimate(self, game: str, match_id: str, version: int) -> list[float] | None:
        """Estimates and records step `version` from the spectator's view; the chances, or None (no estimate)."""
        stub, auth = self.matches_api(game, match_id)
        page = stub.GetReplay(
            matches_pb2.GetReplayRequest(match_id=match_id, from_version=version, page_size=1),
            metadata=auth,
            timeout=self.call_timeout,
        )
        if not page.steps:
            return None
        step = page.steps[0]
        binding = BINDINGS[game]
        message = binding.pb2.View()
        if not step.view.Unpack(message):
            raise ValueError(f"step {step.version} of {match_id} holds no {binding.pb2.View.DESCRIPTOR.full_name}")
        view = binding.messages.view_value(message)
        found = self.chances_of(game).of_view(view, seed_from(match_id, step.version))
        request = matches_pb2.RecordWinEstimatesRequest(match_id=match_id, live=True)
        request.steps.add(version=step.version, chances=found or [])
        stub.RecordWinEstimates(request, metadata=auth, timeout=self.call_timeout)
        return found
