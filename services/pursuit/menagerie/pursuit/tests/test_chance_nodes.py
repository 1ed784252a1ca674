"""Every roll is a chance node (menagerie.rules.procedure): stated, drawn the way it always was, or chosen.

The active player's roll (`RollDice`: the dice not kept) and the beast's roll (`BeastRoll`:
its card's dice less the distracted and muffled ones). Each node states every way its dice
may fall: equal black dice count once (their faces in the die's face order), the teal die
last, as menagerie.rules.chance lists them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.engine.data import Face, FaceEffect, Reaction
from menagerie.pursuit.engine.dice import die_faces, roll_die
from menagerie.pursuit.engine.model import (
    BeastReacted,
    BeastRoll,
    BeastRolled,
    Color,
    DiceRolled,
    EndAssign,
    Event,
    MuffliatoWindow,
    PlayerHurt,
    PlayMuffliato,
    Reroll,
    RollDice,
)
from menagerie.pursuit.engine.rules import HEALTH
from menagerie.pursuit.tests.scenarios import (
    ENGINE,
    assigning,
    card,
    empty_hands,
    engine_with,
    give,
    new_match,
    pass_windows,
)
from menagerie.rules.chance import Distribution
from menagerie.rules.contract import MatchSetup
from menagerie.rules.procedure import Step, choosing_outcomes
from menagerie.rules.rng import Rng

BLACK_4: list[Color] = ["black", "black", "black", "black"]
ALL_DICE: list[Color] = ["black", "black", "black", "black", "black", "teal"]


def every_roll(colors: Sequence[Color], engine: PursuitEngine = ENGINE) -> dict[tuple[Face, ...], Fraction]:
    """Every face of every die taken one combination at a time, counted once per multiset (the convention)."""
    combos = list(itertools.product(*(die_faces(engine.data.dice, color) for color in colors)))
    counted: dict[tuple[Face, ...], Fraction] = {}
    for combo in combos:
        key = as_outcome(combo, colors, engine)
        counted[key] = counted.get(key, Fraction(0)) + Fraction(1, len(combos))
    return counted


def as_outcome(faces: Sequence[Face], colors: Sequence[Color], engine: PursuitEngine = ENGINE) -> tuple[Face, ...]:
    """Faces as the outcomes list them: the black ones in the die's face order, then the teal one."""
    order = list(dict.fromkeys(die_faces(engine.data.dice, "black")))
    black = sorted((f for f, c in zip(faces, colors, strict=True) if c == "black"), key=order.index)
    return (*black, *(f for f, c in zip(faces, colors, strict=True) if c == "teal"))


class Forcing:
    """A chooser (for `choosing_outcomes`) that records each node and its outcomes.

    It answers `faces` for the first node, and each later one (the next turn's roll) its first outcome.
    """

    def __init__(self, faces: tuple[Face, ...]) -> None:
        self.faces = faces
        self.seen: list[tuple[Step, Distribution[tuple[Face, ...]]]] = []

    def __call__(self, node: Step, outcomes: Distribution[tuple[Face, ...]]) -> tuple[Face, ...]:
        self.seen.append((node, outcomes))
        return self.faces if len(self.seen) == 1 else outcomes[0][0]


def rolling(engine: PursuitEngine = ENGINE) -> PursuitState:
    """A fresh match at the active player's Rolling decision, nobody holding a card and no window open."""
    return empty_hands(new_match(engine=engine))


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# ------------------------------------------------------------------ the active player's roll


def test_a_reroll_is_a_chance_node_stating_every_face_of_the_dice_not_kept() -> None:
    """Keeping the teal die and one black die, the four others are the node: every combination, adding up to 1."""
    state = rolling()
    seat = state.active
    kept = next(d.face for d in state.dice if d.color == "black")
    chooser = Forcing(("wild", "wild", "wild", "wild"))
    with choosing_outcomes(chooser):
        ENGINE.apply(state, seat, Reroll((kept,), True))
    [(node, outcomes)] = chooser.seen
    assert node == RollDice(seat=seat)
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes) == every_roll(BLACK_4)
    assert len(outcomes) == len(every_roll(BLACK_4)), "each multiset listed once"


