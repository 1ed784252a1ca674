"""Fantasy Zoo in the terminal: zoos, values, hands and goals, and every action in words.

Everything comes from menagerie.zoo.v1 messages. A zoo's enclosures name their animals
by card id only, so the UI remembers every card it has been shown (in views and in
events, e.g. `animal_placed`) to name the animals living in the zoos; card ids belong
to one fixed card set, so what it remembers is never wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

import grpc
from google.protobuf.message import Message
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from menagerie.common.v1 import common_pb2
from menagerie.zoo.v1 import zoo_pb2, zoo_pb2_grpc

Card = zoo_pb2.Card
HABITAT: dict[int, str] = {
    zoo_pb2.HABITAT_FOREST: "forest",
    zoo_pb2.HABITAT_MOUNTAIN: "mountain",
    zoo_pb2.HABITAT_DESERT: "desert",
    zoo_pb2.HABITAT_WATER: "water",
}
TYPE_NAME: dict[int, str] = {
    zoo_pb2.ENCLOSURE_TYPE_FOREST: "forest",
    zoo_pb2.ENCLOSURE_TYPE_MOUNTAIN: "mountain",
    zoo_pb2.ENCLOSURE_TYPE_DESERT: "desert",
    zoo_pb2.ENCLOSURE_TYPE_WATER: "water",
    zoo_pb2.ENCLOSURE_TYPE_MYSTIC: "mystic",
}
TYPE_TAG: dict[int, str] = {
    zoo_pb2.ENCLOSURE_TYPE_FOREST: "Fo",
    zoo_pb2.ENCLOSURE_TYPE_MOUNTAIN: "Mo",
    zoo_pb2.ENCLOSURE_TYPE_DESERT: "De",
    zoo_pb2.ENCLOSURE_TYPE_WATER: "Wa",
    zoo_pb2.ENCLOSURE_TYPE_MYSTIC: "My",
}
TYPE_STYLE: dict[int, str] = {
    zoo_pb2.ENCLOSURE_TYPE_FOREST: "green",
    zoo_pb2.ENCLOSURE_TYPE_MOUNTAIN: "grey70",
    zoo_pb2.ENCLOSURE_TYPE_DESERT: "yellow",
    zoo_pb2.ENCLOSURE_TYPE_WATER: "blue",
    zoo_pb2.ENCLOSURE_TYPE_MYSTIC: "magenta",
}
CONNECTOR: dict[int, str] = {
    zoo_pb2.CONNECTOR_UPPER: "up",
    zoo_pb2.CONNECTOR_MIDDLE: "mid",
    zoo_pb2.CONNECTOR_LOWER: "low",
}
# The character sheet's paths leave it in the middle of both edges (the proto does not say).
SHEET_CONNECTOR = zoo_pb2.CONNECTOR_MIDDLE
VALUE_NAME: dict[int, str] = {
    zoo_pb2.VALUE_DANGEROUS: "Dangerous",
    zoo_pb2.VALUE_CUTE: "Cute",
    zoo_pb2.VALUE_RARE: "Rare",
}
LEVEL_NAME: dict[int, str] = {zoo_pb2.LEVEL_TOP: "top", zoo_pb2.LEVEL_BOTTOM: "bottom"}
END_NAME: dict[int, str] = {zoo_pb2.END_LEFT: "left", zoo_pb2.END_RIGHT: "right"}
PHASE_NAME: dict[int, str] = {
    zoo_pb2.PHASE_DRAFTING: "Drafting",
    zoo_pb2.PHASE_CONSTRUCTION: "Construction",
    zoo_pb2.PHASE_REWARDS: "Open-goal rewards",
    zoo_pb2.PHASE_SECRET_GOALS: "Secret goals",
    zoo_pb2.PHASE_FINISHED: "Finished",
}
RESULT: dict[int, str] = {common_pb2.RESULT_WIN: "won", common_pb2.RESULT_LOSS: "lost", common_pb2.RESULT_DRAW: "drew"}
# The widest a card's column in a drawn row may be (longer cells wrap), and the label column.
CELL_WIDTH = 18
LABEL_WIDTH = 12
SHOWN_DISCARDS = 6
# One card's column in a drawn row: its header (the position) and its cells, one per label.
Column = tuple[str, list[RenderableType]]


# ------------------------------------------------------------------------- words


def _gain(gain: zoo_pb2.Gain | zoo_pb2.Values) -> str:
    """ "+2 Cute +1 Rare, −1 Dangerous": increases first, then decreases."""
    amounts = [(gain.dangerous, "Dangerous"), (gain.cute, "Cute"), (gain.rare, "Rare")]
    up = " ".join(f"+{n} {name}" for n, name in amounts if n > 0)
    down = " ".join(f"−{-n} {name}" for n, name in amounts if n < 0)
    return ", ".join(part for part in (up, down) if part) or "nothing"


def _values(values: zoo_pb2.Values) -> str:
    """ "D 3 · C 2 · R 1"."""
    return f"D {values.dangerous} · C {values.cute} · R {values.rare}"


def _score_sum(values: zoo_pb2.Values, score: int) -> str:
    """ "score 6 (3×2)": the product of the two lower values (negatives count as 0)."""
    low, middle, _ = sorted(max(v, 0) for v in (values.dangerous, values.cute, values.rare))
    return f"score {score} ({middle}×{low})"


def _count(count: zoo_pb2.Count, plural: bool) -> str:
    """ "desert animals", "mountain enclosure", "animals"…"""
    noun = "enclosure" if count.of == zoo_pb2.COUNT_OF_ENCLOSURES else "animal"
    kind = TYPE_NAME.get(count.type)
    return f"{kind + ' ' if kind else ''}{noun}{'s' if plural else ''}"


def _effect(effect: zoo_pb2.Effect) -> str:
    """An animal's effect in words, as the rulebook's icons say it."""
    kind = effect.WhichOneof("kind")
    if kind == "plain":
        return _gain(effect.plain.gain)
    if kind == "if_value_at_most":
        rule = effect.if_value_at_most
        return f"if {VALUE_NAME.get(rule.value, '?')} ≤ {rule.at_most}: {_gain(rule.gain)}"
    if kind == "if_count_at_least":
        cond = effect.if_count_at_least
        return f"if ≥ {cond.at_least} {_count(cond.count, True)}: {_gain(cond.gain)}"
    if kind == "per_count":
        per = effect.per_count
        return f"+{per.per or 1} {VALUE_NAME.get(per.value, '?')} per {_count(per.count, False)}"
    if kind == "exchange":
        return "exchange: −1 one value, +1 another"
    if kind == "choose_one":
        return " or ".join(f"+1 {VALUE_NAME.get(v, '?')}" for v in effect.choose_one.options)
    return "no effect"


def _metric(metric: zoo_pb2.Metric) -> str:
    """What a goal measures, in words."""
    kind = metric.kind
    type_name = TYPE_NAME.get(metric.type)
    prefix = f"{type_name} " if type_name else ""
    words = {
        zoo_pb2.METRIC_KIND_ANIMALS: f"{prefix}animals",
        zoo_pb2.METRIC_KIND_ENCLOSURES: f"{prefix}enclosures",
        zoo_pb2.METRIC_KIND_LARGEST_STACK: "animals stacked in one enclosure",
        zoo_pb2.METRIC_KIND_DISTINCT_NAMES: "kinds of animal",
        zoo_pb2.METRIC_KIND_LARGE_ANIMALS: "large animals",
        zoo_pb2.METRIC_KIND_EACH_HABITAT_ANIMALS: "animals of each habitat",
        zoo_pb2.METRIC_KIND_EACH_HABITAT_ENCLOSURES: "enclosures of each habitat",
        zoo_pb2.METRIC_KIND_VALUE: VALUE_NAME.get(metric.value, "?"),
    }
    return words.get(kind, "?")


def _tag(kind: int) -> Text:
    """The short, coloured tag of an enclosure type ("Fo")."""
    return Text(TYPE_TAG.get(kind, "??"), style=TYPE_STYLE.get(kind, ""))


def _sides(enclosures: zoo_pb2.Enclosures, joiner: str = "|") -> str:
    """ "Fo|Wa" (top, bottom)."""
    return f"{TYPE_TAG.get(enclosures.top, '??')}{joiner}{TYPE_TAG.get(enclosures.bottom, '??')}"


def _paths(left: int, right: int) -> str:
    """ "L mid · R up": where the paths leave the card's edges."""
    return f"L {CONNECTOR.get(left, '?')} · R {CONNECTOR.get(right, '?')}"


