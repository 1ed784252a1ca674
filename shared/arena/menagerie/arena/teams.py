"""The Teams bots build in the arena, and a balance report over them (a Build Your Team mode).

A game whose match starts by building Teams (Catch the Golden Snitch, mode "advanced")
reports each change to a seat's Team as a `team_changed` event (seat, part, card,
dropped) and keeps its cards in `engine.catalogue` (players, library by House,
spectators; each card with a name, a cost and, for Players and Spectators, the Houses
that may buy it). `menagerie arena sweep` (menagerie.arena.sweep) replays those events
per seat (`TeamWatcher`), so a Team is what the seat built, whoever built it, and
`Balance` sums the Teams of many matches:

- win rates by House (the House each bot built) and by the table's Funding, per level;
- the Galleons each level spent;
- how often each card that costs Galleons was bought by a level's Teams, out of the
  Teams of a House that could buy it: the most and least bought Player cards, Tactical
  cards and Spectators (the start of a balance report).

Nothing here knows a rule: it counts what the engine reported and reads names and costs
from the engine's catalogue.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TOP = 5  # cards listed at each end of a pick ranking
PARTS = ("player", "tactic", "spectator")
PART_TITLE = {"player": "Player cards", "tactic": "Tactical cards", "spectator": "Spectators"}


def _tag(event: Any) -> str:
    config = getattr(type(event), "__struct_config__", None)
    return str(getattr(config, "tag", "") or "")


@dataclass(frozen=True)
class TeamRecord:
    """One seat's Team in one match, as built, with the match's result for that seat."""

    level: str  # the bot level that built it
    house: str
    players: tuple[str, ...]
    tactics: tuple[str, ...]
    spectators: tuple[str, ...]
    won: bool
    funding: str = ""  # the table's Funding option ("" when the mode has none)

    def cards(self, part: str) -> tuple[str, ...]:
        """The cards of one part of the Team: "player", "tactic" or "spectator"."""
        return {"player": self.players, "tactic": self.tactics, "spectator": self.spectators}[part]


class TeamWatcher:
    """Replays a match's `team_changed` events: each seat's picks, a drop taking its card back out."""

    def __init__(self) -> None:
        self.picks: dict[int, list[tuple[str, str]]] = defaultdict(list)

    def see(self, events: Iterable[Any]) -> None:
        """Takes in a batch of events: the setup's or one action's."""
        for event in events:
            if _tag(event) != "team_changed" or event.part is None or event.card is None:
                continue
            picks = self.picks[event.seat]
            if event.dropped:
                picks.reverse()
                picks.remove((event.part, event.card))
                picks.reverse()
            else:
                picks.append((event.part, event.card))

    def records(self, levels: Mapping[int, str], winners: Sequence[int], funding: str = "") -> list[TeamRecord]:
        """The Teams built, one per seat that built one (none in a mode without Build Your Team)."""
        out = []
        for seat, picks in sorted(self.picks.items()):
            house = next((card for part, card in picks if part == "house"), "")
            out.append(
                TeamRecord(
                    level=levels[seat],
                    house=house,
                    players=tuple(card for part, card in picks if part == "player"),
                    tactics=tuple(card for part, card in picks if part == "tactic"),
                    spectators=tuple(card for part, card in picks if part == "spectator"),
                    won=seat in winners,
                    funding=funding,
                )
            )
        return out


@dataclass
class Rate:
    """Wins out of Teams."""

    teams: int = 0
    wins: int = 0

    def add(self, won: bool) -> None:
        """Counts one more Team, and its win if it won."""
        self.teams += 1
        self.wins += won

    @property
    def rate(self) -> float:
        """Wins per Team (0 with no Teams)."""
        return self.wins / self.teams if self.teams else 0.0


@dataclass(frozen=True)
class Pick:
    """How often one card was bought: by `picked` of the `eligible` Teams (of a House that could buy it)."""

    part: str
    card: str
    house: str  # the library's House for a Tactical card ("" for a Player or Spectator)
    name: str
    cost: int
    picked: int
    eligible: int

    @property
    def rate(self) -> float:
        """Bought per eligible Team (0 with none eligible)."""
        return self.picked / self.eligible if self.eligible else 0.0


@dataclass
class Balance:
    """The Teams of many matches, summed (see the module docstring)."""

    catalogue: Any
    records: list[TeamRecord] = field(default_factory=list)

    def levels(self) -> list[str]:
        """The levels that built the Teams, sorted."""
        return sorted({r.level for r in self.records})

    def by_house(self) -> dict[tuple[str, str], Rate]:
        """(level, House) -> wins of the Teams that level built in that House."""
        rates: dict[tuple[str, str], Rate] = defaultdict(Rate)
        for r in self.records:
            rates[r.level, r.house].add(r.won)
        return dict(sorted(rates.items()))

    def by_funding(self) -> dict[tuple[str, str], Rate]:
        """(level, Funding) -> wins of that level's Teams at that Funding."""
        rates: dict[tuple[str, str], Rate] = defaultdict(Rate)
        for r in self.records:
            rates[r.level, r.funding].add(r.won)
        return dict(sorted(rates.items(), key=lambda kv: (kv[0][0], _number(kv[0][1]))))

    def cost(self, record: TeamRecord) -> int:
        """The Galleons a Team cost (the catalogue's prices)."""
        catalogue = self.catalogue
        total = sum(catalogue.players[p].cost for p in record.players)
        total += sum(catalogue.spectators[s].cost for s in record.spectators)
        if record.house:
            total += sum(catalogue.library[record.house][int(t)].cost for t in record.tactics)
        return int(total)

    def spent(self) -> dict[tuple[str, str], float]:
        """(level, Funding) -> the mean Galleons a Team cost."""
        sums: dict[tuple[str, str], list[int]] = defaultdict(list)
        for r in self.records:
            sums[r.level, r.funding].append(self.cost(r))
        return {key: sum(v) / len(v) for key, v in sorted(sums.items(), key=lambda kv: (kv[0][0], _number(kv[0][1])))}

    def picks(self, part: str, level: str) -> list[Pick]:
        """Every card of `part` that costs Galleons, with how often `level`'s eligible Teams bought it.

        A Team is eligible for a card when its House may buy it and the table's Funding covers its cost.
        """
        teams = [r for r in self.records if r.level == level and r.house]
        bought: dict[tuple[str, str], int] = defaultdict(int)
        for r in teams:
            for card in set(r.cards(part)):
                bought[r.house if part == "tactic" else "", card] += 1

        def eligible(houses: Iterable[str], cost: int) -> int:
            wanted = set(houses)
            return sum(1 for r in teams if r.house in wanted and _number(r.funding) >= cost)

        catalogue = self.catalogue
        out = []
        if part == "tactic":
            for house, library in catalogue.library.items():
                for card_id, card in library.items():
                    if card.cost > 0:
                        n, key = eligible([house], card.cost), str(card_id)
                        out.append(Pick(part, key, house, card.name, card.cost, bought[house, key], n))
        else:
            cards = catalogue.players if part == "player" else catalogue.spectators
            for card_id, card in cards.items():
                if card.cost > 0:
                    n = eligible(card.affiliation, card.cost)
                    out.append(Pick(part, card_id, "", card.name, card.cost, bought["", card_id], n))
        return [p for p in out if p.eligible]


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("inf")


