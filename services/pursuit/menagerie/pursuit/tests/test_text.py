"""The engine's words for Beast Pursuit: labels of actions, event sentences and prompts on seeded positions.

Every client reads these through the service (ListLegalActions labels, each event's
header text, the view's prompt text); the terminal renderer only draws the view.
"""

from __future__ import annotations

import copy
import re

import pytest

from menagerie.pursuit.engine import Action, PursuitState
from menagerie.pursuit.engine.model import (
    ActionActivated,
    ActionReadied,
    Activate,
    BeastCaptured,
    CardDrawn,
    Contribute,
    Discard,
    MatchFinished,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    Ready,
    Reroll,
    SetAction,
    StopRolling,
)
from menagerie.pursuit.engine.text import ACTION_NAMES
from menagerie.pursuit.tests.seeded import (
    ENGINE,
    NAMES,
    Match,
    decision,
    find,
    finished,
    greedy,
    hoarding,
    uniform,
    window,
    won_match,
)
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.rules.events import project
from menagerie.rules.text import Narrator

ACTION_KINDS = {f.name for f in pursuit_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}


def shows(text: str, card: int) -> bool:
    """True if card #`card` is named (and not merely a prefix of a longer id)."""
    return re.search(rf"#{card}\b", text) is not None


# ------------------------------------------------------------------------ actions


def check_label(action: Action, label: str, state: PursuitState) -> None:
    """The label says what the action does, naming its card, dice and board."""
    beast = ENGINE.beasts[state.beast]
    card = getattr(action, "card", None)
    if card is not None:
        assert shows(label, card), label
    if isinstance(action, Reroll):
        assert label.startswith("Keep ") or label.startswith("Roll all "), label
        assert ("teal die" in label) == action.keep_teal
        assert all(face in label for face in action.keep)
    elif isinstance(action, StopRolling):
        assert label.startswith("Stop rolling and assign these dice: ")
    elif isinstance(action, PlayReroll):
        assert label.startswith(f"Play Reroll #{action.card}: one more roll")
    elif isinstance(action, Contribute):
        assert label.startswith(f"Lend {NAMES[state.active]} your #{action.card} ")
    elif isinstance(action, Ready):
        assert label.startswith(f"Ready your {ACTION_NAMES[action.action]} action: ")
    elif isinstance(action, SetAction):
        assert label.startswith(f"Set your {ACTION_NAMES[action.action]} action with ")
        assert f" {action.face} die" in label
    elif isinstance(action, Activate):
        assert label.startswith(f"Activate {ACTION_NAMES[action.action]} on ")
    elif isinstance(action, PlayDieCard):
        assert label.startswith(f"Add your #{action.card} ")
    elif isinstance(action, PlayMuffliato):
        assert label == f"Play Muffliato #{action.card}: the {beast.name} rolls two fewer black dice"
    elif isinstance(action, PlayProtego):
        assert label.startswith(f"Play Protego #{action.card}: ignore ")
        assert f"{beast.name}'s" in label and f" {action.face} di" in label


def test_every_legal_action_gets_a_distinct_label_and_code() -> None:
    kinds: set[str] = set()
    for policy in (uniform, greedy, hoarding):
        for seed in range(6):
            seats, difficulty = 1 + seed % 4, ("easy", "normal", "hard")[seed % 3]
            match = Match(seed, seats, difficulty, policy)
            while True:
                for seat in ENGINE.to_act(match.state).seats():  # each seat in a window has its own choice
                    labelled = match.labels(seat)
                    texts = [label.text for _, label in labelled]
                    codes = [label.code for _, label in labelled]
                    assert all(text and text.strip() == text for text in texts)
                    assert len(set(texts)) == len(texts), texts  # the player can tell every choice apart
                    assert len(set(codes)) == len(codes), codes
                    for action, label in labelled:
                        kinds.add(str(type(action).__struct_config__.tag))
                        check_label(action, label.text, match.state)
                if match.state.outcome is not None:
                    break
                match.step()
    assert kinds == ACTION_KINDS