def _animal(card: Card) -> str:
    """ "Griffin (mountain)", "Kraken (water, large)"."""
    large = ", large" if card.animal.size == zoo_pb2.SIZE_LARGE else ""
    return f"{card.animal.name} ({HABITAT.get(card.animal.habitat, '?')}{large})"


def _card_name(card: Card) -> str:
    """ "Griffin #12"."""
    return f"{card.animal.name} #{card.id}"


def _cards_in(body: Message) -> Iterator[Card]:
    """Every Card message an event body carries."""
    for field, value in body.ListFields():
        if field.message_type is Card.DESCRIPTOR:
            yield from (value if field.is_repeated else [value])


def _ends(row: Iterable[zoo_pb2.PlacedCard]) -> tuple[int, int]:
    """The positions a card built at the left and at the right end would take."""
    positions = [p.position for p in row]
    return min([0, *positions]) - 1, max([0, *positions]) + 1


def _end_connectors(row: Iterable[zoo_pb2.PlacedCard]) -> tuple[int, int]:
    """The paths a card built at the left and at the right end must meet (advanced mode)."""
    cards = sorted(row, key=lambda p: p.position)
    left = [p for p in cards if p.position < 0]
    right = [p for p in cards if p.position > 0]
    return (
        left[0].card.enclosures.left if left else SHEET_CONNECTOR,
        right[-1].card.enclosures.right if right else SHEET_CONNECTOR,
    )


