"""The dice game's words: labels of actions, text of events and prompts.

Every client (the CLI, bots' logs, the golden playthroughs) reads these through the
service (ListLegalActions labels, each event's header text, the view's prompt text), so
the names of actions, cards and windows and what they do live here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from menagerie.pursuit.engine.data import ACTIVATED_BY, CAPTURE_STEPS, FACES, Beast, FaceEffect, InsightCard, Reaction
from menagerie.pursuit.engine.dice import WILD, counts_of, pay_pattern, spent_die, usable
from menagerie.pursuit.engine.model import (
    Action,
    ActionActivated,
    ActionReadied,
    ActionSet,
    Activate,
    AssignEnded,
    Assigning,
    AssignStarted,
    BeastAboutToRoll,
    BeastAppeared,
    BeastCaptured,
    BeastEscaped,
    BeastMoved,
    BeastReacted,
    BeastRolled,
    CardDiscarded,
    CardDrawn,
    CardInfo,
    CardKind,
    CardPlayed,
    Contribute,
    DeckEmpty,
    DeckReshuffled,
    DiceRolled,
    Die,
    Discard,
    DiscardDown,
    EndAssign,
    Event,
    HelpWindow,
    MatchFinished,
    MatchStarted,
    MuffliatoWindow,
    Pass,
    Passed,
    PlayDieCard,
    PlayerHurt,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    PoolDie,
    ProtegoWindow,
    PursuitView,
    Ready,
    Reroll,
    RerollWindow,
    Rolling,
    RollingStopped,
    SetAction,
    ShieldGained,
    ShieldLost,
    StopRolling,
    TurnStarted,
)
from menagerie.rules.contract import Label
from menagerie.rules.text import RESULT_WORDS, Narrator, article, listing, plural

ACTION_NAMES: dict[str, str] = {
    "protect": "Protect",
    "capture_1": "Capture 1",
    "distract": "Distract",
    "insight": "Insight",
    "capture_3": "Capture 3",
}
# Short codes a person can type: an action of a board, a face.
ACTION_CODES = {"protect": "pr", "capture_1": "c1", "distract": "di", "insight": "in", "capture_3": "c3"}
FACE_CODES: dict[str, str] = {face: face[0] for face in FACES}
CARD_BOOK: tuple[CardInfo, ...] = (
    CardInfo("die", "Dice card", "its dice join the active player's dice to assign (a ×2 card's go on one board)"),
    CardInfo("reroll", "Reroll", "one more roll for the active player"),
    CardInfo("muffliato", "Muffliato", "the beast rolls two fewer black dice"),
    CardInfo("protego", "Protego", "ignore one of the beast's dice"),
)
CARDS: dict[CardKind, CardInfo] = {info.kind: info for info in CARD_BOOK}
# What an activation does once assigning ends; {who} is the board's owner.
ACTIVATION_EFFECTS = {
    "protect": "+1 shield for {who}",
    "distract": "the beast rolls one die fewer",
    "insight": "+1 insight card for {who}",
    **{
        action: f"the beast moves {plural(steps, 'space')} toward the suitcase"
        for action, steps in CAPTURE_STEPS.items()
    },
}


# -------------------------------------------------------------------- the pieces


def faces_in_order(faces: Iterable[str]) -> list[str]:
    """Face names in board order (protect, capture, distract, insight, wild, reaction)."""
    return sorted(faces, key=lambda f: FACES.index(f) if f in FACES else len(FACES))


def pattern_text(faces: Iterable[str]) -> str:
    """ "3 capture + distract": a Ready pattern, counted."""
    listed = list(faces)
    return " + ".join(f"{listed.count(f)} {f}" if listed.count(f) > 1 else f for f in faces_in_order(set(listed)))


def die_text(die: Die | PoolDie) -> str:
    """ "capture", "teal capture"."""
    return f"{'teal ' if die.color == 'teal' else ''}{die.face}"


def dice_text(dice: Iterable[Die | PoolDie]) -> str:
    """ "capture, wild, teal protect"."""
    return ", ".join(die_text(d) for d in dice) or "no dice"


def sorted_dice(dice: Iterable[Die]) -> list[Die]:
    """Black dice in board order, then the teal die."""
    return sorted(dice, key=lambda d: (d.color == "teal", FACES.index(d.face)))


def card_text(card: InsightCard) -> str:
    """ "#5 capture ×2 dice card", "#12 Reroll"."""
    if card.kind == "die":
        count = f" ×{card.dice}" if card.dice > 1 else ""
        return f"#{card.id} {card.face}{count} dice card"
    return f"#{card.id} {CARDS[card.kind].name}"


def card_effect(card: InsightCard) -> str:
    """What a card does, in words."""
    if card.kind == "die":
        if card.dice > 1:
            return f"{card.dice} {card.face} dice, both on one board"
        return f"1 {card.face} die"
    return CARDS[card.kind].text


def face_effect_text(effect: FaceEffect) -> str:
    """ "escapes 1, attacks 1"."""
    parts = []
    if effect.escape:
        parts.append(f"escapes {effect.escape}")
    if effect.attack:
        parts.append(f"attacks {effect.attack}")
    return ", ".join(parts) or "nothing"


def reaction_text(reaction: Reaction) -> str:
    """The beast's reaction in words."""
    parts = []
    if reaction.strip_shields:
        parts.append("everyone loses a shield")
    if reaction.escape:
        parts.append(f"escapes {reaction.escape}")
    if reaction.attack:
        parts.append(f"attacks the active player for {reaction.attack}")
    if reaction.attack_all:
        parts.append(f"attacks everyone for {reaction.attack_all}")
    return ", ".join(parts) or "nothing"


