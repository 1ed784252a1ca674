"""Build Your Team (l.689–709): what a Coach may add to a Team under construction, and when it is done.

Pure functions over a `Draft` (the House, the Player cards, the Tactical cards and the
bought Spectators picked so far) and a `Catalogue` (every card a Coach may pick from).
Every refusal names the rule and quotes its line; `options` lists exactly the picks
`add_problem` accepts, so a client or a bot never re-derives a rule.

Completing a Team never costs anything: each House's basic Player cards (cost 0) are a
whole Team and its 15 basic Tactical cards a whole deck, so whatever has been picked,
the slots left can be filled for free. A pick is therefore legal when it fits the
Team's shape and the Funding (l.693), with no look-ahead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import msgspec

from menagerie.snitch.data import BOUGHT_SPECTATORS, FERVENT_FAN, HOUSES, UNIQUE_MARK, House
from menagerie.snitch.data.cards import DECK_SIZE

Part = Literal["house", "player", "tactic", "spectator"]
PARTS: tuple[Part, ...] = ("house", "player", "tactic", "spectator")

# "Teams must always have: 1 Keeper, 1 Seeker, 2 Beaters and 3 Chasers." (l.698), in lineup order.
TEAM: dict[str, int] = {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}
LINEUP_ORDER = ("keeper", "beater", "chaser", "seeker")


class _Card(Protocol):
    @property
    def cost(self) -> int: ...
    @property
    def name(self) -> str: ...


class _Affiliated(_Card, Protocol):
    @property
    def affiliation(self) -> tuple[House, ...]: ...
    @property
    def copies(self) -> int: ...


class _PlayerCard(_Affiliated, Protocol):
    @property
    def position(self) -> str: ...


class Draft(msgspec.Struct):
    """A Team under construction: its picks in order (the Fervent Fan is never picked: every Coach gets one).

    The picks, each "part:card", are the whole state; the House and the cards are read from
    them, and only the last pick may be taken back (an undo stack).
    """

    picks: list[str] = msgspec.field(default_factory=list)
    ready: bool = False

    def _cards(self, part: Part) -> list[str]:
        prefix = f"{part}:"
        cut = len(prefix)
        return [pick[cut:] for pick in self.picks if pick.startswith(prefix)]

    @property
    def house(self) -> House | None:
        """The House picked, if any (always the first pick: nothing else may be picked before it)."""
        first = self.picks[0] if self.picks else ""
        return first.removeprefix("house:") if first.startswith("house:") else None  # type: ignore[return-value]

    @property
    def players(self) -> list[str]:
        """The Player cards picked, in pick order."""
        return self._cards("player")

    @property
    def tactics(self) -> list[int]:
        """The Tactical cards picked, in pick order."""
        return [int(card) for card in self._cards("tactic")]

    @property
    def spectators(self) -> list[str]:
        """The Spectators bought, in pick order."""
        return self._cards("spectator")


@dataclass(frozen=True)
class Catalogue:
    """Every card a Coach may pick: Player cards and Spectators by id, each House's Tactical library by id."""

    players: Mapping[str, _PlayerCard]
    library: Mapping[House, Mapping[int, _Card]]
    spectators: Mapping[str, _Affiliated]


@dataclass(frozen=True)
class Limits:
    """The table's terms: the Funding (l.691) and whether the Spectators optional rule is on (l.711)."""

    funding: int
    spectators: bool


def unique_name(name: str) -> str | None:
    """The name a ✷ card shares with its namesakes (None for a card without the ✷, l.707)."""
    return name.removesuffix(UNIQUE_MARK) if name.endswith(UNIQUE_MARK) else None


def cost(catalogue: Catalogue, draft: Draft) -> int:
    """The Galleons the Team costs so far (l.693); the Fervent Fan is free (l.717)."""
    total = sum(catalogue.players[p].cost for p in draft.players)
    total += sum(catalogue.spectators[s].cost for s in draft.spectators)
    if draft.house is not None:
        total += sum(catalogue.library[draft.house][t].cost for t in draft.tactics)
    return total


def _names(catalogue: Catalogue, draft: Draft) -> Counter[str]:
    cards: list[_Card] = [catalogue.players[p] for p in draft.players]
    cards += [catalogue.spectators[s] for s in draft.spectators]
    return Counter(n for c in cards if (n := unique_name(c.name)) is not None)