def test_a_code_stays_with_its_action() -> None:
    """The same action keeps its code from one position to the next (a person may learn them)."""
    codes: dict[str, str] = {}
    match = Match(3, seats=3, difficulty="easy", policy=greedy)
    while match.state.outcome is None:
        for seat in ENGINE.to_act(match.state).seats():
            for action, label in match.labels(seat):
                key = repr(ENGINE.canonical(match.state, seat, action))
                assert codes.setdefault(key, label.code) == label.code, (action, label)
        match.step()


def test_activation_and_ready_labels_name_the_dice_the_engine_spends() -> None:
    checked = {"activate": 0, "ready": 0}
    for seed in range(6):
        match = Match(seed, seats=2, difficulty="easy")
        while match.until(lambda s: decision(s) == "assign"):
            state = match.state
            for action, label in match.labels(state.active):
                if not isinstance(action, Activate | Ready):
                    continue
                after = copy.deepcopy(state)
                event = ENGINE.apply(after, state.active, action)[0]
                assert f"{ACTION_NAMES[action.action]} " in label.text
                if isinstance(action, Activate):
                    assert isinstance(event, ActionActivated)
                    owner = "your" if action.seat == state.active else f"{NAMES[action.seat]}'s"
                    assert f" on {owner} board with " in label.text
                    if after.activations[-1].color == "teal":
                        assert f"with the teal {event.face} die: " in label.text, label
                    else:
                        assert re.search(rf"with an? {event.face} die: ", label.text), label
                    checked["activate"] += 1
                else:
                    assert isinstance(event, ActionReadied)
                    wilds = sum(1 for d in event.dice if d.face == "wild")
                    assert ("wild di" in label.text) == (wilds > 0), label
                    if wilds:
                        assert f"({wilds} wild di" in label.text
                    checked["ready"] += 1
            match.step()
    assert checked["activate"] > 10 and checked["ready"] > 10


# ------------------------------------------------------------------------ prompts


def test_the_rolling_prompt_counts_the_rolls_and_names_who_rolls() -> None:
    match = find(lambda s: s.turn == 1 and decision(s) == "roll" and s.rolls == 1)
    state = match.state
    assert match.prompt(state.active).startswith("You choose which dice to keep")
    assert "(roll 1 of 3)" in match.prompt(state.active)
    assert match.prompt(None).startswith(f"{NAMES[state.active]} chooses which dice to keep")


def test_the_assign_prompt_says_what_the_active_player_does() -> None:
    match = find(lambda s: decision(s) == "assign" and bool(s.activations))
    state = match.state
    assert match.prompt(state.active) == "You assign the dice: Ready, Set and Activate actions, then stop assigning."
    other = (state.active + 1) % 3
    assert match.prompt(other).startswith(f"{NAMES[state.active]} assigns the dice")


@pytest.mark.parametrize(
    ("kind", "card", "passing"),
    [
        ("reroll_window", "Reroll card", "Pass: play no Reroll card"),
        ("help_window", "dice card", "Pass: lend no dice card"),
        ("muffliato_window", "Muffliato", "Pass: play no Muffliato; let the beast roll"),
        ("protego_window", "Protego", "Pass: play no Protego; let the beast's roll take effect"),
    ],
)
def test_a_reaction_window_says_which_card_and_who_may_play(kind: str, card: str, passing: str) -> None:
    def holder_asked(state: PursuitState) -> bool:
        return any(len(ENGINE.legal_actions(state, s)) > 1 for s in window(state))

    match = find(lambda s: decision(s) == kind and s.outcome is None and holder_asked(s), seats=4)
    state = match.state
    seats = window(state)
    seat = next(s for s in seats if len(ENGINE.legal_actions(state, s)) > 1)
    prompt = match.prompt(seat)
    assert card in prompt and prompt.endswith(", or pass.")
    assert prompt.startswith("You") or " you" in prompt
    assert all(NAMES[s] in prompt for s in seats if s != seat)
    assert NAMES[seat] not in prompt.split(":")[-1], "the reader is 'you'"
    labelled = match.labels(seat)
    assert labelled[-1][0] == Pass() and labelled[-1][1].text == passing
    assert len(labelled) > 1
    for action, label in labelled[:-1]:
        check_label(action, label.text, state)