def test_rolling_every_die_again_states_all_six() -> None:
    state = rolling()
    assert state.kept == [False] * 6
    chooser = Forcing(("protect",) * 5 + ("protect",))
    with choosing_outcomes(chooser):
        ENGINE.apply(state, state.active, Reroll((), False))
    [(_, outcomes)] = chooser.seen
    assert dict(outcomes) == every_roll(ALL_DICE) and sum(dict(outcomes).values()) == 1


def test_a_drawn_roll_is_one_of_the_stated_outcomes_drawn_die_by_die_with_the_matchs_rng() -> None:
    """The dice not kept are drawn in order, one `roll_die` each, exactly as before the node existed."""
    for seed in range(1, 6):
        state = rolling()
        state.rng = Rng(seed)
        twin = Rng(state.rng.seed, state.rng.counter)
        expected = [roll_die(twin, ENGINE.data.dice, color) for color in ALL_DICE]
        events = ENGINE.apply(state, state.active, Reroll((), False))
        [rolled] = of(events, DiceRolled)
        faces = tuple(d.face for d in rolled.dice)
        assert list(faces) == expected and state.rng == twin
        assert as_outcome(faces, ALL_DICE) in every_roll(ALL_DICE)


def test_setup_draws_the_first_roll_as_a_chance_node_too() -> None:
    """The first player's first roll is the node's sample: same seed, same faces; a chosen roll is applied as is."""
    chooser = Forcing(("capture",) * 5 + ("reaction",))
    with choosing_outcomes(chooser):
        state, events = ENGINE.setup(MatchSetup("coop", 2, {}), 7)
    [(node, outcomes)] = chooser.seen
    assert node == RollDice(seat=state.active) and dict(outcomes) == every_roll(ALL_DICE)
    [rolled] = of(events, DiceRolled)
    assert [d.face for d in rolled.dice] == ["capture"] * 5 + ["reaction"]
    assert of(events, BeastReacted) and ENGINE.prompt(state).kind == "reroll_window"
    drawn, drawn_events = ENGINE.setup(MatchSetup("coop", 2, {}), 7)
    again, again_events = ENGINE.setup(MatchSetup("coop", 2, {}), 7)
    assert drawn_events == again_events and drawn == again


def test_a_chosen_reroll_is_applied_exactly_and_draws_nothing() -> None:
    """Forced faces land on the dice not kept, in order; the teal reaction face sets off the beast's reaction."""
    state = rolling()
    kept_face = state.dice[0].face
    counter = state.rng.counter
    with choosing_outcomes(Forcing(("wild", "wild", "wild", "wild", "reaction"))):
        events = ENGINE.apply(state, state.active, Reroll((kept_face,), False))
    [rolled] = of(events, DiceRolled)
    assert rolled.kept == [True, False, False, False, False, False]
    assert [d.face for d in rolled.dice] == [kept_face, "wild", "wild", "wild", "wild", "reaction"]
    assert [e.when for e in of(events, BeastReacted)] == ["roll"]
    assert state.rolls == 2 and state.rng.counter == counter
    assert ENGINE.prompt(state).kind == "reroll_window" and ENGINE.prompt(state).stack == ["roll"]


def test_next_chance_reports_the_roll_once_it_is_next() -> None:
    """Once the Reroll has settled Rolling and pushed its node, the node is next; a pending decision hides it."""
    state = rolling()
    ENGINE.then(state, RollDice(seat=state.active))
    assert ENGINE.next_chance(state) is None, "Rolling is still pending"
    ENGINE.settle(state)
    chance = ENGINE.next_chance(state)
    assert chance is not None and chance[0] == RollDice(seat=state.active)
    assert dict(chance[1]) == every_roll(ALL_DICE)
    events: list[Event] = []
    ENGINE.advance(state, events)
    assert of(events, DiceRolled) and ENGINE.next_chance(state) is None


# ------------------------------------------------------------------------- the beast's roll