@dataclass(frozen=True)
class _Facts:
    """What the checks of a pick read of a draft, worked out once (options checks every card against them)."""

    house: House
    players: list[str]
    tactics: list[int]
    spectators: list[str]
    positions: Counter[str]
    names: Counter[str]
    spent: int

    @classmethod
    def of(cls, catalogue: Catalogue, draft: Draft, house: House) -> _Facts:
        players = draft.players
        return cls(
            house=house,
            players=players,
            tactics=draft.tactics,
            spectators=draft.spectators,
            positions=Counter(catalogue.players[p].position for p in players),
            names=_names(catalogue, draft),
            spent=cost(catalogue, draft),
        )


def add_problem(catalogue: Catalogue, draft: Draft, limits: Limits, part: Part, card: str) -> str | None:
    """Why adding `card` to the draft is refused (the rule and its line), or None when it may be added."""
    if draft.ready:
        return "the Team is confirmed; nothing can be added"
    if part == "house":
        if draft.house is not None:
            return "the House is chosen; drop it first to choose another"
        return None if card in HOUSES else f"there is no House {card!r}"
    if draft.house is None:
        return "choose your House first: its Tactical library and its Players' affiliations depend on it"
    return _card_problem(catalogue, _Facts.of(catalogue, draft, draft.house), limits, part, card)


def _card_problem(catalogue: Catalogue, facts: _Facts, limits: Limits, part: Part, card: str) -> str | None:
    """Why a Player, Tactical card or Spectator may not join a draft whose House is chosen."""
    check = {"player": _player_problem, "tactic": _tactic_problem, "spectator": _spectator_problem}[part]
    problem, price, name = check(catalogue, facts, limits, card)
    if problem is not None:
        return problem
    if (unique := unique_name(name)) is not None and facts.names[unique]:
        return f"{unique} ✷ is already in the Team (l.707: only one of them, as a Player or as a Spectator)"
    if facts.spent + price > limits.funding:
        return f"{price} more Galleons would exceed the Funding of {limits.funding} ({facts.spent} spent; l.693)"
    return None


def _not_affiliated(name: str, house: House) -> str:
    return f"{name} cannot join {house.title()} (l.701: only the Teams listed may purchase it)"


# A part's own checks: (why refused or None, its price, its name for the ✷ rule).
_Check = tuple[str | None, int, str]


def _player_problem(catalogue: Catalogue, facts: _Facts, limits: Limits, card: str) -> _Check:
    player = catalogue.players.get(card)
    if player is None:
        return f"there is no Player card {card!r}", 0, ""
    if facts.house not in player.affiliation:
        return _not_affiliated(player.name, facts.house), 0, ""
    if facts.positions[player.position] >= TEAM[player.position]:
        return f"the Team already has {TEAM[player.position]} {player.position}(s) (l.698)", 0, ""
    if facts.players.count(card) >= player.copies:
        return f"no more {player.name} miniatures (l.221: not more than one of the same model)", 0, ""
    return None, player.cost, player.name


def _tactic_problem(catalogue: Catalogue, facts: _Facts, limits: Limits, card: str) -> _Check:
    library = catalogue.library[facts.house]
    if not card.isdigit() or int(card) not in library:
        return f"{facts.house.title()}'s Tactical library has no card {card}", 0, ""
    if int(card) in facts.tactics:
        return "that Tactical card is already in the deck", 0, ""
    if len(facts.tactics) >= DECK_SIZE:
        return f"the Tactical deck must always contain {DECK_SIZE} cards (l.697)", 0, ""
    return None, library[int(card)].cost, ""


def _spectator_problem(catalogue: Catalogue, facts: _Facts, limits: Limits, card: str) -> _Check:
    if not limits.spectators:
        return "this table plays without the Spectators optional rule", 0, ""
    spectator = catalogue.spectators.get(card)
    if spectator is None:
        return f"there is no Spectator card {card!r}", 0, ""
    if card == FERVENT_FAN:
        return "every Coach receives a Fervent Fan at no cost; it is not bought (l.699)", 0, ""
    if len(facts.spectators) >= BOUGHT_SPECTATORS:
        return f"at most {BOUGHT_SPECTATORS} Spectators may be purchased (l.699)", 0, ""
    if facts.house not in spectator.affiliation:
        return (
            f"{spectator.name} cannot join {facts.house.title()} (l.701: only the Teams listed may purchase it)",
            0,
            "",
        )
    if facts.spectators.count(card) >= spectator.copies:
        return f"no more {spectator.name} cards", 0, ""
    return None, spectator.cost, spectator.name


def drop_problem(draft: Draft, part: Part, card: str) -> str | None:
    """Why `card` cannot be taken back now, or None: only the last pick can (picks are undone in reverse)."""
    if draft.ready:
        return "the Team is confirmed"
    if not draft.picks:
        return "nothing has been picked yet"
    if draft.picks[-1] != f"{part}:{card}":
        last_part, last_card = draft.picks[-1].split(":", 1)
        return f"picks are taken back last first: the last one is {last_part} {last_card}"
    return None