def test_the_protego_window_names_the_beast_and_its_dice() -> None:
    match = find(lambda s: decision(s) == "protego_window" and bool(s.ignored), difficulty="easy")
    state = match.state
    beast = ENGINE.beasts[state.beast]
    seat = window(state)[0]
    assert match.prompt(seat).startswith(f"The {beast.name} has rolled: ")
    labels = [label.text for _, label in match.labels(seat)]
    assert "Pass: play no Protego; let the beast's roll take effect" in labels
    assert all(beast.name in label for label in labels if label.startswith("Play Protego"))


def test_the_hand_limit_prompt_names_who_must_discard() -> None:
    match = find(lambda s: decision(s) == "discard", policy=hoarding, seats=2, difficulty="easy")
    state = match.state
    seat = ENGINE.to_act(state).seats()[0]
    assert match.prompt(seat) == "Over the hand limit: you must discard down to 3 insight cards."
    assert NAMES[seat] in match.prompt(None)
    labels = match.labels(seat)
    assert labels and all(isinstance(a, Discard) for a, _ in labels)
    assert all(label.text.startswith(f"Discard #{a.card} ") for a, label in labels if isinstance(a, Discard))


@pytest.mark.parametrize("viewer", [0, None])
def test_the_prompt_of_a_won_match_shows_the_shared_win(viewer: int | None) -> None:
    match = won_match()
    outcome = match.state.outcome
    assert outcome is not None and decision(match.state) == "finished"
    assert match.prompt(viewer) == f"The match is over: the team won: {outcome.reason}."


def test_the_prompt_of_a_lost_match_says_why() -> None:
    match = find(finished("loss"), difficulty="hard")
    outcome = match.state.outcome
    assert outcome is not None
    assert match.prompt(None) == f"The match is over: the team lost: {outcome.reason}."


# ------------------------------------------------------------------------- events


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_every_event_reads_well_and_drawn_cards_stay_private(viewer: int | None) -> None:
    kinds: set[str] = set()
    reader = Narrator(viewer, NAMES)
    for seed in range(4):
        match = Match(seed, seats=2, difficulty="easy", policy=greedy)
        match.until(lambda s: s.outcome is not None)
        for event in match.events:
            line = ENGINE.describe_event(project(event, viewer), reader)
            assert line and line.strip() == line, event.kind
            assert "Seat" not in line, line
            kinds.add(event.kind)
            if isinstance(event, CardDrawn):
                if event.seat == viewer:
                    assert line.startswith("You drew #")
                else:
                    assert line == f"{NAMES[event.seat]} drew an insight card."
            if isinstance(event, BeastCaptured):
                assert ENGINE.beasts[event.beast].name in line
            if isinstance(event, MatchFinished):
                assert line.startswith("Game over — the team ")
    assert {"match_started", "dice_rolled", "action_activated", "beast_rolled", "match_finished"} <= kinds


def test_events_read_for_their_reader() -> None:
    """The acting seat reads "you", the others its name; verbs agree."""
    match = Match(0, seats=2, difficulty="easy", policy=greedy)
    started = next(e for e in match.events if e.kind == "turn_started")
    seat = match.state.active
    assert ENGINE.describe_event(started, Narrator(seat, NAMES)) == "— Turn 1: You roll the dice."
    other = NAMES[seat]
    assert ENGINE.describe_event(started, Narrator(1 - seat, NAMES)) == f"— Turn 1: {other} rolls the dice."
