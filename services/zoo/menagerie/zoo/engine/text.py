"""Fantasy Zoo's words: labels of actions, text of events and prompts.

Every client (the CLI, the web, bots' logs) reads these through the service
(ListLegalActions labels, each event's header text, the view's prompt text), so the
names of cards, effects and goals in sentences live here and nowhere else. A label
reads its facts from the viewer's view (the open ends of its row, the preview of a
placement), which the engine computed with its own rules.
"""

from __future__ import annotations

from menagerie.rules.contract import Label
from menagerie.rules.text import Narrator, plural
from menagerie.zoo.engine.data import (
    Card,
    ChooseOne,
    Count,
    Effect,
    Enclosures,
    Exchange,
    Gain,
    IfCountAtLeast,
    IfValueAtMost,
    PerCount,
    Plain,
    ZooData,
)
from menagerie.zoo.engine.model import (
    Action,
    AnimalPlaced,
    Build,
    CardKept,
    CardPicked,
    CardsDealt,
    ChooseReward,
    ChooseSecretGoal,
    ConstructionFinished,
    ConstructionStarted,
    EnclosureBuilt,
    Event,
    Finish,
    GoalMet,
    HandReceived,
    HandsPassed,
    Keep,
    MatchFinished,
    OpenGoalsRevealed,
    Pick,
    Place,
    PlayerZoo,
    RewardTaken,
    RoundStarted,
    SecretGoalScored,
    SecretGoalsDealt,
    SecretGoalsRevealed,
    Values,
    ZooView,
)

VALUE_WORDS = {"dangerous": "Dangerous", "cute": "Cute", "rare": "Rare"}
TYPE_TAGS = {"forest": "Fo", "mountain": "Mo", "desert": "De", "water": "Wa", "mystic": "My"}
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drew"}


def gain_words(gain: Gain | Values) -> str:
    """ "+2 Cute +1 Rare, −1 Dangerous": increases first, then decreases."""
    amounts = [(gain.dangerous, "Dangerous"), (gain.cute, "Cute"), (gain.rare, "Rare")]
    up = " ".join(f"+{n} {name}" for n, name in amounts if n > 0)
    down = " ".join(f"−{-n} {name}" for n, name in amounts if n < 0)
    return ", ".join(part for part in (up, down) if part) or "nothing"


def values_words(values: Values) -> str:
    """ "D 3 · C 2 · R 1"."""
    return f"D {values.dangerous} · C {values.cute} · R {values.rare}"


def count_words(count: Count, plural_: bool) -> str:
    """ "desert animals", "mountain enclosure", "animals"…"""
    noun = "enclosure" if count.of == "enclosures" else "animal"
    kind = f"{count.type} " if count.type else ""
    return f"{kind}{noun}{'s' if plural_ else ''}"


def effect_words(effect: Effect) -> str:
    """An animal's effect in words, as the rulebook's icons say it."""
    if isinstance(effect, Plain):
        return gain_words(effect.gain)
    if isinstance(effect, IfValueAtMost):
        return f"if {VALUE_WORDS[effect.value]} ≤ {effect.at_most}: {gain_words(effect.gain)}"
    if isinstance(effect, IfCountAtLeast):
        return f"if ≥ {effect.at_least} {count_words(effect.count, True)}: {gain_words(effect.gain)}"
    if isinstance(effect, PerCount):
        return f"+{effect.per} {VALUE_WORDS[effect.value]} per {count_words(effect.count, False)}"
    if isinstance(effect, Exchange):
        return "exchange: −1 one value, +1 another"
    return " or ".join(f"+1 {VALUE_WORDS[v]}" for v in effect.options)


def sides(enclosures: Enclosures, joiner: str = "|") -> str:
    """ "Fo|Wa" (top, bottom)."""
    return f"{TYPE_TAGS[enclosures.top]}{joiner}{TYPE_TAGS[enclosures.bottom]}"


