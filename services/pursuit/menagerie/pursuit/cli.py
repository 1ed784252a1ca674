"""Beast Pursuit, the cooperative dice game, in the terminal: the chase, the boards, the dice and the cards.

Every sentence (events, the prompt, action labels) comes from the engine through the
service; this module only draws what the menagerie.pursuit.v1 View holds. It never
imports the engine.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.cli.menu import Entry, Toggles, default_menu, picks
from menagerie.cli.results import result_word
from menagerie.pursuit.v1 import pursuit_pb2, pursuit_pb2_grpc
from menagerie.rules.text import name_mentions, seat_name

View = pursuit_pb2.View
TEAL_STYLE = "bold cyan"
BLACK_STYLE = "bold"
# The prompt kinds during which the rolled dice, then the dice to assign, are on the table.
ROLLING = "roll"
ASSIGNING = "assign"


def _face(face: pursuit_pb2.Face.ValueType) -> str:
    """ "capture" (the enum's own name)."""
    return pursuit_pb2.Face.Name(face).removeprefix("FACE_").lower() if face else "?"


def _plural(count: int, noun: str) -> str:
    """ "1 die", "2 black dice", "3 spaces"."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun.removesuffix('die') + 'dice' if noun.endswith('die') else noun + 's'}"


def _pattern(faces: Iterable[pursuit_pb2.Face.ValueType]) -> str:
    """ "3 capture + distract": a Ready pattern, counted, in face order."""
    counts = Counter(faces)
    return " + ".join(f"{counts[f]} {_face(f)}" if counts[f] > 1 else _face(f) for f in sorted(counts))


def _die(die: pursuit_pb2.Die | pursuit_pb2.PoolDie) -> Text:
    """ "capture" in bold, "teal capture" in cyan."""
    teal = die.color == pursuit_pb2.COLOR_TEAL
    return Text(f"{'teal ' if teal else ''}{_face(die.face)}", style=TEAL_STYLE if teal else BLACK_STYLE)


def _name(names: dict[int, str], seat: int) -> str:
    return seat_name(seat, names.get(seat, ""))


def _is_viewer(view: View, seat: int) -> bool:
    return view.HasField("viewer") and view.viewer == seat


def _who(view: View, names: dict[int, str], seat: int) -> str:
    """ "you" for the viewer, else the seat's name."""
    return "you" if _is_viewer(view, seat) else _name(names, seat)


def _decisions(view: View) -> list[str]:
    """The kinds of the pending decisions, the top one last."""
    return [*view.prompt.stack, view.prompt.kind]


def zip_kept(view: View) -> list[tuple[pursuit_pb2.Die, bool]]:
    """Each rolled die with whether it is kept (not kept when the view says nothing)."""
    kept = list(view.kept)
    return [(die, index < len(kept) and kept[index]) for index, die in enumerate(view.dice)]


class PursuitUI:
    """Drawing menagerie.pursuit.v1 views."""

    pb2: ModuleType = pursuit_pb2

    def stub(self, channel: grpc.Channel) -> pursuit_pb2_grpc.PursuitStub:
        """The Pursuit service's stub on `channel`."""
        return pursuit_pb2_grpc.PursuitStub(channel)

    def how_to_play(self) -> str:
        """The short how-to-play kept beside this module (howto.toml, shipped as package data)."""
        return str(tomllib.loads(Path(__file__).with_name("howto.toml").read_text(encoding="utf-8"))["text"])

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The header, the chase in one line, and the dice on the table."""
        track, beast = view.track, view.track.beast
        chase = Text(f"The {beast.name} (L{beast.level}) at {track.position + 1}/{track.length}", style="magenta")
        chase.append(f" · captured {len(view.captured)}/{view.beasts_to_win} · escaped {len(view.escaped)}")
        mine = next((p for p in view.players if _is_viewer(view, p.seat)), None)
        if mine is not None:
            chase.append(f" · your health {mine.health}, {_plural(mine.hand_size, 'card')}")
        return Group(self._header(view, names), chase, *self._dice(view, names))

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """The keep-dice choice as per-die toggles; the other actions as the engine lists them.

        Every set of marked dice is matched against the server's Reroll actions (the same
        kept faces, the teal die or not): only a set matching one of them may be confirmed,
        and that action is the one submitted.
        """
        rerolls = [i for i, action in enumerate(legal.actions) if action.WhichOneof("kind") == "reroll"]
        dice = list(view.dice)
        if len(rerolls) < 2 or not dice:
            return default_menu(legal, room)
        combos: dict[frozenset[int], int] = {}
        for mask in range(1 << len(dice)):
            marked = frozenset(i for i in range(len(dice)) if mask >> i & 1)
            black = sorted(dice[i].face for i in marked if dice[i].color != pursuit_pb2.COLOR_TEAL)
            teal = any(dice[i].color == pursuit_pb2.COLOR_TEAL for i in marked)
            for index in rerolls:
                reroll = legal.actions[index].reroll
                if sorted(reroll.keep) == black and reroll.keep_teal == teal:
                    combos[marked] = index
                    break
        items = tuple(_die(die).plain + (" (kept)" if kept else "") for die, kept in zip_kept(view))
        already = frozenset(i for i, kept in enumerate(view.kept) if kept and i < len(dice))
        labels = {index: legal.labels[index].text for index in rerolls}
        toggles = Toggles("Keep dice and roll the others again", items, combos, labels, code="k", marked=already)
        in_toggles = set(rerolls)
        others = [i for i in range(len(legal.actions)) if i not in in_toggles]
        return [toggles, *picks(legal, others)]

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Header, the chase, the boards, the dice, the cards, the beast's roll, the result."""
        parts: list[RenderableType] = [self._header(view, names), self._chase(view), self._boards(view, names)]
        parts += self._dice(view, names)
        parts.append(self._cards(view, names))
        parts += self._beast_roll(view)
        if len(view.outcome.seats) > 0:
            parts.append(self._result(view, names))
        return Group(*parts)

    @staticmethod
    def _header(view: View, names: dict[int, str]) -> Text:
        difficulty = pursuit_pb2.Difficulty.Name(view.difficulty).removeprefix("DIFFICULTY_").lower()
        text = Text(f"Beast Pursuit ({difficulty}) · turn {view.turn} · ", style="bold")
        active = _who(view, names, view.active)
        verb = "are" if _is_viewer(view, view.active) else "is"
        text.append(f"{active[:1].upper()}{active[1:]} {verb} the active player")
        waiting = [*view.prompt.must, *(s for s in view.prompt.may if s not in view.prompt.must)]
        if waiting:
            text.append(f"\nTo act: {', '.join(_who(view, names, s) for s in sorted(waiting))}", style="cyan")
        return text

    @staticmethod
    def _chase(view: View) -> Group:
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
        card = Text(track.card_text, style="dim")
        coming = ", ".join(f"{b.name} (L{b.level})" for b in view.beasts_to_come) or "none"
        score = Text(f"Beasts to come: {coming}\n")
        score.append(f"Captured {len(view.captured)} of {view.beasts_to_win} needed", style="bold green")
        captured = ", ".join(view.beast_names.get(b, b) for b in view.captured)
        score.append(f": {captured}" if captured else "")
        score.append(" · ")
        allowed = f"{view.escapes_allowed} allowed" if view.escapes_allowed else "none may escape"
        score.append(f"escaped {len(view.escaped)} ({allowed})", style="bold red")
        escaped = ", ".join(view.beast_names.get(b, b) for b in view.escaped)
        score.append(f": {escaped}" if escaped else "")
        return Group(title, line, card, score)

    def _boards(self, view: View, names: dict[int, str]) -> Table:
        """One column per player board: each action's Ready pattern and die, Ready/Set, this turn's activations."""
        table = Table(title="Player boards", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
        table.add_column("", style="bold", no_wrap=True)
        for player in view.players:
            marker = "▶ " if player.seat == view.active else ""
            you = " (you)" if _is_viewer(view, player.seat) else ""
            table.add_column(f"{marker}{_name(names, player.seat)}{you}")
        rows: list[list[RenderableType]] = [["character"], ["health"], ["shields"], ["insight cards"]]
        for player in view.players:
            rows[0].append(player.character.name)
            health = Text(str(player.health), style="bold red" if player.health <= 3 else "")
            if player.health == 0:
                health.append(" (stunned)", style="bold red")
            rows[1].append(health)
            rows[2].append(str(player.shields))
            rows[3].append(str(player.hand_size))
        actions = [p.action for p in view.players[0].character.ready] if view.players else []
        for action in actions:
            pattern = next(p for p in view.players[0].character.ready if p.action == action)
            row: list[RenderableType] = [pattern.name]
            for player in view.players:
                row.append(self._action_cell(view, player, action))
            rows.append(row)
        for row in rows:
            table.add_row(*row)
        return table

    @staticmethod
    def _action_cell(view: View, player: pursuit_pb2.PlayerView, action: int) -> Text:
        """ "Ready: 2 capture", "Activate: capture", then "Ready ✓ Set ✓" / "⚡ activated"."""
        pattern = next((p for p in player.character.ready if p.action == action), None)
        cell = Text()
        if pattern is not None:
            cell.append(f"Ready: {_pattern(pattern.faces)}\nActivate: {_face(pattern.activated_by)}\n", style="dim")
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

    @staticmethod
    def _dice(view: View, names: dict[int, str]) -> list[RenderableType]:
        """The rolled dice (kept ones marked) while rolling; the dice left to assign after."""
        decisions = _decisions(view)
        if ROLLING in decisions and view.dice:
            text = Text(f"Dice (roll {view.rolls} of {view.roll_limit}; ✓ = kept): ", style="bold")
            for die, kept in zip(view.dice, view.kept, strict=False):
                text.append_text(_die(die))
                text.append("✓  " if kept else "  ", style="green")
            return [text]
        if ASSIGNING in decisions:
            text = Text("Dice to assign: ", style="bold")
            if not view.pool:
                text.append("none left", style="dim")
            for index, pool_die in enumerate(view.pool):
                text.append_text(_die(pool_die))
                if pool_die.card:
                    board = view.card_boards.get(pool_die.card)
                    on = f", {_who(view, names, board)} only" if board is not None else ""
                    text.append(f" (card #{pool_die.card}{on})", style="dim")
                text.append(", " if index < len(view.pool) - 1 else "")
            return [text]
        return []

    @staticmethod
    def _cards(view: View, names: dict[int, str]) -> Text:
        """The viewer's insight cards, the others' hand sizes, the deck and discard pile."""
        book = {info.kind: info for info in view.card_book}
        text = Text()
        mine = next((p for p in view.players if _is_viewer(view, p.seat)), None)
        if mine is not None:
            held = []
            for card in mine.hand:
                info = book.get(card.kind)
                if card.kind == pursuit_pb2.CARD_KIND_DIE:
                    count = f" ×{card.dice}" if card.dice > 1 else ""
                    held.append(f"#{card.id} {_face(card.face)}{count} {info.name.lower() if info else 'dice card'}")
                elif info is not None:
                    held.append(f"#{card.id} {info.name} ({info.text})")
            text.append(f"Your insight cards (at most {view.hand_limit}): ", style="bold")
            text.append("; ".join(held) or "none")
            text.append("\n")
        others = [p for p in view.players if p is not mine]
        if others:
            held_by = ", ".join(f"{_name(names, p.seat)} {_plural(p.hand_size, 'card')}" for p in others)
            text.append(f"{'Others hold' if mine is not None else 'Hands'}: {held_by}\n")
        text.append(f"Deck {_plural(view.deck_size, 'card')} · discard pile {_plural(len(view.discard), 'card')}")
        return text

    @staticmethod
    def _beast_roll(view: View) -> list[RenderableType]:
        """The dice the beast will roll when Distract and Muffliato took some; its roll, ignored dice struck."""
        beast = view.track.beast
        parts: list[RenderableType] = []
        fewer = (view.beast_black_dice, view.beast_teal_die) != (beast.black_dice, beast.teal)
        if not view.beast_dice and fewer and len(view.outcome.seats) == 0:
            with_teal = " and the teal die" if view.beast_teal_die else ", without the teal die"
            black = _plural(view.beast_black_dice, "black die")
            parts.append(Text(f"The {beast.name} will roll {black}{with_teal}.", style="dim"))
        if not view.beast_dice:
            return parts
        table = Table(title=f"The {beast.name} rolled", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
        for header in ("die", "face", "effect", ""):
            table.add_column(header)
        ignored = set(view.ignored)
        for index, die in enumerate(view.beast_dice):
            teal = die.color == pursuit_pb2.COLOR_TEAL
            colour = Text("teal" if teal else "black", style=TEAL_STYLE if teal else BLACK_STYLE)
            effect = view.beast_die_effects[index] if index < len(view.beast_die_effects) else ""
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
        result = result_word(results.pop()) if len(results) == 1 else "ended"
        text = Text(f"The team {result}: ", style="bold green" if result == "won" else "bold red")
        text.append(name_mentions(view.outcome.reason, names))
        stunned = [_name(names, p.seat) for p in view.players if p.health == 0]
        if stunned:
            # The engine's reason names seats by number; the players know each other by name.
            text.append(f" — {', '.join(stunned)} {'was' if len(stunned) == 1 else 'were'} stunned")
        return text