# -------------------------------------------------------------------- the row


class ZooRow:
    """A zoo's row of cards, left to right, in as many bands as the console's width needs."""

    def __init__(self, labels: list[str], columns: list[Column], full: bool) -> None:
        self.labels = labels
        self.columns = columns
        self.full = full

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        band: list[Column] = []
        used = LABEL_WIDTH
        for column in self.columns:
            width = self._width(console, options, column)
            if band and used + width > options.max_width:
                yield self._band(band)
                band, used = [], LABEL_WIDTH
            band.append(column)
            used += width
        if band:
            yield self._band(band)

    @staticmethod
    def _width(console: Console, options: ConsoleOptions, column: Column) -> int:
        """The width a column takes: its widest cell (at most CELL_WIDTH), padding and border."""
        header, cells = column
        widest = max(Measurement.get(console, options, cell).maximum for cell in [header, *cells])
        return min(widest, CELL_WIDTH) + 3

    def _band(self, columns: list[Column]) -> Table:
        table = Table(box=box.ROUNDED if self.full else box.SIMPLE, padding=(0, 1), show_edge=self.full)
        table.add_column("pos", style="dim", no_wrap=True)
        for header, _ in columns:
            table.add_column(header, max_width=CELL_WIDTH)
        for index, label in enumerate(self.labels):
            table.add_row(label, *(cells[index] for _, cells in columns))
        return table


# --------------------------------------------------------------------------- UI


