"""A small counter-based random number generator that lives inside game state.

SplitMix64 evaluated at (seed, counter): the whole generator is two integers, so a
state clone costs nothing extra, and a match replays exactly from its seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

import msgspec

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64

T = TypeVar("T")


class Rng(msgspec.Struct, array_like=True):
    """Counter-based SplitMix64: output n is mix(seed + n * gamma)."""

    seed: int
    counter: int = 0

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.counter += 1
        z = (self.seed + self.counter * _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def roll(self, sides: int = 6) -> int:
        """A die roll, 1..sides."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place: j = below(i + 1) for i from the last index down to 1."""
        # below and next_u64 written out: a search shuffles hidden piles at every iteration.
        seed, counter = self.seed, self.counter
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                counter += 1
                z = (seed + counter * _GAMMA) & _MASK
                z = ((z ^ (z >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.counter = counter


def seed_from(*parts: int | str) -> int:
    """A stable 64-bit seed derived from several values (e.g. a base seed and a game number)."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")
