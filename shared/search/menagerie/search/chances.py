"""Each seat's chance to win a position as a spectator may estimate it: the `mcts` level's evaluation.

A replay's chart (docs/architecture.md "Match keys": the win estimates) shows at every step what
the bots think of each seat's chances. It must tell nothing a spectator could not know, so a
position is never judged as it is: each of `worlds` samples shuffles everything a spectator
cannot see among its hidden places (`permute_hidden` with no viewer, the same declarations
that keep views from leaking), reseeds the generator, and the mean of the game's evaluation
over them is the estimate. The samples depend only on what the spectator's view shows (the
hidden values are only rearranged among the places it cannot see), so the estimate is a
function of that view; it is `engine.determinize` for a spectator, which every engine gets
from its declarations whether or not its own `state_from_view` reads a spectator's view.
Deterministic from `seed`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.search.mcts import MctsPolicy

# Worlds sampled per position: the chart's curve is the mean over them.
WORLDS = 8


class WinChances:
    """The `mcts` level's estimate of each seat's chance to win, from a spectator's view of a state."""

    def __init__(self, game: str, engine: Any = None, worlds: int = WORLDS) -> None:
        self.search = MctsPolicy(game, engine=engine)
        self.engine = self.search.engine
        self.worlds = worlds
        self._encode = msgspec.msgpack.Encoder().encode
        self._decoder = msgspec.msgpack.Decoder(self.engine.state_type)

    @property
    def evaluates(self) -> bool:
        """Whether the game offers an evaluation (without one only a finished match has chances)."""
        return self.search.evaluate is not None

    def of(self, state: Any, seed: int) -> list[float] | None:
        """Each seat's chance to win, by seat (the result once the match is over); None where the game has no estimate.

        `state` is left as it is: the samples are copies.
        """
        seats = len(state.players)
        outcome = self.engine.outcome(state)
        if outcome is not None:
            return self.search.rewards(outcome, seats, self.search.cooperative(state))
        if not self.evaluates:
            return None
        packed = self._encode(state)
        sampler = Rng(seed)
        total = [0.0] * seats
        for _ in range(self.worlds):
            world = permute_hidden(self._decoder.decode(packed), None, Rng(sampler.below(1 << 63)))
            found = self.search.estimate(world)
            if found is None:
                return None
            total = [t + value for t, value in zip(total, found, strict=True)]
        return [t / self.worlds for t in total]