def beast_die_text(beast: Beast, face: str) -> str:
    """What one die of the beast's roll would do."""
    if face == "reaction":
        return reaction_text(beast.reaction)
    effect = beast.faces.get(face)  # type: ignore[call-overload]
    return face_effect_text(effect) if effect is not None else "nothing"


def capitalized(text: str) -> str:
    """The sentence with its first letter upper-case ("you and Bob may" -> "You and Bob may")."""
    return text[:1].upper() + text[1:]


# The short title of each decision (the prompt's `title`; menagerie.rules.engine.GameText).
TITLES = {
    "roll": "Rolling",
    "reroll_window": "Re-roll?",
    "assign": "Assign the dice",
    "help_window": "Help",
    "discard": "Discard down",
    "muffliato_window": "Muffliato",
    "protego_window": "Protego",
    "finished": "Finished",
}


class PursuitText:
    """Labels, event text and prompt text for one data set."""

    def __init__(self, beasts: Sequence[Beast]) -> None:
        self.beasts = {b.id: b for b in beasts}

    def beast_name(self, beast: str) -> str:
        """ "Niffler"."""
        known = self.beasts.get(beast)
        return known.name if known is not None else beast.replace("_", " ").title()

    # ---------------------------------------------------------------- actions

    def action(self, view: PursuitView, action: Action, n: Narrator) -> Label:
        """How one of the reader's legal actions reads, and its code."""
        me = next((p for p in view.players if p.seat == view.viewer), None)
        hand = {c.id: c for c in me.hand} if me is not None else {}

        def card(card_id: int) -> str:
            known = hand.get(card_id)
            return f"{card_text(known)} ({card_effect(known)})" if known is not None else f"card #{card_id}"

        beast = view.track.beast
        if isinstance(action, Reroll):
            return Label(self._reroll(view, action), self._reroll_code(action))
        if isinstance(action, StopRolling):
            pool = [d for d in view.dice if d.face != "reaction"]
            return Label(f"Stop rolling and assign these dice: {dice_text(sorted_dice(pool))}", "s")
        if isinstance(action, PlayReroll):
            text = f"Play Reroll #{action.card}: one more roll for {n.who(view.active, start=False)} this turn"
            return Label(text, f"rr{action.card}")
        if isinstance(action, Contribute):
            return Label(f"Lend {n.who(view.active, start=False)} your {card(action.card)}", f"l{action.card}")
        if isinstance(action, Pass):
            return Label(self._pass(view), "p")
        if isinstance(action, Ready):
            return Label(self._ready(view, action), f"r{ACTION_CODES[action.action]}")
        if isinstance(action, SetAction):
            text = f"Set your {ACTION_NAMES[action.action]} action with {article(action.face)} die"
            return Label(text, f"s{ACTION_CODES[action.action]}{FACE_CODES[action.face]}")
        if isinstance(action, Activate):
            colour = {"teal": "t", "black": "b"}.get(action.color or "", "")
            return Label(self._activate(view, action, n), f"a{ACTION_CODES[action.action]}{action.seat}{colour}")
        if isinstance(action, PlayDieCard):
            return Label(f"Add your {card(action.card)} to the dice you assign", f"d{action.card}")
        if isinstance(action, EndAssign):
            return Label(self._end_assign(view), "e")
        if isinstance(action, Discard):
            return Label(f"Discard {card(action.card)}", f"x{action.card}")
        if isinstance(action, PlayMuffliato):
            return Label(
                f"Play Muffliato #{action.card}: the {beast.name} rolls two fewer black dice", f"m{action.card}"
            )
        assert isinstance(action, PlayProtego)
        return Label(self._protego(view, action), f"pg{action.card}{FACE_CODES[action.face]}")

    @staticmethod
    def _reroll(view: PursuitView, reroll: Reroll) -> str:
        """ "Keep capture, capture and the teal die (insight); roll the other 3 dice"."""
        words = faces_in_order(reroll.keep)
        if reroll.keep_teal:
            teal = next((d for d in view.dice if d.color == "teal"), None)
            words.append(f"the teal die ({teal.face})" if teal is not None else "the teal die")
        rolled = len(view.dice) - len(reroll.keep) - reroll.keep_teal
        if not words:
            return f"Roll all {plural(rolled, 'die')} again"
        return f"Keep {listing(words)}; roll the other {plural(rolled, 'die') if rolled > 1 else 'die'}"

    @staticmethod
    def _reroll_code(reroll: Reroll) -> str:
        """ "kccwt": keep two captures, a wild and the teal die."""
        return "k" + "".join(FACE_CODES[f] for f in faces_in_order(reroll.keep)) + ("t" if reroll.keep_teal else "")

    @staticmethod
    def _pass(view: PursuitView) -> str:
        """What passing gives up, in the open window."""
        kind = view.prompt.kind
        if kind == RerollWindow.kind():
            return "Pass: play no Reroll card"
        if kind == HelpWindow.kind():
            return "Pass: lend no dice card"
        if kind == MuffliatoWindow.kind():
            return "Pass: play no Muffliato; let the beast roll"
        if kind == ProtegoWindow.kind():
            return "Pass: play no Protego; let the beast's roll take effect"
        return "Pass"

    @staticmethod
    def _ready(view: PursuitView, ready: Ready) -> str:
        """ "Ready your Capture 3 action: 3 capture + distract (1 wild die fills in)"."""
        name = ACTION_NAMES[ready.action]
        board = next((p for p in view.players if p.seat == view.active), None)
        if board is None:
            return f"Ready your {name} action"
        pattern = next((list(p.faces) for p in board.character.ready if p.action == ready.action), [])
        have = counts_of(d.face for d in view.pool if usable(d, view.active, view.card_boards))
        left = pay_pattern(have, counts_of(pattern))
        wilds = have[WILD] - left[WILD] if left is not None else 0
        fill = f" ({plural(wilds, 'wild die')} fill{'s' * (wilds == 1)} in)" if wilds else ""
        return f"Ready your {name} action: {pattern_text(pattern)}{fill}"

    @staticmethod
    def _activate(view: PursuitView, activate: Activate, n: Narrator) -> str:
        """ "Activate Protect on Bob's board with a wild die: +1 shield for Bob"."""
        face = ACTIVATED_BY[activate.action]
        index = spent_die(view.pool, view.card_boards, face, activate.seat, color=activate.color)
        spent = view.pool[index] if index is not None else None
        die = "a die"
        if spent is not None:
            die = f"the teal {spent.face} die" if spent.color == "teal" else f"{article(spent.face)} die"
        effect = ACTIVATION_EFFECTS[activate.action].format(who=n.who(activate.seat, start=False))
        if activate.action == "distract" and spent is not None and spent.color == "teal":
            effect = "the beast rolls without its teal die"
        return f"Activate {ACTION_NAMES[activate.action]} on {n.whose(activate.seat)} board with {die}: {effect}"

    @staticmethod
    def _end_assign(view: PursuitView) -> str:
        """ "Stop assigning: 2 activated actions take effect (1 unused die is lost)"."""
        count = len(view.activations)
        unused = ""
        if view.pool:
            unused = f" ({plural(len(view.pool), 'unused die')} {'is' if len(view.pool) == 1 else 'are'} lost)"
        if not count:
            return f"Stop assigning without activating anything{unused}"
        return f"Stop assigning: {plural(count, 'activated action')} take{'s' * (count == 1)} effect{unused}"

    @staticmethod
    def _protego(view: PursuitView, protego: PlayProtego) -> str:
        """ "Play Protego #11: ignore the Niffler's capture die (it escapes 1)"."""
        beast = view.track.beast
        ignored = set(view.ignored)
        showing = sum(1 for i, d in enumerate(view.beast_dice) if d.face == protego.face and i not in ignored)
        face = protego.face
        which = f"one of the {beast.name}'s {showing} {face} dice" if showing > 1 else f"the {beast.name}'s {face} die"
        return f"Play Protego #{protego.card}: ignore {which} (it {beast_die_text(beast, face)})"

    # ----------------------------------------------------------------- events

    def event(self, event: Event, n: Narrator) -> str | None:
        """One sentence for an event as the reader sees it."""
        for words in (self._turn_event, self._card_event, self._beast_event):
            text = words(event, n)
            if text is not None:
                return text
        raise AssertionError(f"no words for {type(event).__name__}")

    def _turn_event(self, event: Event, n: Narrator) -> str | None:
        """The players' turns: rolling, assigning, the actions on the boards."""
        if isinstance(event, MatchStarted):
            beasts = ", ".join(self.beast_name(b) for b in event.beasts)
            return f"The chase begins: {beasts}. {n.does(event.first_seat, 'roll')} first."
        if isinstance(event, TurnStarted):
            return f"— Turn {event.turn}: {n.does(event.seat, 'roll')} the dice."
        if isinstance(event, DiceRolled):
            rolled = [die_text(d) + (" (kept)" if k else "") for d, k in zip(event.dice, event.kept, strict=False)]
            return f"{n.who(event.seat)} rolled (roll {event.roll}): {', '.join(rolled)}."
        if isinstance(event, RollingStopped):
            return f"{n.who(event.seat)} stopped rolling with {dice_text(event.dice)}."
        if isinstance(event, Passed):
            return f"{n.who(event.seat)} passed."
        if isinstance(event, CardPlayed):
            return f"{n.who(event.seat)} played {card_text(event.card)}: {card_effect(event.card)}."
        if isinstance(event, AssignStarted):
            return f"Now {n.does(event.seat, 'assign', start=False)} the dice."
        if isinstance(event, ActionReadied):
            return f"{n.who(event.seat)} readied {ACTION_NAMES[event.action]} with {dice_text(event.dice)}."
        if isinstance(event, ActionSet):
            return f"{n.who(event.seat)} set {ACTION_NAMES[event.action]} with {article(event.face)} die."
        if isinstance(event, ActionActivated):
            board = f"{n.whose(event.target)} board"
            if event.target == event.seat:
                board = "your own board" if event.seat == n.viewer else "their own board"
            name = ACTION_NAMES[event.action]
            return f"{n.who(event.seat)} activated {name} on {board} with {article(event.face)} die."
        if isinstance(event, AssignEnded):
            return f"{n.who(event.seat)} finished assigning: the activated actions take effect."
        return None

    def _card_event(self, event: Event, n: Narrator) -> str | None:
        """Shields and insight cards."""
        if isinstance(event, ShieldGained):
            return f"{n.who(event.seat)} gained a shield (now {event.shields})."
        if isinstance(event, ShieldLost):
            return f"{n.who(event.seat)} lost a shield (now {event.shields})."
        if isinstance(event, CardDrawn):
            if event.card is not None:
                return f"{n.who(event.seat)} drew {card_text(event.card)} ({card_effect(event.card)})."
            return f"{n.who(event.seat)} drew an insight card."
        if isinstance(event, CardDiscarded):
            return f"{n.who(event.seat)} discarded {card_text(event.card)}."
        if isinstance(event, DeckReshuffled):
            return f"The discard pile was shuffled into a new deck of {plural(event.size, 'card')}."
        if isinstance(event, DeckEmpty):
            return f"No insight card left for {n.who(event.seat, start=False)} to draw."
        return None

    def _beast_event(self, event: Event, n: Narrator) -> str | None:
        """The beast's turn, the players' health and the end of the chase."""
        if isinstance(event, BeastAboutToRoll):
            return f"The {self.beast_name(event.beast)} is about to roll: Muffliato may still be played."
        if isinstance(event, BeastRolled):
            distracted = f" ({plural(event.distracted, 'die')} distracted)" if event.distracted else ""
            return f"The {self.beast_name(event.beast)} rolled {dice_text(event.dice)}{distracted}."
        if isinstance(event, BeastReacted):
            beast = self.beasts.get(event.beast)
            what = reaction_text(beast.reaction) if beast is not None else "it reacts"
            cause = " to the active player's roll" if event.when == "roll" else ""
            return f"The {self.beast_name(event.beast)} reacts{cause}: {what}."
        if isinstance(event, BeastMoved):
            return self._moved(event)
        if isinstance(event, BeastCaptured):
            return f"The {self.beast_name(event.beast)} is back in the suitcase!"
        if isinstance(event, BeastEscaped):
            return f"The {self.beast_name(event.beast)} escaped!"
        if isinstance(event, BeastAppeared):
            return f"Next beast: the {self.beast_name(event.beast)}."
        if isinstance(event, PlayerHurt):
            return f"{n.does(event.seat, 'were', 'was')} hurt: health {event.health}, shields {event.shields}."
        if isinstance(event, MatchFinished):
            return f"Game over — {self._result(event.outcome.seats[0].result)}: {n.named(event.outcome.reason)}."
        return None

    def _moved(self, event: BeastMoved) -> str:
        name = self.beast_name(event.beast)
        if event.steps > 0:
            line = f"The {name} moved {plural(event.steps, 'space')} toward the suitcase"
        else:
            line = f"The {name} moved {plural(-event.steps, 'space')} away from the suitcase"
        beast = self.beasts.get(event.beast)
        if beast is None:
            return line + "."
        length = beast.to_escape + beast.to_suitcase
        if event.position >= length:
            return line + "."
        if event.position < 0:
            return line + " and got away."
        return line + f" ({plural(length - event.position, 'space')} to go)."

    @staticmethod
    def _result(result: str) -> str:
        return f"the team {RESULT_WORDS.get(result, 'ended')}"

    # ----------------------------------------------------------------- prompt

    def prompt(self, view: PursuitView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if view.outcome is not None:
            return f"The match is over: {self._result(view.outcome.seats[0].result)}: {n.named(view.outcome.reason)}."
        active = view.active
        beast = view.track.beast.name
        seats = n.seats(sorted({*prompt.must, *prompt.may}))
        deciders = capitalized(seats)  # at the start of a sentence
        kind = prompt.kind
        if kind == Rolling.kind():
            if view.rolls < view.roll_limit:
                return (
                    f"{n.does(active, 'choose')} which dice to keep and roll again, or stop rolling "
                    f"(roll {view.rolls} of {view.roll_limit})."
                )
            return f"{n.does(active, 'have')} no roll left: stop rolling, or play a Reroll card for one more."
        if kind == RerollWindow.kind():
            whom = n.who(active, start=False)
            return f"{deciders} may play a Reroll card (one more roll for {whom}), or pass."
        if kind == HelpWindow.kind():
            return f"{deciders} may lend {n.who(active, start=False)} a dice card to assign this turn, or pass."
        if kind == Assigning.kind():
            return f"{n.does(active, 'assign')} the dice: Ready, Set and Activate actions, then stop assigning."
        if kind == DiscardDown.kind():
            return f"Over the hand limit: {seats} must discard down to {plural(view.hand_limit, 'insight card')}."
        if kind == MuffliatoWindow.kind():
            return f"The {beast} is about to roll: {seats} may play Muffliato (it rolls two fewer black dice), or pass."
        if kind == ProtegoWindow.kind():
            return f"The {beast} has rolled: {seats} may play Protego to ignore one of its dice, or pass."
        return f"Waiting for {seats}."


def beast_card_text(beast: Beast) -> str:
    """A beast card in words: "Rolls 2 black dice + the teal die: capture → escapes 1 · … · reaction → …"."""
    teal = " + the teal die" if beast.teal else ""
    effects = [
        f"{f} → {face_effect_text(e)}" for f, e in sorted(beast.faces.items(), key=lambda fe: FACES.index(fe[0]))
    ]
    effects.append(f"reaction → {reaction_text(beast.reaction)}")
    return f"Rolls {plural(beast.black_dice, 'black die')}{teal}: {' · '.join(effects)}"


def card_book() -> list[CardInfo]:
    """Every kind of insight card, its name and what it does (part of every view)."""
    return list(CARD_BOOK)