class ZooUI:
    """Drawing and naming for menagerie.zoo.v1."""

    pb2: ModuleType = zoo_pb2

    def __init__(self) -> None:
        self.cards: dict[int, Card] = {}
        self.secret_goals: dict[int, zoo_pb2.SecretGoal] = {}

    def stub(self, channel: grpc.Channel) -> zoo_pb2_grpc.ZooStub:
        """The Zoo service's stub on `channel`."""
        return zoo_pb2_grpc.ZooStub(channel)

    # ------------------------------------------------------------- memory

    def _learn(self, cards: Iterable[Card]) -> None:
        """Remembers cards by id (one fixed card set: an id always means the same card)."""
        for card in cards:
            if card.id:
                self.cards[card.id] = card

    def _learn_view(self, view: zoo_pb2.View) -> None:
        """Remembers every card and secret goal the view shows."""
        self._learn([*view.hand, *view.picks, *view.passed, *view.discards])
        if view.HasField("kept"):
            self._learn([view.kept])
        for zoo in view.zoos:
            self._learn(p.card for p in zoo.row)
            self._learn(a for p in zoo.row for e in (p.top, p.bottom) for a in e.animals)
            self.secret_goals.update((g.id, g) for g in zoo.secret_goals)

    # ------------------------------------------------------------- drawing

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Header, the viewer's zoo, the other zoos, the viewer's cards, goals, pile, results."""
        self._learn_view(view)
        viewer = view.viewer if view.HasField("viewer") else None
        parts: list[RenderableType] = [self._header(view, names, viewer)]
        zoos = sorted(view.zoos, key=lambda z: (z.seat - (viewer or 0)) % max(1, len(view.zoos)))
        for zoo in zoos:
            parts += self._zoo(view, zoo, names, full=zoo.seat == viewer)
        if viewer is not None:
            parts += self._own_cards(view)
        parts += self._goals(view, viewer)
        parts.append(self._pile(view))
        if len(view.outcome.seats) > 0:
            parts.append(self._results(view, names))
        return Group(*parts)

    def _header(self, view: zoo_pb2.View, names: dict[int, str], viewer: int | None) -> Text:
        phase = PHASE_NAME.get(view.phase, "?")
        text = Text(f"Fantasy Zoo · round {view.round}/{view.rounds} · {phase}", style="bold")
        if view.phase == zoo_pb2.PHASE_DRAFTING:
            text.append(f" · pick {view.pick}")
        if view.mode == zoo_pb2.MODE_ADVANCED:
            text.append(" · advanced (paths must connect)", style="dim")
        waiting = [_who(s, viewer, names, start=False) for s in view.to_act]
        if waiting:
            text.append(f"\nStill to act: {', '.join(waiting)}", style="cyan")
        return text

    def _zoo(
        self, view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo, names: dict[int, str], full: bool
    ) -> list[RenderableType]:
        """A zoo's summary line and its row of cards."""
        viewer = view.viewer if view.HasField("viewer") else None
        you = " (you)" if zoo.seat == viewer else ""
        line = Text(names.get(zoo.seat, f"Seat {zoo.seat}") + you, style="bold")
        line.append(f" · {_values(zoo.values)} · ")
        line.append(_score_sum(zoo.values, zoo.score), style="bold green")
        line.append(f" · {zoo.animals} animal{'s' if zoo.animals != 1 else ''} · {self._status(view, zoo)}")
        if zoo.secret_goals and not full:
            scored = zoo.scored_secret_goal if zoo.HasField("scored_secret_goal") else None
            goals = ", ".join(g.title + (" ✓" if g.id == scored else "") for g in zoo.secret_goals)
            line.append(f"\n  secret goals: {goals}", style="dim")
        if full and view.mode == zoo_pb2.MODE_ADVANCED:
            left, right = _end_connectors(zoo.row)
            line.append(
                f"\n  paths: a card built at the left end needs R {CONNECTOR.get(left, '?')}, "
                f"at the right end L {CONNECTOR.get(right, '?')}",
                style="dim",
            )
        return [line, self._row(view, zoo, full)]

    @staticmethod
    def _status(view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo) -> str:
        acting = zoo.seat in view.to_act
        if view.phase == zoo_pb2.PHASE_DRAFTING:
            state = "picking" if acting else "has picked"
            status = f"{state} · {zoo.hand_size} in hand · {zoo.picked} picked"
        elif view.phase == zoo_pb2.PHASE_CONSTRUCTION:
            status = "finished building" if zoo.finished else f"building · {zoo.picked} cards to play"
        elif zoo.reward_choices:
            status = f"choosing a reward for {', '.join(_goal_title(view, g) for g in zoo.reward_choices)}"
        elif zoo.secret_goal_choices:
            status = "choosing which secret goal scores"
        elif view.phase in (zoo_pb2.PHASE_REWARDS, zoo_pb2.PHASE_SECRET_GOALS):
            status = "waiting"
        else:
            return "done"
        return status + (" · keeps a card" if zoo.keeps_a_card else "")

    def _row(self, view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo, full: bool) -> ZooRow:
        """The zoo's cards left to right, the sheet at 0: top and bottom enclosures (and ids, paths)."""
        advanced = view.mode == zoo_pb2.MODE_ADVANCED
        labels = ["top", "bottom"] + (["card"] if full else []) + (["paths"] if full and advanced else [])
        placed = sorted(zoo.row, key=lambda p: p.position)
        columns: list[Column] = []
        for card in [p for p in placed if p.position < 0]:
            columns.append((str(card.position), self._card_cells(card, labels)))
        sheet: dict[str, RenderableType] = {
            "top": Text("[ENTRANCE]", style="bold"),
            "card": "sheet",
            "paths": _paths(SHEET_CONNECTOR, SHEET_CONNECTOR),
        }
        columns.append(("0", [sheet.get(label, "") for label in labels]))
        for card in [p for p in placed if p.position > 0]:
            columns.append((str(card.position), self._card_cells(card, labels)))
        return ZooRow(labels, columns, full)

    def _card_cells(self, placed: zoo_pb2.PlacedCard, labels: list[str]) -> list[RenderableType]:
        enclosures = placed.card.enclosures
        cells: dict[str, RenderableType] = {
            "top": self._enclosure(placed.top),
            "bottom": self._enclosure(placed.bottom),
            "card": f"#{placed.card.id}",
            "paths": _paths(enclosures.left, enclosures.right),
        }
        return [cells.get(label, "") for label in labels]

    def _enclosure(self, enclosure: zoo_pb2.Enclosure) -> Text:
        """ "Fo Moss Troll ×2", "Wa Kraken (large)", "De ·"."""
        text = _tag(enclosure.type)
        if not enclosure.animals:
            return text.append(" ·", style="dim")
        text.append(f" {enclosure.animals[0].animal.name}", style="bold")
        if len(enclosure.animals) > 1:
            text.append(f" ×{len(enclosure.animals)}")
        if enclosure.large:
            text.append(" (large)", style="italic")
        return text

    def _own_cards(self, view: zoo_pb2.View) -> list[RenderableType]:
        """The viewer's hand, picks and kept card (both sides), and what it passed on."""
        advanced = view.mode == zoo_pb2.MODE_ADVANCED
        parts: list[RenderableType] = []
        if view.hand:
            parts.append(_cards_table(f"Your hand (pick {view.pick})", view.hand, advanced))
        if view.picks:
            parts.append(_cards_table("Your cards to play this round", view.picks, advanced))
        if view.HasField("kept"):
            parts.append(_cards_table("Kept for the next round", [view.kept], advanced))
        if view.passed:
            parts.append(Text("You passed on: " + ", ".join(_card_name(c) for c in view.passed), style="dim"))
        return parts

    def _goals(self, view: zoo_pb2.View, viewer: int | None) -> list[RenderableType]:
        """The open goals, and the viewer's secret goals (advanced mode)."""
        parts: list[RenderableType] = []
        if view.open_goals:
            table = Table(title="Open goals (checked at each round's end)", box=box.SIMPLE, title_justify="left")
            for header in ("goal", "needs", "reward (one each if several meet it)", "status"):
                table.add_column(header)
            for state in view.open_goals:
                goal = state.goal
                rewards = " or ".join(_gain(r) for r in goal.rewards)
                status = Text("open", style="green") if state.open else Text("met", style="dim")
                table.add_row(goal.title, f"≥ {goal.at_least} {_metric(goal.metric)}", rewards, status)
            parts.append(table)
        mine = next((z for z in view.zoos if z.seat == viewer), None)
        if mine is not None and mine.secret_goals:
            scored = mine.scored_secret_goal if mine.HasField("scored_secret_goal") else None
            goals = "; ".join(
                f"{g.title} → {_gain(g.reward)}" + (" (scored)" if g.id == scored else "") for g in mine.secret_goals
            )
            parts.append(Text(f"Your secret goals (have strictly the most at the end; one scores): {goals}"))
        return parts

    def _pile(self, view: zoo_pb2.View) -> Text:
        text = Text(f"Draw pile: {view.draw_pile_size} cards")
        if view.HasField("draw_pile_top"):
            top = view.draw_pile_top
            text.append(" · top shows ")
            text.append_text(_tag(top.top))
            text.append(" over ")
            text.append_text(_tag(top.bottom))
            if view.mode == zoo_pb2.MODE_ADVANCED:
                text.append(f" ({_paths(top.left, top.right)})")
        if view.discards:
            last = ", ".join(_card_name(c) for c in view.discards[-SHOWN_DISCARDS:])
            text.append(f"\nDiscards: {len(view.discards)} (latest: {last})", style="dim")
        return text

    @staticmethod
    def _results(view: zoo_pb2.View, names: dict[int, str]) -> Table:
        table = Table(title="Results", box=box.SIMPLE, title_justify="left")
        for header in ("#", "player", "result", "score", "animals"):
            table.add_column(header)
        animals = {z.seat: z.animals for z in view.zoos}
        for seat in sorted(view.outcome.seats, key=lambda s: s.rank):
            who = names.get(seat.seat, f"Seat {seat.seat}")
            table.add_row(
                str(seat.rank), who, RESULT.get(seat.result, "?"), f"{seat.score:g}", str(animals.get(seat.seat))
            )
        return table

    # -------------------------------------------------------------- events

    def describe_event(self, event: Any, names: dict[int, str], viewer: int | None, view: Any) -> str | None:
        """One line for an event, or None where there is nothing worth reading."""
        kind = event.WhichOneof("kind")
        if kind is None:
            return None
        body = getattr(event, kind)
        self._learn_view(view)
        self._learn(_cards_in(body))
        if kind in ("secret_goals_dealt", "secret_goals_revealed"):
            self.secret_goals.update((g.id, g) for g in body.goals)
        line = self._event_line(kind, body, names, viewer, view)
        return line or None

    def _event_line(self, kind: str, body: Any, names: dict[int, str], viewer: int | None, view: Any) -> str | None:
        def who(seat: int) -> str:
            return _who(seat, viewer, names, start=True)

        if kind == "secret_goals_dealt":
            if not body.goals:
                return None  # someone else's goals: nothing to see
            return "Your secret goals: " + "; ".join(f"{g.title} → {_gain(g.reward)}" for g in body.goals)
        if kind == "open_goals_revealed":
            return "Open goals: " + "; ".join(g.title for g in body.goals)
        if kind == "round_started":
            return f"— Round {body.round} of {view.rounds}: drafting begins —"
        if kind == "cards_dealt":
            if not body.cards:
                return None  # everyone is dealt; only the own cards are news
            return "You were dealt: " + ", ".join(_card_name(c) for c in body.cards)
        if kind == "card_picked":
            if body.HasField("card"):
                return f"{who(body.seat)} picked the {body.card.animal.name} (#{body.card.id})."
            return f"{who(body.seat)} picked a card."
        if kind == "hands_passed":
            held = f" You now hold: {', '.join(_card_name(c) for c in body.hand)}." if body.hand else ""
            return f"Hands passed to the left (pick {body.pick}).{held}"
        if kind == "construction_started":
            return f"— Round {body.round}: construction — play your cards as enclosures or animals."
        if kind == "enclosure_built":
            card = body.card
            return (
                f"{who(body.seat)} built #{card.id} ({_sides(card.enclosures, ' over ')}) at position {body.position}."
            )
        if kind == "animal_placed":
            level = LEVEL_NAME.get(body.level, "?")
            return (
                f"{who(body.seat)} placed the {body.card.animal.name} (#{body.card.id}) in the {level} enclosure "
                f"at position {body.position}: now {_values(body.values)}."
            )
        if kind == "card_kept":
            if body.HasField("card"):
                return f"{who(body.seat)} kept the {body.card.animal.name} (#{body.card.id}) for the next round."
            return f"{who(body.seat)} kept a card for the next round."
        if kind == "construction_finished":
            gone = f", discarding {', '.join(_card_name(c) for c in body.discarded)}" if body.discarded else ""
            return f"{who(body.seat)} finished building{gone}."
        if kind == "goal_met":
            seats = ", ".join(_who(s, viewer, names, start=False) for s in body.seats)
            shared = " — each chooses one of its rewards" if len(body.seats) > 1 else ""
            return f"Open goal met: {_goal_title(view, body.goal)} by {seats}{shared}."
        if kind == "reward_taken":
            return (
                f"{who(body.seat)} took {_gain(body.gain)} for {_goal_title(view, body.goal)}: "
                f"now {_values(body.values)}."
            )
        if kind == "secret_goals_revealed":
            goals = ", ".join(g.title for g in body.goals) or "none"
            met = ", ".join(g.title for g in body.goals if g.id in body.met) or "none"
            return f"{_possessive(body.seat, viewer, names)} secret goals: {goals} — met: {met}."
        if kind == "secret_goal_scored":
            goal = self.secret_goals.get(body.goal)
            title = goal.title if goal is not None else f"#{body.goal}"
            return f"{who(body.seat)} scored the secret goal {title}: {_gain(body.gain)}, now {_values(body.values)}."
        if kind == "match_finished":
            results = "; ".join(
                f"{_who(s.seat, viewer, names, start=False)} {RESULT.get(s.result, '?')} with {s.score:g}"
                for s in sorted(body.outcome.seats, key=lambda s: s.rank)
            )
            return f"Game over: {results}."
        return None

    # ------------------------------------------------------------- actions

    def describe_action(self, action: Any, view: Any, names: dict[int, str]) -> str:
        """A label for one of the viewer's legal actions."""
        self._learn_view(view)
        kind = action.WhichOneof("kind")
        if kind is None:
            return "(an empty action)"
        body = getattr(action, kind)
        mine = next((z for z in view.zoos if view.HasField("viewer") and z.seat == view.viewer), None)
        if kind == "pick":
            card = self.cards.get(body.card)
            if card is None:
                return f"Pick #{body.card}"
            large = "" if card.animal.size != zoo_pb2.SIZE_LARGE else " large"
            habitat = HABITAT.get(card.animal.habitat, "?")
            return f"Pick #{card.id} {card.animal.name} ({habitat}{large}) / {_sides(card.enclosures)}"
        if kind == "build":
            return self._build_label(body, mine)
        if kind == "place":
            return self._place_label(body, mine)
        if kind == "keep":
            card = self.cards.get(body.card)
            return f"Keep #{body.card}{' ' + card.animal.name if card else ''} for the next round"
        if kind == "finish":
            if not view.picks:
                return "Finish construction (nothing to discard)"
            gone = ", ".join(_card_name(c) for c in view.picks)
            return f"Finish construction (discard {len(view.picks)} card{'s' if len(view.picks) > 1 else ''}: {gone})"
        if kind == "choose_reward":
            goal = next((g.goal for g in view.open_goals if g.goal.id == body.goal), None)
            reward = _gain(goal.rewards[body.option]) if goal and body.option < len(goal.rewards) else "?"
            return f"Take reward {body.option + 1} of goal {_goal_title(view, body.goal)}: {reward}"
        if kind == "choose_secret_goal":
            secret = self.secret_goals.get(body.goal)
            if secret is None:
                return f"Score secret goal #{body.goal}"
            return f"Score secret goal {secret.title}: {_gain(secret.reward)}"
        return str(kind)

    def _build_label(self, build: zoo_pb2.Build, mine: zoo_pb2.PlayerZoo | None) -> str:
        """ "Build #7 (Fo over De) at the right end (position 3)"."""
        card = self.cards.get(build.card)
        sides = f" ({_sides(card.enclosures, ' over ')})" if card else ""
        left, right = _ends(mine.row if mine else [])
        position = left if build.end == zoo_pb2.END_LEFT else right
        return f"Build #{build.card}{sides} at the {END_NAME.get(build.end, '?')} end (position {position})"

    def _place_label(self, place: zoo_pb2.Place, mine: zoo_pb2.PlayerZoo | None) -> str:
        """ "Place #3 Moss Troll in the top enclosure at position 2 (+1 Dangerous +1 Cute)"."""
        card = self.cards.get(place.card)
        level = LEVEL_NAME.get(place.level, "?")
        if card is None:
            return f"Place #{place.card} in the {level} enclosure at position {place.position}"
        where = f"the {level} enclosure at position {place.position}"
        if card.animal.size == zoo_pb2.SIZE_LARGE:
            where = f"the {level} enclosures at positions {place.position}–{place.position + 1}"
        return f"Place #{card.id} {card.animal.name} in {where} ({self._effect_now(card, place, mine)})"

    def _effect_now(self, card: Card, place: zoo_pb2.Place, mine: zoo_pb2.PlayerZoo | None) -> str:
        """The effect as this placement would apply it: the choice spelled out, a condition judged."""
        effect = card.animal.effect
        kind = effect.WhichOneof("kind")
        if kind == "exchange":
            return f"+1 {VALUE_NAME.get(place.increase, '?')}, −1 {VALUE_NAME.get(place.decrease, '?')}"
        if kind == "choose_one":
            return f"+1 {VALUE_NAME.get(place.increase, '?')}"
        words = _effect(effect)
        if mine is None:
            return words
        if kind == "if_value_at_most":
            rule = effect.if_value_at_most
            applies = _value_of(mine.values, rule.value) <= rule.at_most
            return f"{words} — {'applies' if applies else 'not now'}"
        if kind == "if_count_at_least":
            have = self._measure(effect.if_count_at_least.count, mine, card)
            if have is not None:
                return f"{words} — you would have {have}"
        if kind == "per_count":
            have = self._measure(effect.per_count.count, mine, card)
            if have is not None:
                gain = (effect.per_count.per or 1) * have
                return f"{words}: +{gain}"
        return words

    def _measure(self, count: zoo_pb2.Count, zoo: zoo_pb2.PlayerZoo, placing: Card) -> int | None:
        """A count in the viewer's zoo once `placing` lives there (None if an animal is unknown)."""
        wanted = TYPE_NAME.get(count.type)
        if count.of == zoo_pb2.COUNT_OF_ENCLOSURES:
            return sum(1 for p in zoo.row for e in (p.top, p.bottom) if wanted is None or TYPE_NAME[e.type] == wanted)
        animals = {a.id: a for p in zoo.row for e in (p.top, p.bottom) for a in e.animals} | {placing.id: placing}
        return sum(1 for a in animals.values() if wanted is None or HABITAT[a.animal.habitat] == wanted)


