"""Capturing in mode II: whether the seat can pay for the face-up creature on its space, and the capture.

The seat pays the creature's cost from its resource tokens (the cost's own colours first,
wild tokens for the rest: costs.py); the tokens paid go back into the supply, which is
shuffled, the space is refilled, and the capture may win the match or else ends the turn.
Mode III's pooled capture is its own (salem.py); in mode I a creature is captured as it is
revealed (stops.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from menagerie.beasts.engine.costs import cost_of, deficit, pay, resources_of
from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import (
    BeastsState,
    Capture,
    CreatureCaptured,
    Event,
    ResourceCounts,
    SupplyShuffled,
)
from menagerie.beasts.engine.parts import EngineParts


class Capturing(EngineParts):
    """Mode II's `Capture`: why it is refused, what a creature's cost lacks and takes, and the capture itself."""

    def _capture_problem(self, state: BeastsState, seat: int, action: Capture) -> str | None:
        """Why `seat` cannot capture now, or None when it can."""
        if state.mode == "advanced":
            return self._capture_advanced_problem(state, seat)
        if self._can_capture(state, seat):
            return None
        if state.mode == "capture":
            return "in mode I a creature is captured as soon as it is revealed"
        player = state.players[seat]
        token = state.tokens[player.position]
        if token is None or token in COLOURS or not state.face_up[player.position]:
            return "there is no face-up creature on your space"
        creature = self.creatures[token]
        return (
            f"the {creature.name} needs {_describe(creature.cost)}; you lack {self.shortfall(player.resources, token)}"
        )

    def _can_capture(self, state: BeastsState, seat: int) -> bool:
        """Mode II: a face-up creature lies on the seat's space and its resources pay for it."""
        if state.mode == "capture":
            return False
        player = state.players[seat]
        token = state.tokens[player.position]
        if token is None or not state.face_up[player.position] or token not in self.cost_tuples:
            return False
        return not deficit(resources_of(player.resources), self.cost_tuples[token])

    def shortfall(self, resources: Mapping[str, int], creature_id: str) -> str:
        """What `resources` cannot pay of the creature's cost, even with wild tokens ('' if they can)."""
        cost = self.creatures[creature_id].cost
        lacking = deficit(resources_of(resources), cost_of(cost))
        if not lacking:
            return ""
        missing = {c: max(0, n - resources.get(c, 0)) for c, n in cost.items()}
        return f"{lacking} more token(s) ({_describe(missing)} without wild tokens)"

    def payment(self, resources: Mapping[str, int], creature_id: str) -> dict[str, int]:
        """The tokens a capture takes (see costs.pay): the cost's own colours first, wild for the rest."""
        have = resources_of(resources)
        left = pay(have, cost_of(self.creatures[creature_id].cost))
        return {colour: before - after for colour, before, after in zip(COLOURS, have, left, strict=True)}

    def _capture(self, state: BeastsState, seat: int, action: Capture) -> list[Event]:
        player = state.players[seat]
        space = player.position
        creature = state.tokens[space]
        assert creature is not None
        paid = self.payment(player.resources, creature)
        returned = []
        for colour, count in paid.items():
            player.resources[colour] -= count
            returned += [colour] * count
        player.captured.append(creature)
        state.tokens[space] = None
        state.face_up[space] = False
        events: list[Event] = [
            CreatureCaptured(seat=seat, creature=creature, space=space, paid=ResourceCounts(**paid)),
        ]
        state.supply += returned
        state.rng.shuffle(state.supply)
        events.append(SupplyShuffled(returned=len(returned), size=len(state.supply)))
        events += self._refill(state, space)
        finished = self._check_end(state, seat)
        return events + (finished or self._end_turn(state))


def _describe(counts: Mapping[Any, int]) -> str:
    parts = [f"{n} {c}" for c, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"
