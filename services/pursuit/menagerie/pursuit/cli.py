"""Beast Pursuit, the cooperative dice game, in the terminal: the chase, the boards, the dice, every action in words.

Everything comes from menagerie.pursuit.v1 messages. Captured and escaped beasts (and
the events) name beasts by id only, so the UI remembers every beast card a view has
shown; the stack is dealt face up at the start, so the first view shows them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

import grpc
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.common.v1 import common_pb2
from menagerie.pursuit.v1 import pursuit_pb2, pursuit_pb2_grpc

View = pursuit_pb2.View
FACE: dict[int, str] = {
    pursuit_pb2.FACE_PROTECT: "protect",
    pursuit_pb2.FACE_CAPTURE: "capture",
    pursuit_pb2.FACE_DISTRACT: "distract",
    pursuit_pb2.FACE_INSIGHT: "insight",
    pursuit_pb2.FACE_WILD: "wild",
    pursuit_pb2.FACE_REACTION: "reaction",
}
# The order faces are listed in: the board's symbols, then the wild and the beast's reaction.
FACE_ORDER = ("protect", "capture", "distract", "insight", "wild", "reaction")
ACTION: dict[int, str] = {
    pursuit_pb2.ACTION_NAME_PROTECT: "Protect",
    pursuit_pb2.ACTION_NAME_CAPTURE_1: "Capture 1",
    pursuit_pb2.ACTION_NAME_DISTRACT: "Distract",
    pursuit_pb2.ACTION_NAME_INSIGHT: "Insight",
    pursuit_pb2.ACTION_NAME_CAPTURE_3: "Capture 3",
}
# The face that activates each action: the rules' (the view does not carry it).
ACTIVATED_BY: dict[int, str] = {
    pursuit_pb2.ACTION_NAME_PROTECT: "protect",
    pursuit_pb2.ACTION_NAME_CAPTURE_1: "capture",
    pursuit_pb2.ACTION_NAME_DISTRACT: "distract",
    pursuit_pb2.ACTION_NAME_INSIGHT: "insight",
    pursuit_pb2.ACTION_NAME_CAPTURE_3: "capture",
}
PHASE: dict[int, str] = {
    pursuit_pb2.PHASE_ROLL: "Rolling the dice",
    pursuit_pb2.PHASE_HELP: "Others may lend dice cards",
    pursuit_pb2.PHASE_ASSIGN: "Assigning dice",
    pursuit_pb2.PHASE_DISCARD: "Discarding down to the hand limit",
    pursuit_pb2.PHASE_BEFORE_BEAST: "The beast is about to roll",
    pursuit_pb2.PHASE_BEAST: "The beast has rolled",
    pursuit_pb2.PHASE_FINISHED: "Finished",
}
DIFFICULTY: dict[int, str] = {
    pursuit_pb2.DIFFICULTY_EASY: "easy",
    pursuit_pb2.DIFFICULTY_NORMAL: "normal",
    pursuit_pb2.DIFFICULTY_HARD: "hard",
}
# The insight card each reaction window is open for, and what playing it does.
WINDOW: dict[int, tuple[str, str]] = {
    pursuit_pb2.PHASE_ROLL: ("Reroll", "one more roll for the active player"),
    pursuit_pb2.PHASE_HELP: ("dice", "lend the active player a dice card"),
    pursuit_pb2.PHASE_BEFORE_BEAST: ("Muffliato", "the beast rolls two fewer black dice"),
    pursuit_pb2.PHASE_BEAST: ("Protego", "ignore one of the beast's dice"),
}
PASS_LABEL: dict[int, str] = {
    pursuit_pb2.PHASE_ROLL: "Pass: play no Reroll card",
    pursuit_pb2.PHASE_HELP: "Pass: lend no dice card",
    pursuit_pb2.PHASE_BEFORE_BEAST: "Pass: play no Muffliato; let the beast roll",
    pursuit_pb2.PHASE_BEAST: "Pass: play no Protego; let the beast's roll take effect",
}
# What an activation does once assigning ends; {who} is the board's owner.
ACTIVATION_EFFECT: dict[int, str] = {
    pursuit_pb2.ACTION_NAME_PROTECT: "+1 shield for {who}",
    pursuit_pb2.ACTION_NAME_CAPTURE_1: "the beast moves 1 space toward the suitcase",
    pursuit_pb2.ACTION_NAME_DISTRACT: "the beast rolls one die fewer",
    pursuit_pb2.ACTION_NAME_INSIGHT: "+1 insight card for {who}",
    pursuit_pb2.ACTION_NAME_CAPTURE_3: "the beast moves 3 spaces toward the suitcase",
}
RESULT: dict[int, str] = {common_pb2.RESULT_WIN: "won", common_pb2.RESULT_LOSS: "lost", common_pb2.RESULT_DRAW: "drew"}
TEAL_STYLE = "bold cyan"
BLACK_STYLE = "bold"


# ------------------------------------------------------------------------- words


def _face(face: int) -> str:
    """ "capture"."""
    return FACE.get(face, "?")


def _action(action: int) -> str:
    """ "Capture 3"."""
    return ACTION.get(action, "?")


def _plural(count: int, noun: str) -> str:
    """ "1 die", "2 black dice", "3 spaces"."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun.removesuffix('die') + 'dice' if noun.endswith('die') else noun + 's'}"