# ------------------------------------------------------------------- helpers


def _who(seat: int, viewer: int | None, names: dict[int, str], start: bool) -> str:
    """ "You"/"you" for the viewer, else the seat's name."""
    if seat == viewer:
        return "You" if start else "you"
    return names.get(seat, f"Seat {seat}")


def _value_of(values: zoo_pb2.Values, value: int) -> int:
    """One of the three values."""
    if value == zoo_pb2.VALUE_DANGEROUS:
        return values.dangerous
    return values.cute if value == zoo_pb2.VALUE_CUTE else values.rare


def _possessive(seat: int, viewer: int | None, names: dict[int, str]) -> str:
    """ "Your" or "Ann's"."""
    return "Your" if seat == viewer else f"{names.get(seat, f'Seat {seat}')}'s"


def _goal_title(view: zoo_pb2.View, goal_id: int) -> str:
    """An open goal's title in quotes (its id if the view does not show it)."""
    for state in view.open_goals:
        if state.goal.id == goal_id:
            return f"“{state.goal.title}”"
    return f"#{goal_id}"


def _cards_table(title: str, cards: Iterable[Card], advanced: bool) -> Table:
    """Both sides of each card: the animal (habitat, size, effect) and the enclosures."""
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
    for header in ("#", "animal", "habitat", "effect (when placed)", "top / bottom"):
        table.add_column(header, no_wrap=header not in ("animal", "effect (when placed)"))
    if advanced:
        table.add_column("paths", no_wrap=True)
    for card in cards:
        animal = card.animal
        name = Text(animal.name, style="bold")
        if animal.size == zoo_pb2.SIZE_LARGE:
            name.append(" (large)", style="italic")
        sides = _tag(card.enclosures.top).append(" / ").append_text(_tag(card.enclosures.bottom))
        row: list[RenderableType] = [f"#{card.id}", name, HABITAT.get(animal.habitat, "?"), _effect(animal.effect)]
        row.append(sides)
        if advanced:
            row.append(_paths(card.enclosures.left, card.enclosures.right))
        table.add_row(*row)
    return table
