"""Words for labels, prompts and event text: who, verbs, plurals, lists.

Engines write every sentence through a `Narrator`, which knows who is reading: the
viewer is "you", every other seat is its display name, and verbs agree
("You roll" / "Ann rolls").
"""

from __future__ import annotations

from collections.abc import Sequence


class Narrator:
    """Writes about seats for one reader (a seat, or None for a spectator)."""

    def __init__(self, viewer: int | None = None, names: Sequence[str] = ()) -> None:
        self.viewer = viewer
        self.names = list(names)

    def name(self, seat: int) -> str:
        """The seat's display name ("Seat 2" when none is known)."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"Seat {seat}"

    def who(self, seat: int, start: bool = True) -> str:
        """ "You"/"you" for the reader, else the seat's name."""
        if seat == self.viewer:
            return "You" if start else "you"
        return self.name(seat)

    def does(self, seat: int, verb: str, third_person: str | None = None, start: bool = True) -> str:
        """ "You roll" / "Ann rolls": the seat and its verb, agreeing."""
        if seat == self.viewer:
            return f"{self.who(seat, start)} {verb}"
        return f"{self.who(seat, start)} {third_person or third_person_of(verb)}"

    def whose(self, seat: int) -> str:
        """ "your" / "Ann's"."""
        return "your" if seat == self.viewer else f"{self.name(seat)}'s"

    def seats(self, seats: Sequence[int]) -> str:
        """ "you, Ann and Bob"."""
        return listing([self.who(s, start=False) for s in seats])


# How a seat's result is told ("Ann won", "the team lost"): one place for every engine's text
# and every terminal renderer (menagerie.cli.results).
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drew"}


def third_person_of(verb: str) -> str:
    """ "roll" -> "rolls", "pass" -> "passes", "carry" -> "carries", "are" -> "is"."""
    irregular = {"are": "is", "have": "has", "were": "was", "do": "does"}
    if verb in irregular:
        return irregular[verb]
    head, _, rest = verb.partition(" ")
    if head in irregular:
        inflected = irregular[head]
    elif head.endswith(("s", "sh", "ch", "x", "z", "o")):
        inflected = head + "es"
    elif head.endswith("y") and head[-2:-1] not in ("a", "e", "i", "o", "u"):
        inflected = head[:-1] + "ies"
    else:
        inflected = head + "s"
    return f"{inflected} {rest}" if rest else inflected


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 die", "2 dice", "3 spaces"."""
    if count == 1:
        return f"1 {noun}"
    if nouns is None:
        nouns = noun[: -len("die")] + "dice" if noun.endswith("die") else noun + "s"
    return f"{count} {nouns}"


def article(word: str) -> str:
    """ "a capture", "an insight"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def listing(words: Sequence[str], conjunction: str = "and") -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