def _a(word: str) -> str:
    """ "a capture", "an insight"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _listing(words: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _faces(faces: Iterable[str]) -> list[str]:
    """Face names in board order (protect, capture, distract, insight, wild)."""
    return sorted(faces, key=lambda f: FACE_ORDER.index(f) if f in FACE_ORDER else len(FACE_ORDER))


def _pattern(faces: Iterable[int]) -> str:
    """ "3 capture + distract": a Ready pattern, counted."""
    counts = Counter(_face(f) for f in faces)
    return " + ".join(f"{counts[f]} {f}" if counts[f] > 1 else f for f in _faces(counts))


def _die(die: pursuit_pb2.Die | pursuit_pb2.PoolDie) -> str:
    """ "capture", "teal capture"."""
    teal = "teal " if die.color == pursuit_pb2.COLOR_TEAL else ""
    return f"{teal}{_face(die.face)}"


def _dice_text(dice: Iterable[pursuit_pb2.Die]) -> str:
    """ "capture, wild, teal protect"."""
    return ", ".join(_die(d) for d in dice) or "no dice"


def _card(card: pursuit_pb2.InsightCard) -> str:
    """ "#5 capture ×2 dice card", "#12 Reroll"."""
    if card.kind == pursuit_pb2.CARD_KIND_DIE:
        count = f" ×{card.dice}" if card.dice > 1 else ""
        return f"#{card.id} {_face(card.face)}{count} dice card"
    kind = {
        pursuit_pb2.CARD_KIND_REROLL: "Reroll",
        pursuit_pb2.CARD_KIND_MUFFLIATO: "Muffliato",
        pursuit_pb2.CARD_KIND_PROTEGO: "Protego",
    }.get(card.kind, "insight card")
    return f"#{card.id} {kind}"


def _card_effect(card: pursuit_pb2.InsightCard) -> str:
    """What a card does, in words."""
    if card.kind == pursuit_pb2.CARD_KIND_DIE:
        if card.dice > 1:
            return f"{card.dice} {_face(card.face)} dice, both on one board"
        return f"1 {_face(card.face)} die"
    return {
        pursuit_pb2.CARD_KIND_REROLL: "one more roll for the active player",
        pursuit_pb2.CARD_KIND_MUFFLIATO: "the beast rolls two fewer black dice",
        pursuit_pb2.CARD_KIND_PROTEGO: "ignore one of the beast's dice",
    }.get(card.kind, "?")


def _face_effect(effect: pursuit_pb2.FaceEffect) -> str:
    """ "escapes 1, attacks 1"."""
    parts = []
    if effect.escape:
        parts.append(f"escapes {effect.escape}")
    if effect.attack:
        parts.append(f"attacks {effect.attack}")
    return ", ".join(parts) or "nothing"


def _reaction(reaction: pursuit_pb2.Reaction) -> str:
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


def _beast_die_effect(beast: pursuit_pb2.Beast, face: int) -> str:
    """What one die of the beast's roll would do."""
    name = _face(face)
    if face == pursuit_pb2.FACE_REACTION:
        return _reaction(beast.reaction)
    if name in beast.faces:
        return _face_effect(beast.faces[name])
    return "nothing"