def _pct(rate: float) -> str:
    return f"{rate:6.1%}"


def _pick_line(pick: Pick) -> str:
    where = f"{pick.house.title()} " if pick.house else ""
    return f"{_pct(pick.rate)}  {pick.picked:>4}/{pick.eligible:<4} {pick.cost} G  {where}{pick.name}"


def balance_report(balance: Balance, level: str = "greedy", top: int = TOP) -> str:
    """The balance report: win rates by House and by Funding, Galleons spent, the most and least bought cards."""
    if not balance.records:
        return ""
    lines = [f"Build Your Team: {len(balance.records)} Teams built ({', '.join(balance.levels())})"]
    lines.append("  by House              teams   wins  win rate")
    for (who, house), rate in balance.by_house().items():
        lines.append(f"    {who:<7} {house.title() or '?':<12}{rate.teams:>6} {rate.wins:>6}  {_pct(rate.rate)}")
    spent = balance.spent()
    lines.append("  by Funding            teams   wins  win rate  Galleons spent")
    for (who, funding), rate in balance.by_funding().items():
        lines.append(
            f"    {who:<7} {funding or '-':<12}{rate.teams:>6} {rate.wins:>6}  {_pct(rate.rate)}"
            f"  {spent[who, funding]:5.2f}"
        )
    for part in PARTS:
        picks = balance.picks(part, level)
        if not picks:
            continue
        ranked = sorted(picks, key=lambda p: (-p.rate, p.house, p.name))
        lines.append(f"  {PART_TITLE[part]} bought by {level} Teams (of those whose House and Funding allow each)")
        most = [p for p in ranked[:top] if p.rate > 0]  # a card never bought is not among the most bought
        lines += [f"    most   {_pick_line(p)}" for p in most]
        least = ranked[max(len(most), len(ranked) - top) :]
        never = sum(1 for p in ranked if p.rate == 0)
        if never > top:
            lines.append(f"    never  {never} of {len(ranked)} cards were bought by no Team; among them:")
        lines += [f"    least  {_pick_line(p)}" for p in reversed(least)]
    return "\n".join(lines)