def add(draft: Draft, part: Part, card: str) -> None:
    """Adds a card already checked by `add_problem`."""
    draft.picks.append(f"{part}:{card}")


def drop(draft: Draft) -> None:
    """Takes back the last pick, already checked by `drop_problem`."""
    draft.picks.pop()


def complete_problem(catalogue: Catalogue, draft: Draft, limits: Limits) -> str | None:
    """Why the draft is not yet a Team that may be confirmed (l.697–699), or None."""
    if draft.house is None:
        return "choose your House"
    positions = Counter(catalogue.players[p].position for p in draft.players)
    for position, count in TEAM.items():
        if positions[position] != count:
            return f"a Team has {count} {position}(s) (l.698); this one has {positions[position]}"
    if len(draft.tactics) != DECK_SIZE:
        return f"the Tactical deck must contain {DECK_SIZE} cards (l.697); it has {len(draft.tactics)}"
    if cost(catalogue, draft) > limits.funding:
        return f"the Team costs more than the Funding of {limits.funding} (l.693)"
    return None


def options(catalogue: Catalogue, draft: Draft, limits: Limits) -> list[tuple[Part, str]]:
    """Every card that may be added now (exactly what `add_problem` accepts: the same checks)."""
    if draft.ready:
        return []
    house = draft.house
    if house is None:
        return [("house", h) for h in HOUSES]
    candidates: list[tuple[Part, str]] = [("player", p) for p in catalogue.players]
    candidates += [("tactic", str(t)) for t in catalogue.library[house]]
    if limits.spectators:
        candidates += [("spectator", s) for s in catalogue.spectators]
    facts = _Facts.of(catalogue, draft, house)
    return [(part, card) for part, card in candidates if _card_problem(catalogue, facts, limits, part, card) is None]


def last_pick(draft: Draft) -> tuple[Part, str] | None:
    """The pick that may be taken back now (None when nothing is picked or the Team is confirmed)."""
    if draft.ready or not draft.picks:
        return None
    part, card = draft.picks[-1].split(":", 1)
    return part, card  # type: ignore[return-value]


def lineup(catalogue: Catalogue, players: Sequence[str]) -> list[str]:
    """A complete Team's Player cards in lineup order: Keeper, Beaters, Chasers, Seeker (pitch.PITCH_LINEUP)."""
    return sorted(players, key=lambda p: LINEUP_ORDER.index(catalogue.players[p].position))


@dataclass(frozen=True)
class Requirement:
    """One thing the rules ask of a Team, in words, with how far the draft meets it (have of need)."""

    text: str
    have: int
    need: int
    met: bool


def requirements(catalogue: Catalogue, draft: Draft, limits: Limits) -> list[Requirement]:
    """What the rules ask of a Team (l.693–707) and how far this draft meets each: the board's checklist.

    The House, the Positions and the deck must be filled before the Team may be confirmed
    (`complete_problem`); the ✷ names, the Spectators and the Funding are limits a legal pick
    never breaks, listed so a Coach sees what is left of them.
    """
    positions = Counter(catalogue.players[p].position for p in draft.players)
    house = draft.house
    out = [
        Requirement(
            f"A House (l.701): {house.title() if house else 'choose one first'}", int(bool(house)), 1, bool(house)
        )
    ]
    for position in LINEUP_ORDER:
        need = TEAM[position]
        noun = position.capitalize() + ("s" if need > 1 else "")
        out.append(Requirement(f"{need} {noun} (l.698)", positions[position], need, positions[position] == need))
    tactics = len(draft.tactics)
    out.append(Requirement(f"{DECK_SIZE} Tactical cards (l.697)", tactics, DECK_SIZE, tactics == DECK_SIZE))
    names = sorted(_names(catalogue, draft))
    taken = f": {', '.join(n + UNIQUE_MARK for n in names)} in the Team" if names else ""
    out.append(Requirement(f"One card of each ✷ name, as a Player or a Spectator (l.707){taken}", len(names), 0, True))
    if limits.spectators:
        bought = len(draft.spectators)
        text = f"Up to {BOUGHT_SPECTATORS} bought Spectators besides the free Fervent Fan (l.699)"
        out.append(Requirement(text, bought, BOUGHT_SPECTATORS, True))
    spent = cost(catalogue, draft)
    text = f"At most the Funding of {limits.funding} Galleons spent (l.693)"
    out.append(Requirement(text, spent, limits.funding, spent <= limits.funding))
    return out