def card_name(card: Card) -> str:
    """ "Griffin #12"."""
    return f"{card.animal.name} #{card.id}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class ZooText:
    """Labels, event text and prompt text for one data set."""

    def __init__(self, data: ZooData) -> None:
        self.cards = {c.id: c for c in data.cards}
        self.open_goals = {g.id: g for g in data.open_goals}
        self.secret_goals = {g.id: g for g in data.secret_goals}

    def goal_title(self, goal: int) -> str:
        """An open goal's title in quotes."""
        card = self.open_goals.get(goal)
        return f"“{card.title}”" if card else f"#{goal}"

    def secret_title(self, goal: int) -> str:
        """A secret goal's title."""
        card = self.secret_goals.get(goal)
        return card.title if card else f"#{goal}"

    # ---------------------------------------------------------------- actions

    def action(self, view: ZooView, action: Action, n: Narrator) -> Label:
        """How one of the reader's legal actions reads, and its code."""
        if isinstance(action, Pick):
            card = self.cards[action.card]
            large = " large" if card.animal.size == "large" else ""
            text = f"Pick #{card.id} {card.animal.name} ({card.animal.habitat}{large}) / {sides(card.enclosures)}"
            return Label(text, f"p{card.id}")
        if isinstance(action, Build):
            card = self.cards[action.card]
            mine = _own_zoo(view)
            position = next((e.position for e in mine.ends if e.end == action.end), 0) if mine else 0
            where = f"at the {action.end} end (position {position})"
            return Label(f"Build #{card.id} ({sides(card.enclosures, ' over ')}) {where}", f"b{card.id}{action.end[0]}")
        if isinstance(action, Place):
            return self._place(view, action)
        if isinstance(action, Keep):
            card = self.cards[action.card]
            return Label(f"Keep #{card.id} {card.animal.name} for the next round", f"k{card.id}")
        if isinstance(action, Finish):
            if not view.picks:
                return Label("Finish construction (nothing to discard)", "f")
            gone = ", ".join(card_name(c) for c in view.picks)
            return Label(f"Finish construction (discard {plural(len(view.picks), 'card')}: {gone})", "f")
        if isinstance(action, ChooseReward):
            goal = self.open_goals[action.goal]
            reward = gain_words(goal.rewards[action.option]) if action.option < len(goal.rewards) else "?"
            text = f"Take reward {action.option + 1} of goal {self.goal_title(action.goal)}: {reward}"
            return Label(text, f"r{action.goal}.{action.option + 1}")
        assert isinstance(action, ChooseSecretGoal)
        secret = self.secret_goals[action.goal]
        return Label(f"Score secret goal {secret.title}: {gain_words(secret.reward)}", f"s{action.goal}")

    def _place(self, view: ZooView, place: Place) -> Label:
        """ "Place #3 Moss Troll in the top enclosure at position 2 (+1 Dangerous +1 Cute)"."""
        card = self.cards[place.card]
        where = f"the {place.level} enclosure at position {place.position}"
        if card.animal.size == "large":
            where = f"the {place.level} enclosures at positions {place.position}–{place.position + 1}"
        code = f"a{card.id}{place.level[0]}{place.position}"
        if place.increase is not None:
            code += f"+{place.increase[0]}"
        if place.decrease is not None:
            code += f"-{place.decrease[0]}"
        return Label(f"Place #{card.id} {card.animal.name} in {where} ({self._effect_now(view, card, place)})", code)

    def _effect_now(self, view: ZooView, card: Card, place: Place) -> str:
        """The effect as this placement would apply it: the choice spelled out, a condition judged."""
        effect = card.animal.effect
        if isinstance(effect, Exchange):
            return f"+1 {VALUE_WORDS[place.increase or '']}, −1 {VALUE_WORDS[place.decrease or '']}"
        if isinstance(effect, ChooseOne):
            return f"+1 {VALUE_WORDS[place.increase or '']}"
        words = effect_words(effect)
        preview = next((p for p in view.previews if p.card == card.id), None)
        if preview is None:
            return words
        if isinstance(effect, IfValueAtMost):
            return f"{words} — {'applies' if preview.applies else 'not now'}"
        if isinstance(effect, IfCountAtLeast):
            return f"{words} — you would have {preview.count}"
        if isinstance(effect, PerCount) and preview.change is not None:
            return f"{words}: +{getattr(preview.change, effect.value)}"
        return words

    # ----------------------------------------------------------------- events

    def event(self, event: Event, n: Narrator) -> str | None:
        """One sentence for an event, or None where there is nothing worth reading."""
        if isinstance(event, SecretGoalsDealt):
            if not event.goals:
                return None  # someone else's goals: nothing to see
            return "Your secret goals: " + "; ".join(f"{g.title} → {gain_words(g.reward)}" for g in event.goals)
        if isinstance(event, OpenGoalsRevealed):
            return "Open goals: " + "; ".join(g.title for g in event.goals)
        if isinstance(event, RoundStarted):
            return f"— Round {event.round} of {event.rounds}: drafting begins —"
        if isinstance(event, CardsDealt):
            if not event.cards:
                return None  # everyone is dealt; only the own cards are news
            return "You were dealt: " + ", ".join(card_name(c) for c in event.cards)
        if isinstance(event, CardPicked):
            if event.card is not None:
                return f"{n.who(event.seat)} picked the {event.card.animal.name} (#{event.card.id})."
            return f"{n.who(event.seat)} picked a card."
        if isinstance(event, HandsPassed):
            return f"Hands passed to the left (pick {event.pick})."
        if isinstance(event, HandReceived):
            if not event.cards:
                return None  # only the hand in front of the reader is news
            return f"{n.does(event.seat, 'now hold', 'now holds')}: {', '.join(card_name(c) for c in event.cards)}."
        if isinstance(event, ConstructionStarted):
            return f"— Round {event.round}: construction — play your cards as enclosures or animals."
        if isinstance(event, EnclosureBuilt):
            built = f"#{event.card.id} ({sides(event.card.enclosures, ' over ')})"
            return f"{n.who(event.seat)} built {built} at position {event.position}."
        if isinstance(event, AnimalPlaced):
            return (
                f"{n.who(event.seat)} placed the {event.card.animal.name} (#{event.card.id}) in the {event.level} "
                f"enclosure at position {event.position}: now {values_words(event.values)}."
            )
        if isinstance(event, CardKept):
            if event.card is not None:
                return f"{n.who(event.seat)} kept the {event.card.animal.name} (#{event.card.id}) for the next round."
            return f"{n.who(event.seat)} kept a card for the next round."
        if isinstance(event, ConstructionFinished):
            gone = f", discarding {', '.join(card_name(c) for c in event.discarded)}" if event.discarded else ""
            return f"{n.who(event.seat)} finished building{gone}."
        if isinstance(event, GoalMet):
            shared = " — each chooses one of its rewards" if len(event.seats) > 1 else ""
            return f"Open goal met: {self.goal_title(event.goal)} by {n.seats(event.seats)}{shared}."
        if isinstance(event, RewardTaken):
            return (
                f"{n.who(event.seat)} took {gain_words(event.gain)} for {self.goal_title(event.goal)}: "
                f"now {values_words(event.values)}."
            )
        if isinstance(event, SecretGoalsRevealed):
            goals = ", ".join(g.title for g in event.goals) or "none"
            met = ", ".join(g.title for g in event.goals if g.id in event.met) or "none"
            return f"{_capital(n.whose(event.seat))} secret goals: {goals} — met: {met}."
        if isinstance(event, SecretGoalScored):
            return (
                f"{n.who(event.seat)} scored the secret goal {self.secret_title(event.goal)}: "
                f"{gain_words(event.gain)}, now {values_words(event.values)}."
            )
        assert isinstance(event, MatchFinished)
        results = "; ".join(
            f"{n.who(s.seat, start=False)} {RESULT_WORDS[s.result]} with {s.score:g}"
            for s in sorted(event.outcome.seats, key=lambda s: s.rank)
        )
        return f"Game over: {results}."

    # ----------------------------------------------------------------- prompt

    def prompt(self, view: ZooView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if view.outcome is not None:
            return f"The match is over: {view.outcome.reason}."
        waiting = n.seats(prompt.must)
        when = f"round {view.round} of {view.rounds}"
        if prompt.kind == "drafting":
            return f"Waiting for {waiting} to pick a card ({when}, pick {view.pick})."
        if prompt.kind == "construction":
            return f"Waiting for {waiting} to finish building ({when})."
        if prompt.kind == "rewards":
            return f"Waiting for {waiting} to choose a reward of an open goal met together."
        if prompt.kind == "secret_goals":
            return f"Waiting for {waiting} to choose which secret goal scores."
        return ""


def _own_zoo(view: ZooView) -> PlayerZoo | None:
    """The viewer's zoo, if the viewer is a seat."""
    return next((z for z in view.zoos if z.seat == view.viewer), None)