def _who(seat: int, viewer: int | None, names: dict[int, str], start: bool = True) -> str:
    """ "You"/"you" for the viewer, else the seat's name."""
    if seat == viewer:
        return "You" if start else "you"
    return names.get(seat, f"Seat {seat}")


def _possessive(seat: int, viewer: int | None, names: dict[int, str]) -> str:
    """ "your" or "Ann's"."""
    return "your" if seat == viewer else f"{names.get(seat, f'Seat {seat}')}'s"


def _viewer(view: View) -> int | None:
    return view.viewer if view.HasField("viewer") else None


def _usable(view: View, die: pursuit_pb2.PoolDie, board: int) -> bool:
    """A dice card's second die must go on the board its first one went to."""
    return die.card == 0 or view.card_boards.get(die.card, board) == board


def _window_open(view: View) -> bool:
    return len(view.window) > 0 and view.phase in WINDOW


# --------------------------------------------------------------------------- UI


class PursuitUI:
    """Drawing and naming for menagerie.pursuit.v1."""

    pb2: ModuleType = pursuit_pb2

    def __init__(self) -> None:
        self.beasts: dict[str, pursuit_pb2.Beast] = {}

    def stub(self, channel: grpc.Channel) -> pursuit_pb2_grpc.PursuitStub:
        """The Pursuit service's stub on `channel`."""
        return pursuit_pb2_grpc.PursuitStub(channel)

    # ------------------------------------------------------------- memory

    def _learn(self, view: View) -> None:
        """Remembers every beast card the view shows (captured ones are named by id only)."""
        for beast in [view.track.beast, *view.beasts_to_come]:
            if beast.id:
                self.beasts[beast.id] = beast

    def _beast_name(self, beast: str) -> str:
        """The beast's name (a readable id if it was never shown)."""
        known = self.beasts.get(beast)
        return known.name if known is not None else beast.replace("_", " ").title()

    # ------------------------------------------------------------- drawing

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Header, the chase, the boards, the dice, the cards, the window, the beast's roll, the result."""
        self._learn(view)
        parts: list[RenderableType] = [self._header(view, names), self._chase(view), self._boards(view, names)]
        parts += self._dice(view, names)
        parts += self._cards(view, names)
        parts += self._window(view, names)
        parts += self._beast_roll(view)
        if len(view.outcome.seats) > 0:
            parts.append(self._result(view, names))
        return Group(*parts)

    def _header(self, view: View, names: dict[int, str]) -> Text:
        viewer = _viewer(view)
        difficulty = DIFFICULTY.get(view.difficulty, "?")
        text = Text(f"Beast Pursuit ({difficulty}) · turn {view.turn} · ", style="bold")
        text.append(f"{_who(view.active, viewer, names)} {'are' if view.active == viewer else 'is'} the active player")
        text.append(f" · {PHASE.get(view.phase, '?')}")
        if view.to_act:
            waiting = ", ".join(_who(s, viewer, names, start=False) for s in view.to_act)
            text.append(f"\nTo act: {waiting}", style="cyan")
        return text

    def _to_win(self, view: View) -> int:
        """How many captures win: the stack's size less the escapes allowed (the view has no count)."""
        gone = set(view.captured) | set(view.escaped)
        chased = 0 if view.track.beast.id in gone else 1
        total = len(view.captured) + len(view.escaped) + len(view.beasts_to_come) + chased
        return total - view.escapes_allowed

    def _chase(self, view: View) -> Group:
        """The beast being chased, its capture track and card; the beasts to come; the score."""
        track, beast = view.track, view.track.beast
        title = Text(f"Chasing the {beast.name} (level {beast.level})", style="bold magenta")
        line = Text("escape ◂ ", style="red")
        for space in range(track.length):
            if space == track.position:
                line.append("●", style="bold magenta")
            elif space == beast.to_escape:
                line.append("○", style="dim")  # the circular starting space
            else:
                line.append("·", style="dim")
            line.append(" ")
        line.append("▸ suitcase", style="green")
        if track.position >= track.length:
            line.append(" ●", style="bold magenta")
            where = "in the suitcase"
        elif track.position < 0:
            where = "escaped"
        else:
            to_suitcase = track.length - track.position
            where = (
                f"{_plural(to_suitcase, 'space')} to the suitcase; "
                f"escapes after {_plural(track.position + 1, 'space')} back"
            )
        line.append(f"   ({where})")
        teal = " + the teal die" if beast.teal else ""
        card = Text(f"Rolls {_plural(beast.black_dice, 'black die')}{teal}: ", style="dim")
        effects = [f"{f} → {_face_effect(beast.faces[f])}" for f in _faces(beast.faces)]
        card.append(" · ".join([*effects, f"reaction → {_reaction(beast.reaction)}"]), style="dim")
        coming = ", ".join(f"{b.name} (L{b.level})" for b in view.beasts_to_come) or "none"
        score = Text(f"Beasts to come: {coming}\n")
        score.append(f"Captured {len(view.captured)} of {self._to_win(view)} needed", style="bold green")
        captured = ", ".join(self._beast_name(b) for b in view.captured)
        score.append(f": {captured}" if captured else "")
        score.append(" · ")
        score.append(f"escaped {len(view.escaped)} of {view.escapes_allowed} allowed", style="bold red")
        escaped = ", ".join(self._beast_name(b) for b in view.escaped)
        score.append(f": {escaped}" if escaped else "")
        return Group(title, line, card, score)

    def _boards(self, view: View, names: dict[int, str]) -> Table:
        """One column per player board: each action's Ready pattern, Ready/Set, this turn's activations."""
        viewer = _viewer(view)
        table = Table(title="Player boards", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
        table.add_column("", style="bold", no_wrap=True)
        for player in view.players:
            marker = "▶ " if player.seat == view.active else ""
            you = " (you)" if player.seat == viewer else ""
            table.add_column(f"{marker}{names.get(player.seat, f'Seat {player.seat}')}{you}")
        rows: list[list[RenderableType]] = [["character"], ["health"], ["shields"], ["insight cards"]]
        for player in view.players:
            rows[0].append(player.character.name)
            health = Text(str(player.health), style="bold red" if player.health <= 3 else "")
            if player.health == 0:
                health.append(" (stunned)", style="bold red")
            rows[1].append(health)
            rows[2].append(str(player.shields))
            rows[3].append(str(player.hand_size))
        for action in ACTION:
            row: list[RenderableType] = [_action(action)]
            for player in view.players:
                row.append(self._action_cell(view, player, action))
            rows.append(row)
        for row in rows:
            table.add_row(*row)
        return table

    @staticmethod
    def _action_cell(view: View, player: pursuit_pb2.PlayerView, action: int) -> Text:
        """ "Ready: 2 capture" / "Ready ✓ Set ✓" / "⚡ activated"."""
        pattern: list[int] = next((list(p.faces) for p in player.character.ready if p.action == action), [])
        cell = Text(f"Ready: {_pattern(pattern)}\n", style="dim")
        ready, set_ = action in player.ready, action in player.set
        if ready and set_:
            cell.append("Ready ✓ Set ✓", style="bold green")
        elif ready:
            cell.append("Ready ✓ Set –", style="green")
        else:
            cell.append("not Ready", style="dim")
        for activation in view.activations:
            if activation.seat == player.seat and activation.action == action:
                teal = " (teal die)" if activation.color == pursuit_pb2.COLOR_TEAL else ""
                cell.append(f"\n⚡ activated{teal}", style="bold yellow")
        return cell

    def _dice(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The rolled dice (kept ones marked) while rolling; the dice left to assign after."""
        if view.phase == pursuit_pb2.PHASE_ROLL and view.dice:
            text = Text(f"Dice (roll {view.rolls} of {view.roll_limit}; ✓ = kept): ", style="bold")
            for die, kept in zip(view.dice, view.kept, strict=False):
                teal = die.color == pursuit_pb2.COLOR_TEAL
                text.append(f"{'teal ' if teal else ''}{_face(die.face)}", style=TEAL_STYLE if teal else BLACK_STYLE)
                text.append("✓  " if kept else "  ", style="green")
            if any(d.face == pursuit_pb2.FACE_REACTION for d in view.dice):
                text.append("\nThe teal die shows the beast's reaction: it is not assigned.", style="dim")
            return [text]
        if view.phase in (pursuit_pb2.PHASE_HELP, pursuit_pb2.PHASE_ASSIGN):
            text = Text("Dice to assign: ", style="bold")
            viewer = _viewer(view)
            if not view.pool:
                text.append("none left", style="dim")
            for index, pool_die in enumerate(view.pool):
                teal = pool_die.color == pursuit_pb2.COLOR_TEAL
                text.append(_die(pool_die), style=TEAL_STYLE if teal else BLACK_STYLE)
                if pool_die.card:
                    board = view.card_boards.get(pool_die.card)
                    on = f", {_possessive(board, viewer, names)} board only" if board is not None else ""
                    text.append(f" (card #{pool_die.card}{on})", style="dim")
                text.append(", " if index < len(view.pool) - 1 else "")
            return [text]
        return []

    def _cards(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The viewer's insight cards, the others' hand sizes, the deck and discard pile."""
        viewer = _viewer(view)
        text = Text()
        mine = next((p for p in view.players if p.seat == viewer), None)
        if mine is not None:
            text.append("Your insight cards: ", style="bold")
            text.append("; ".join(f"{_card(c)} ({_card_effect(c)})" for c in mine.hand) or "none")
            text.append("\n")
        others = [p for p in view.players if p.seat != viewer]
        if others:
            held = ", ".join(f"{names.get(p.seat, f'Seat {p.seat}')} {_plural(p.hand_size, 'card')}" for p in others)
            text.append(f"{'Others hold' if mine is not None else 'Hands'}: {held}\n")
        text.append(f"Deck {_plural(view.deck_size, 'card')} · discard pile {_plural(len(view.discard), 'card')}")
        return [text]

    def _window(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The open reaction window: which card it is for and who may still play one."""
        viewer = _viewer(view)
        if _window_open(view):
            card, effect = WINDOW[view.phase]
            who = _listing([_who(s, viewer, names, start=False) for s in view.window])
            text = Text(f"Reaction window: {card} cards may be played now ({effect}). ", style="bold yellow")
            text.append(f"May play or pass: {who}.")
            return [text]
        if view.phase == pursuit_pb2.PHASE_DISCARD:
            who = _listing([_who(s, viewer, names, start=False) for s in view.to_act])
            return [Text(f"Over the hand limit, must discard: {who}.", style="bold yellow")]
        return []

    def _beast_roll(self, view: View) -> list[RenderableType]:
        """The beast's roll: each die, what it does, which are ignored; distracted and muffled dice."""
        beast = view.track.beast
        parts: list[RenderableType] = []
        distracted = [a for a in view.activations if a.action == pursuit_pb2.ACTION_NAME_DISTRACT]
        if view.phase in (pursuit_pb2.PHASE_ASSIGN, pursuit_pb2.PHASE_BEFORE_BEAST) and (distracted or view.muffled):
            fewer = [f"{_plural(len(distracted), 'die')} distracted"] if distracted else []
            fewer += [f"{view.muffled} black dice muffled"] if view.muffled else []
            parts.append(Text(f"The {beast.name} will roll fewer dice: {', '.join(fewer)}.", style="dim"))
        if not view.beast_dice:
            return parts
        table = Table(title=f"The {beast.name} rolled", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
        for header in ("die", "face", "effect", ""):
            table.add_column(header)
        ignored = set(view.ignored)
        for index, die in enumerate(view.beast_dice):
            teal = die.color == pursuit_pb2.COLOR_TEAL
            colour = Text("teal" if teal else "black", style=TEAL_STYLE if teal else BLACK_STYLE)
            effect = _beast_die_effect(beast, die.face)
            if index in ignored:
                table.add_row(colour, _face(die.face), Text(effect, style="strike dim"), Text("ignored", style="green"))
            else:
                table.add_row(colour, _face(die.face), effect, "")
        parts.append(table)
        return parts

    @staticmethod
    def _result(view: View, names: dict[int, str]) -> Text:
        """The team's shared result."""
        results = {s.result for s in view.outcome.seats}
        result = RESULT.get(results.pop(), "?") if len(results) == 1 else "ended"
        text = Text(f"The team {result}: ", style="bold green" if result == "won" else "bold red")
        text.append(view.outcome.reason)
        stunned = [names.get(p.seat, f"Seat {p.seat}") for p in view.players if p.health == 0]
        if stunned:
            # The engine's reason names seats by number; the players know each other by name.
            text.append(f" — {_listing(stunned)} {'was' if len(stunned) == 1 else 'were'} stunned")
        return text

    # -------------------------------------------------------------- events

    def describe_event(self, event: Any, names: dict[int, str], viewer: int | None, view: Any) -> str | None:
        """One line for an event, or None where there is nothing worth reading."""
        kind = event.WhichOneof("kind")
        if kind is None:
            return None
        self._learn(view)
        return self._event_line(kind, getattr(event, kind), names, viewer, view)

    def _event_line(self, kind: str, body: Any, names: dict[int, str], viewer: int | None, view: View) -> str | None:
        def who(seat: int) -> str:
            return _who(seat, viewer, names)

        if kind == "match_started":
            beasts = ", ".join(self._beast_name(b) for b in body.beasts)
            return f"The chase begins: {beasts}. {who(body.first_seat)} roll{'s' * (body.first_seat != viewer)} first."
        if kind == "turn_started":
            return f"— Turn {body.turn}: {who(body.seat)} roll{'s' * (body.seat != viewer)} the dice."
        if kind == "dice_rolled":
            rolled = [_die(d) + (" (kept)" if k else "") for d, k in zip(body.dice, body.kept, strict=False)]
            return f"{who(body.seat)} rolled (roll {body.roll}): {', '.join(rolled)}."
        if kind == "rolling_stopped":
            return f"{who(body.seat)} stopped rolling with {_dice_text(body.dice)}."
        if kind == "passed":
            return f"{who(body.seat)} passed."
        if kind == "card_played":
            return f"{who(body.seat)} played {_card(body.card)}: {_card_effect(body.card)}."
        if kind == "assigning":
            return f"{who(body.seat)} now assign{'s' * (body.seat != viewer)} the dice."
        if kind == "action_readied":
            return f"{who(body.seat)} readied {_action(body.action)} with {_dice_text(body.dice)}."
        if kind == "action_set":
            return f"{who(body.seat)} set {_action(body.action)} with {_a(_face(body.face))} die."
        if kind == "action_activated":
            board = _possessive(body.target, viewer, names)
            if body.target == body.seat:
                board = "your own" if body.seat == viewer else "their own"
            return (
                f"{who(body.seat)} activated {_action(body.action)} on {board} board with {_a(_face(body.face))} die."
            )
        if kind == "assign_ended":
            return f"{who(body.seat)} finished assigning: the activated actions take effect."
        if kind == "shield_gained":
            return f"{who(body.seat)} gained a shield (now {body.shields})."
        if kind == "shield_lost":
            return f"{who(body.seat)} lost a shield (now {body.shields})."
        if kind == "card_drawn":
            if body.HasField("card"):
                return f"{who(body.seat)} drew {_card(body.card)} ({_card_effect(body.card)})."
            return f"{who(body.seat)} drew an insight card."
        if kind == "card_discarded":
            return f"{who(body.seat)} discarded {_card(body.card)}."
        if kind == "deck_reshuffled":
            return f"The discard pile was shuffled into a new deck of {_plural(body.size, 'card')}."
        if kind == "deck_empty":
            return f"No insight card left for {_who(body.seat, viewer, names, start=False)} to draw."
        if kind == "beast_about_to_roll":
            return f"The {self._beast_name(body.beast)} is about to roll: Muffliato may still be played."
        if kind == "beast_rolled":
            distracted = f" ({_plural(body.distracted, 'die')} distracted)" if body.distracted else ""
            return f"The {self._beast_name(body.beast)} rolled {_dice_text(body.dice)}{distracted}."
        if kind == "beast_reacted":
            beast = self.beasts.get(body.beast)
            what = _reaction(beast.reaction) if beast is not None else "it reacts"
            cause = " to the active player's roll" if body.when == "roll" else ""
            return f"The {self._beast_name(body.beast)} reacts{cause}: {what}."
        if kind == "beast_moved":
            return self._moved_line(body)
        if kind == "beast_captured":
            return f"The {self._beast_name(body.beast)} is back in the suitcase!"
        if kind == "beast_escaped":
            return f"The {self._beast_name(body.beast)} escaped!"
        if kind == "beast_appeared":
            return f"Next beast: the {self._beast_name(body.beast)}."
        if kind == "player_hurt":
            verb = "were" if body.seat == viewer else "was"
            return f"{who(body.seat)} {verb} hurt: health {body.health}, shields {body.shields}."
        if kind == "match_finished":
            results = {s.result for s in body.outcome.seats}
            result = RESULT.get(results.pop(), "?") if len(results) == 1 else "ended"
            return f"Game over — the team {result}: {body.outcome.reason}."
        return None

    def _moved_line(self, body: pursuit_pb2.BeastMoved) -> str:
        name = self._beast_name(body.beast)
        if body.steps > 0:
            line = f"The {name} moved {_plural(body.steps, 'space')} toward the suitcase"
        else:
            line = f"The {name} moved {_plural(-body.steps, 'space')} away from the suitcase"
        beast = self.beasts.get(body.beast)
        if beast is None:
            return line + "."
        length = beast.to_escape + beast.to_suitcase
        if body.position >= length:
            return line + "."
        if body.position < 0:
            return line + " and got away."
        return line + f" ({_plural(length - body.position, 'space')} to go)."

    # ------------------------------------------------------------- actions

    def describe_action(self, action: Any, view: Any, names: dict[int, str]) -> str:
        """A label for one of the viewer's legal actions."""
        self._learn(view)
        kind = action.WhichOneof("kind")
        if kind is None:
            return "(an empty action)"
        body = getattr(action, kind)
        viewer = _viewer(view)
        mine = next((p for p in view.players if p.seat == viewer), None)
        hand = {c.id: c for c in mine.hand} if mine is not None else {}

        def card(card_id: int) -> str:
            known = hand.get(card_id)
            return f"{_card(known)} ({_card_effect(known)})" if known is not None else f"card #{card_id}"

        if kind == "reroll":
            return self._reroll_label(body, view)
        if kind == "stop_rolling":
            pool = [d for d in view.dice if d.face != pursuit_pb2.FACE_REACTION]
            return f"Stop rolling and assign these dice: {_dice_text(_sorted_dice(pool))}"
        if kind == "play_reroll":
            whose = "you" if view.active == viewer else names.get(view.active, f"Seat {view.active}")
            return f"Play Reroll #{body.card}: one more roll for {whose} this turn"
        if kind == "contribute":
            return f"Lend {names.get(view.active, f'Seat {view.active}')} your {card(body.card)}"
        if kind == "pass":
            return PASS_LABEL.get(view.phase, "Pass")
        if kind == "ready":
            return self._ready_label(body, view, mine)
        if kind == "set":
            return f"Set your {_action(body.action)} action with {_a(_face(body.face))} die"
        if kind == "activate":
            return self._activate_label(body, view, names)
        if kind == "play_die_card":
            return f"Add your {card(body.card)} to the dice you assign"
        if kind == "end_assign":
            return self._end_assign_label(view)
        if kind == "discard":
            return f"Discard {card(body.card)}"
        if kind == "play_muffliato":
            return f"Play Muffliato #{body.card}: the {view.track.beast.name} rolls two fewer black dice"
        if kind == "play_protego":
            return self._protego_label(body, view)
        return str(kind)

    @staticmethod
    def _reroll_label(reroll: pursuit_pb2.Reroll, view: View) -> str:
        """ "Keep capture, capture and the teal die (insight); roll the other 3"."""
        kept = [_face(f) for f in reroll.keep]
        words = _faces(kept)
        if reroll.keep_teal:
            teal = next((d for d in view.dice if d.color == pursuit_pb2.COLOR_TEAL), None)
            words.append(f"the teal die ({_face(teal.face)})" if teal is not None else "the teal die")
        rolled = len(view.dice) - len(kept) - reroll.keep_teal
        if not words:
            return f"Roll all {_plural(rolled, 'die')} again"
        return f"Keep {_listing(words)}; roll the other {_plural(rolled, 'die')}"

    @staticmethod
    def _ready_label(ready: pursuit_pb2.Ready, view: View, mine: pursuit_pb2.PlayerView | None) -> str:
        """ "Ready your Capture 3 action: 3 capture + distract (1 wild fills in)"."""
        name = _action(ready.action)
        if mine is None:
            return f"Ready your {name} action"
        pattern = next((list(p.faces) for p in mine.character.ready if p.action == ready.action), [])
        have = Counter(d.face for d in view.pool if _usable(view, d, mine.seat))
        need = Counter(pattern)
        # The engine fills a missing face with a wild die: say how many it takes.
        wilds = sum(max(0, n - have[f]) for f, n in need.items())
        fill = f" ({_plural(wilds, 'wild die')} fill{'s' * (wilds == 1)} in)" if wilds else ""
        return f"Ready your {name} action: {_pattern(pattern)}{fill}"

    @staticmethod
    def _activate_label(activate: pursuit_pb2.Activate, view: View, names: dict[int, str]) -> str:
        """ "Activate Protect on Bob's board with a wild die: +1 shield for Bob"."""
        viewer = _viewer(view)
        spent = _spent(view, ACTIVATED_BY.get(activate.action, "?"), activate.seat)
        die = "a die"
        if spent is not None:
            die = (
                f"the teal {_face(spent.face)} die"
                if spent.color == pursuit_pb2.COLOR_TEAL
                else _a(_die(spent)) + " die"
            )
        board = _possessive(activate.seat, viewer, names)
        effect = ACTIVATION_EFFECT.get(activate.action, "").format(who=_who(activate.seat, viewer, names, start=False))
        if (
            activate.action == pursuit_pb2.ACTION_NAME_DISTRACT
            and spent is not None
            and spent.color == pursuit_pb2.COLOR_TEAL
        ):
            effect = "the beast rolls without its teal die"
        return f"Activate {_action(activate.action)} on {board} board with {die}: {effect}"

    @staticmethod
    def _end_assign_label(view: View) -> str:
        """ "Stop assigning: 2 activated actions take effect (1 unused die is lost)"."""
        count = len(view.activations)
        unused = f" ({_plural(len(view.pool), 'unused die')} {'is' if len(view.pool) == 1 else 'are'} lost)"
        unused = unused if view.pool else ""
        if not count:
            return f"Stop assigning without activating anything{unused}"
        actions = _plural(count, "activated action")
        return f"Stop assigning: {actions} take{'s' * (count == 1)} effect{unused}"

    @staticmethod
    def _protego_label(protego: pursuit_pb2.PlayProtego, view: View) -> str:
        """ "Play Protego #11: ignore the Niffler's capture die (escapes 1)"."""
        beast = view.track.beast
        face = _face(protego.face)
        ignored = set(view.ignored)
        showing = sum(1 for i, d in enumerate(view.beast_dice) if d.face == protego.face and i not in ignored)
        which = f"one of the {beast.name}'s {showing} {face} dice" if showing > 1 else f"the {beast.name}'s {face} die"
        return f"Play Protego #{protego.card}: ignore {which} (it {_beast_die_effect(beast, protego.face)})"


def _spent(view: View, face: str, board: int) -> pursuit_pb2.PoolDie | None:
    """The die an activation on `board` spends, as the engine picks it.

    A die of the face before a wild one, rolled dice before dice cards' dice; which die
    it is matters for Distract: a teal die taken off the beast's pool is its teal die.
    """
    dice = sorted((d for d in view.pool if _usable(view, d, board)), key=lambda d: d.card != 0)
    exact = next((d for d in dice if _face(d.face) == face), None)
    return exact or next((d for d in dice if d.face == pursuit_pb2.FACE_WILD), None)


def _sorted_dice(dice: Iterable[pursuit_pb2.Die]) -> list[pursuit_pb2.Die]:
    """Black dice in board order, then the teal die."""
    order = {f: i for i, f in enumerate(FACE_ORDER)}
    return sorted(dice, key=lambda d: (d.color == pursuit_pb2.COLOR_TEAL, order.get(_face(d.face), 99)))
