"""Words for labels, prompts and event text: who, verbs, plurals, lists.

Engines write every sentence through a `Narrator`, which knows who is reading: the
viewer is "you", every other seat is its display name, and verbs agree
("You roll" / "Ann rolls"). A seat without a display name is "Seat N", counted from 1
(`seat_name`, the one rule for how a person reads a seat; indexes stay 0-based inside).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# How a sentence written without names mentions a seat ("Seat 2", counted from 1): refusals and
# results are written once, for every reader, and a reader's Narrator names them (Narrator.named).
SEAT_MENTION = re.compile(r"\bSeat (\d+)\b")


def seat_name(seat: int, display_name: str = "", bot_level: str = "") -> str:
    """How a person reads a seat: its display name, else "Bot 2 (greedy)", else "Seat 2" (index + 1)."""
    if display_name:
        return display_name
    if bot_level:
        return f"Bot {seat + 1} ({bot_level})"
    return f"Seat {seat + 1}"


def name_mentions(text: str, names: Mapping[int, str]) -> str:
    """A sentence written for every reader ("Seat 2 wins"), its seat mentions replaced by the seats' names."""

    def name(mention: re.Match[str]) -> str:
        seat = int(mention.group(1)) - 1
        return seat_name(seat, names.get(seat, ""))

    return SEAT_MENTION.sub(name, text)


class Narrator:
    """Writes about seats for one reader (a seat, or None for a spectator)."""

    def __init__(self, viewer: int | None = None, names: Sequence[str] = ()) -> None:
        self.viewer = viewer
        self.names = list(names)

    def name(self, seat: int) -> str:
        """The seat's display name (seat_name: "Seat 2" for index 1 when none is known)."""
        return seat_name(seat, self.names[seat] if 0 <= seat < len(self.names) else "")

    def named(self, text: str) -> str:
        """A sentence written for every reader, its seat mentions ("Seat 2") replaced by their names."""
        return name_mentions(text, dict(enumerate(self.names)))

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
