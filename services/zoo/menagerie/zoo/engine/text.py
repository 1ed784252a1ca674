"""Fantasy Zoo's words: labels of actions, text of events and prompts, and the rules on the cards.

Every client (the CLI, the web, bots' logs) reads these through the service
(ListLegalActions labels, each event's header text, the view's prompt text and its
`texts`: each card's animal effect, each goal's condition and rewards, the mode, the
path an open end needs), so the words for effects, metrics, counts, gains and rewards
live here and nowhere else. A label reads its facts from the viewer's view (the open
ends of its row, the preview of a placement), which the engine computed with its own rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from menagerie.rules.contract import Label
from menagerie.rules.text import RESULT_WORDS, Narrator, plural
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import (
    Card,
    ChooseOne,
    Connector,
    Count,
    Effect,
    Enclosures,
    Exchange,
    Gain,
    IfCountAtLeast,
    IfValueAtMost,
    Metric,
    OpenGoal,
    PerCount,
    Plain,
    SecretGoal,
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
    End,
    Event,
    Finish,
    GoalMet,
    GoalText,
    HandReceived,
    HandsPassed,
    Keep,
    MatchFinished,
    Mode,
    NegativeValues,
    OpenGoalsRevealed,
    Pick,
    Place,
    PlayerZoo,
    RewardTaken,
    RoundStarted,
    SecretGoalScored,
    SecretGoalsDealt,
    SecretGoalsRevealed,
    Texts,
    Values,
    ZooView,
)

VALUE_WORDS = {"dangerous": "Dangerous", "cute": "Cute", "rare": "Rare"}
TYPE_TAGS = {"forest": "Fo", "mountain": "Mo", "desert": "De", "water": "Wa", "mystic": "My"}
MODE_WORDS: dict[Mode, str] = {
    "beginner": "Beginner: no goal cards, paths need not connect",
    "advanced": "Advanced: open and secret goals, paths must connect",
}
# The match option on negative values: what it decides, and the score under each value.
NEGATIVE_VALUES_OPTION = "How a negative value scores: multiply (as it is, the rulebook's product) or count_as_zero"
SCORE_WORDS: dict[NegativeValues, str] = {
    "multiply": "score: the two lower values multiplied, a negative one as it is",
    "count_as_zero": "score: the two lower values multiplied, a negative one counting as 0",
}
# Where a path leaves a card's edge, and which edge ("L mid", "R up").
CONNECTOR_WORDS: dict[Connector, str] = {"upper": "up", "middle": "mid", "lower": "low"}
EDGE_WORDS: dict[End, str] = {"left": "L", "right": "R"}
# What goals measure beyond "(habitat) animals", "(type) enclosures" and a value: (one, several).
METRIC_WORDS = {
    "largest_stack": ("animal stacked in one enclosure", "animals stacked in one enclosure"),
    "distinct_names": ("kind of animal", "kinds of animal"),
    "large_animals": ("large animal", "large animals"),
    "each_habitat_animals": ("animal of each habitat", "animals of each habitat"),
    "each_habitat_enclosures": ("enclosure of each habitat", "enclosures of each habitat"),
}


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


def metric_words(metric: Metric, plural_: bool = True) -> str:
    """What a goal measures: "desert animals", "enclosures", "kinds of animal", "Rare"…"""
    if metric.kind == "animals" or metric.kind == "enclosures":
        return count_words(Count(of=metric.kind, type=metric.type), plural_)
    if metric.value is not None:
        return VALUE_WORDS[metric.value]
    one, several = METRIC_WORDS[metric.kind]
    return several if plural_ else one


def open_goal_text(goal: OpenGoal) -> GoalText:
    """An open goal's condition (judged when a round ends) and rewards (each achiever chooses one)."""
    first, second = (gain_words(reward) for reward in goal.rewards)
    return GoalText(
        needs=f"≥ {goal.at_least} {metric_words(goal.metric, goal.at_least != 1)} at a round's end",
        rewards=f"{first} or {second} (each achiever chooses one)",
    )


def secret_goal_text(goal: SecretGoal) -> GoalText:
    """A secret goal's condition (strictly the most, at the end) and reward (one goal of a seat scores)."""
    return GoalText(
        needs=f"strictly the most {metric_words(goal.metric)} at the end",
        rewards=f"{gain_words(goal.reward)} (only one may score)",
    )


def end_words(end: End, connector: Connector) -> str:
    """ "a card built at the left end needs R mid": the edge that must meet the row's path there."""
    return f"a card built at the {end} end needs {EDGE_WORDS[zoo.opposite(end)]} {CONNECTOR_WORDS[connector]}"


