"""Each seat's chance to win a position as a spectator may estimate it: the `mcts` level's evaluation.

A replay's chart (docs/architecture.md "Replays") shows at every step what the bots think of
each seat's chances. It must tell nothing a spectator could not know, so a position is never
judged as it is. First everything a spectator cannot see is put in one canonical order among
its hidden places and the generator is zeroed (`canonical_hidden`, from the same declarations
that keep views from leaking): two states a spectator cannot tell apart become one. Then each
of `worlds` samples shuffles those places (`permute_hidden` with no viewer) and reseeds the
generator, and the mean of the game's evaluation over them is the estimate. It is so a function
of the spectator's view and `seed` alone: `engine.determinize` for a spectator, which every
engine gets from its declarations whether or not its own `state_from_view` reads a spectator's
view. A live match's chart starts from the spectator's view itself (`of_view`), never the true state.
tests/unit/search/test_chances.py checks that twins a spectator cannot tell apart get the
same estimate, and that the true position would not.
"""

from __future__ import annotations

from typing import Any

import msgspec

from menagerie.rules.hidden import canonical_hidden, permute_hidden
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

    def of_view(self, view: Any, seed: int) -> list[float] | None:
        """Each seat's chance to win from a spectator's view alone (a live match's chart): `of` a state built from it.

        The state is the engine's `state_from_view` for a spectator, so nothing any seat keeps hidden can count.
        """
        return self.of(self.engine.state_from_view(view, None), seed)

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
        packed = self._encode(canonical_hidden(self._decoder.decode(self._encode(state)), None))
        sampler = Rng(seed)
        total = [0.0] * seats
        for _ in range(self.worlds):
            world = permute_hidden(self._decoder.decode(packed), None, Rng(sampler.below(1 << 63)))
            found = self.search.estimate(world)
            if found is None:
                return None
            total = [t + value for t, value in zip(total, found, strict=True)]
        return [t / self.worlds for t in total]