# Every beast rolls three black dice and the teal one; a capture face attacks for 2, the reaction for 1.
FIERCE = engine_with(black_dice=3, teal=True, faces={"capture": FaceEffect(attack=2)}, reaction=Reaction(attack=1))
BEAST_DICE: list[Color] = ["black", "black", "black", "teal"]


def to_the_beasts_roll(engine: PursuitEngine = FIERCE) -> PursuitState:
    """The active player has nothing to assign and ends assigning: the Muffliato window is open."""
    state = assigning(rolling(engine), [])
    engine.apply(state, state.active, EndAssign())
    assert isinstance(engine.top(state), MuffliatoWindow)
    return state


def test_the_beasts_roll_is_a_chance_node_stating_its_dice() -> None:
    state = to_the_beasts_roll()
    chooser = Forcing(("wild", "wild", "wild", "protect"))
    with choosing_outcomes(chooser):
        pass_windows(state, FIERCE)
    node, outcomes = chooser.seen[0]
    assert node == BeastRoll(black=3, teal=True)
    assert dict(outcomes) == every_roll(BEAST_DICE, FIERCE) and sum(p for _, p in outcomes) == 1


def test_muffliato_leaves_two_black_dice_out_of_the_node() -> None:
    state = to_the_beasts_roll()
    seat = state.active
    give(state, seat, card("muffliato", engine=FIERCE))
    FIERCE.apply(state, seat, PlayMuffliato(card("muffliato", engine=FIERCE)))
    chooser = Forcing(("wild", "protect"))
    with choosing_outcomes(chooser):
        events = pass_windows(state, FIERCE)
    node, outcomes = chooser.seen[0]
    assert node == BeastRoll(black=1, teal=True) and dict(outcomes) == every_roll(["black", "teal"], FIERCE)
    [rolled] = of(events, BeastRolled)
    assert [(d.color, d.face) for d in rolled.dice] == [("black", "wild"), ("teal", "protect")]


def test_a_chosen_beast_roll_takes_effect_exactly() -> None:
    """Three harmless wilds and the reaction: only the reaction hurts (1); four captures hurt 4 x 2."""
    cases: dict[tuple[Face, ...], int] = {
        ("wild", "wild", "wild", "reaction"): HEALTH - 1,
        ("capture",) * 4: HEALTH - 8,
    }
    for faces, health in cases.items():
        state = to_the_beasts_roll()
        active, counter = state.active, state.rng.counter
        chooser = Forcing(faces)
        with choosing_outcomes(chooser):
            events = pass_windows(state, FIERCE)
        [rolled] = of(events, BeastRolled)
        assert tuple(d.face for d in rolled.dice) == faces and [d.color for d in rolled.dice] == BEAST_DICE
        hurt = [e for e in of(events, PlayerHurt) if e.seat == active]
        assert hurt[-1].health == health and state.players[active].health == health
        # The next turn's first roll was chosen too: nothing was drawn.
        assert [type(node) for node, _ in chooser.seen] == [BeastRoll, RollDice] and state.rng.counter == counter


def test_a_drawn_beast_roll_is_one_of_the_stated_outcomes_drawn_with_the_matchs_rng() -> None:
    for seed in range(1, 6):
        state = to_the_beasts_roll()
        state.rng = Rng(seed)
        twin = Rng(seed)
        expected = [roll_die(twin, FIERCE.data.dice, color) for color in BEAST_DICE]
        events = pass_windows(state, FIERCE)
        [rolled] = of(events, BeastRolled)
        faces = tuple(d.face for d in rolled.dice)
        assert list(faces) == expected
        assert as_outcome(faces, BEAST_DICE, FIERCE) in every_roll(BEAST_DICE, FIERCE)


def test_next_chance_reports_the_beasts_roll_once_it_is_next() -> None:
    state = to_the_beasts_roll()
    FIERCE.settle(state)  # the Muffliato window is over
    FIERCE.then(state, BeastRoll(black=3, teal=True))
    chance = FIERCE.next_chance(state)
    assert chance is not None and chance[0] == BeastRoll(black=3, teal=True)
    assert dict(chance[1]) == every_roll(BEAST_DICE, FIERCE)