def sides(enclosures: Enclosures, joiner: str = "|") -> str:
    """ "Fo|Wa" (top, bottom)."""
    return f"{TYPE_TAGS[enclosures.top]}{joiner}{TYPE_TAGS[enclosures.bottom]}"


def card_name(card: Card) -> str:
    """ "Griffin #12"."""
    return f"{card.animal.name} #{card.id}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# The short title of each decision (the prompt's `title`; menagerie.rules.engine.GameText).
TITLES = {
    "drafting": "Drafting",
    "construction": "Construction",
    "rewards": "Open-goal rewards",
    "secret_goals": "Secret goals",
    "finished": "Finished",
}


class ZooText:
    """Labels, event text and prompt text for one data set."""

    def __init__(self, data: ZooData) -> None:
        self.cards = {c.id: c for c in data.cards}
        self.open_goals = {g.id: g for g in data.open_goals}
        self.secret_goals = {g.id: g for g in data.secret_goals}
        # The rules printed on each component never change: worded once.
        self.effects = {c.id: effect_words(c.animal.effect) for c in data.cards}
        self.open_goal_texts = {g.id: open_goal_text(g) for g in data.open_goals}
        self.secret_goal_texts = {g.id: secret_goal_text(g) for g in data.secret_goals}

    def texts(
        self,
        mode: Mode,
        negatives: NegativeValues,
        cards: Iterable[Card],
        open_goals: Iterable[OpenGoal],
        secret_goals: Iterable[SecretGoal],
    ) -> Texts:
        """The words for what a view shows: its mode and score, its cards' animal effects, its goals."""
        return Texts(
            mode=MODE_WORDS[mode],
            score=SCORE_WORDS[negatives],
            effects={c.id: self.effects[c.id] for c in cards},
            open_goals={g.id: self.open_goal_texts[g.id] for g in open_goals},
            secret_goals={g.id: self.secret_goal_texts[g.id] for g in secret_goals},
        )

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
            if mine is not None and mine.side is None:
                where = f"at the {action.end} end (position {position}: the zoo then grows {action.end}wards only)"
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
        if isinstance(event, DRAFTING_EVENTS):
            return self._drafting_event(event, n)
        if isinstance(event, CONSTRUCTION_EVENTS):
            return self._construction_event(event, n)
        return self._goal_event(event, n)

    def _drafting_event(self, event: Event, n: Narrator) -> str | None:
        """Goals dealt, rounds and the drafting of cards."""
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
        return None

    def _construction_event(self, event: Event, n: Narrator) -> str | None:
        """Building enclosures and placing animals."""
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
        return None

    def _goal_event(self, event: Event, n: Narrator) -> str | None:
        """Open and secret goals, and the end of the match."""
        if isinstance(event, GoalMet):
            several = len(event.seats) > 1
            choice = "each chooses one of its two rewards" if several else "one of its two rewards to choose"
            return f"Open goal met: {self.goal_title(event.goal)} by {n.seats(event.seats)} — {choice}."
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
        if not isinstance(event, MatchFinished):
            return None
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
            return f"The match is over: {n.named(view.outcome.reason)}."
        waiting = n.seats(prompt.must)
        when = f"round {view.round} of {view.rounds}"
        if prompt.kind == "drafting":
            return f"Waiting for {waiting} to pick a card ({when}, pick {view.pick})."
        if prompt.kind == "construction":
            return f"Waiting for {waiting} to finish building ({when})."
        if prompt.kind == "rewards" and view.reward_goal is not None:
            goal = self.open_goals[view.reward_goal]
            first, second = (gain_words(reward) for reward in goal.rewards)
            return (
                f"Waiting for {waiting} to choose a reward of the open goal {self.goal_title(goal.id)}: "
                f"{first} or {second}."
            )
        if prompt.kind == "secret_goals":
            return f"Waiting for {waiting} to choose which secret goal scores."
        return ""


# The events of each phase (the rest are the goals' and the end's).
DRAFTING_EVENTS = (SecretGoalsDealt, OpenGoalsRevealed, RoundStarted, CardsDealt, CardPicked, HandsPassed, HandReceived)
CONSTRUCTION_EVENTS = (ConstructionStarted, EnclosureBuilt, AnimalPlaced, CardKept, ConstructionFinished)


def _own_zoo(view: ZooView) -> PlayerZoo | None:
    """The viewer's zoo, if the viewer is a seat."""
    return next((z for z in view.zoos if z.seat == view.viewer), None)
