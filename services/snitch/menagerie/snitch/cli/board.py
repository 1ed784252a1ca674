"""The Snitch board: SnitchUI, the menagerie CLI's game plugin — the service's stub, the how-to-play,
the menu (toggles first, the rest grouped) and the drawing: the header, the pitch, the race, the Coaches,
the Traits, the Spectators, the Snitch row, the viewer's cards, the roll and the results.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.cli.menu import Entry, Pick, action_kind, arrange, label_subject, picks
from menagerie.cli.results import result_word
from menagerie.rules.text import name_mentions
from menagerie.snitch.cli import lookups, words
from menagerie.snitch.cli.lookups import LOCKED, UNIQUE
from menagerie.snitch.cli.pitch import PitchGrid
from menagerie.snitch.cli.toggles import dice_toggles, token_toggles
from menagerie.snitch.cli.words import TEAM_STYLE, View
from menagerie.snitch.data.cards import DECK_SIZE  # the rulebook's number, from the data (not the engine)
from menagerie.snitch.v1 import snitch_pb2, snitch_pb2_grpc

SNITCH = "★"
ROLL_NAME: dict[str, str] = {"steal_reaction": "Steal Reaction", "bludger": "Bludger's hit"}


# ----------------------------------------------------------------- presentation


def _roll(roll: snitch_pb2.Roll) -> Text:
    """ "o:S o:- p:OO" with each die in its colour (a re-rolled die marked ′)."""
    return Text(" ").join(words.roll_die(die) for die in roll.dice)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else ""


# --------------------------------------------------------------------------- UI


def _group_of(action: Any) -> str | None:
    """Team building's picks by part ("Pick a player"); every other action by its kind."""
    if action.WhichOneof("kind") == "pick_for_team":
        return f"Pick a {action.pick_for_team.part}"
    return action_kind(action)


class SnitchUI:
    """Drawing menagerie.snitch.v1 views."""

    pb2: ModuleType = snitch_pb2

    def stub(self, channel: grpc.Channel) -> snitch_pb2_grpc.SnitchStub:
        """The Snitch service's stub on `channel`."""
        return snitch_pb2_grpc.SnitchStub(channel)

    def how_to_play(self) -> str:
        """The short how-to-play kept beside this package (howto.toml, shipped as package data)."""
        return str(tomllib.loads(Path(__file__).parent.with_name("howto.toml").read_text(encoding="utf-8"))["text"])

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The header: the Game Sequence, who attacks, the decision and who is to act."""
        return self._header(view, names)

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """Re-rolls of several dice and Dice tokens to spend as toggles; the rest as listed, a long list
        grouped: team building's picks by part (House, Player, …), else by kind."""
        toggles = dice_toggles(view, legal) + token_toggles(legal)
        marked = {index for t in toggles for index in t.combos.values()}
        rest = picks(legal, [i for i in range(len(legal.actions)) if i not in marked])

        def group(pick: Pick) -> str | None:
            return _group_of(legal.actions[pick.index])

        return [*toggles, *arrange(rest, [group, label_subject], max(1, room - len(toggles)))]

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Header, the pitch, the race, the Coaches, the Snitch row, the viewer's cards, the roll, the result."""
        return Group(*self.parts(view, names))

    def parts(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The drawing's parts, top to bottom (the pitch fits itself to the console's width)."""
        if lookups.building(view):
            return [self._header(view, names), *self._team_building(view, names)]
        parts: list[RenderableType] = [self._header(view, names), PitchGrid(view, names)]
        parts.append(self._race(view, names))
        parts.append(self._coaches(view, names))
        parts += self._traits(view, names)
        parts += self._stand(view, names)
        parts += self._snitch_row(view)
        parts += self._own_cards(view)
        parts += self._face_up(view, names)
        parts += self._exchange(view, names)
        if len(view.outcome.seats) > 0:
            parts.append(self._results(view, names))
        return parts

    # ------------------------------------------------------------- header

    def _header(self, view: View, names: dict[int, str]) -> Text:
        kind = view.prompt.kind
        text = Text("Catch the Golden Snitch", style="bold")
        if view.sequence:
            text.append(f" · Game Sequence {view.sequence}")
        if not lookups.building(view):
            attacking = words.who(view, names, view.attacking)
            text.append(" · ")
            text.append(
                f"{words.cap(attacking)} {'attack' if attacking == 'you' else 'attacks'}",
                style=TEAM_STYLE[view.attacking % 2],
            )
        if kind:
            text.append(f" · {view.prompt.title or words.title(kind)}", style="bold cyan")
        if view.HasField("block_seat"):
            block = ", ".join(words.title(a) for a in view.block_remaining) or "done"
            whose = words.who(view, names, view.block_seat)
            text.append(f"\nAction Block {view.block_index + 1} of {whose}: {block} left", style="dim")
        waiting = [*view.prompt.must, *(s for s in view.prompt.may if s not in view.prompt.must)]
        if waiting and kind != "finished":
            who = ", ".join(words.who(view, names, s) for s in sorted(waiting))
            text.append(f"\nTo act: {who}", style="cyan")
            if view.decision_detail:
                text.append(f" ({view.decision_detail})", style="cyan")
        return text

    # --------------------------------------------------------------- race

    def _race(self, view: View, names: dict[int, str]) -> Group:
        """The track, one 3-character cell per space: the numbers, then the Seekers and the Snitch, then the tokens."""
        the_race = view.race
        marks = words.marks(view)
        label = 7
        numbers = Text("Race".ljust(label), style="bold")
        pieces = Text("".ljust(label))
        tokens = Text("".ljust(label))
        for space in range(1, the_race.spaces + 1):
            numbers.append(f"{space:>3}", style="dim")
            cell = Text()
            for seat, at in enumerate(the_race.seekers):
                if at == space:
                    cell.append(marks[seat], style=TEAM_STYLE[seat % 2])
            if the_race.snitch == space:
                cell.append(SNITCH, style="bold yellow")
            pieces.append_text(Text(" " * (3 - len(cell))) + cell)
            token = next((t for t in the_race.tokens if t.space == space), None)
            tokens.append(f"{self._token(view, token):>3}" if token is not None else "   ")
        lines: list[RenderableType] = [numbers, pieces]
        if the_race.tokens:
            lines.append(tokens)
        facts = Text("".ljust(label))
        distances = [f"{words.who(view, names, s)} {the_race.snitch - at}" for s, at in enumerate(the_race.seekers)]
        facts.append(f"Spaces to the Snitch: {', '.join(distances)}")
        if the_race.HasField("ahead"):
            facts.append(f" · {words.cap(words.who(view, names, the_race.ahead))} ahead", style="bold")
        held = [
            f"{words.who(view, names, int(entry.split(':')[0]))} {kind} {entry.split(':')[1]}"
            for kind, entries in (("bonus", the_race.held_bonus), ("penalty", the_race.held_penalty))
            for entry in entries
        ]
        if held:
            facts.append(f"\n{''.ljust(label)}Seekers' Dice tokens: {', '.join(held)}")
        lines.append(facts)
        return Group(*lines)

    @staticmethod
    def _token(view: View, token: snitch_pb2.RaceTokenView) -> str:
        """ "^G" an Upwind flag of that Team, "+o" a Bonus Dice token (orange), "-p" a Penalty one."""
        if token.kind == "upwind":
            marks = words.marks(view)
            return "^" + (marks[token.owner] if token.HasField("owner") and token.owner < 2 else "?")
        colour = token.colour[:1] if token.HasField("colour") else "?"
        return ("+" if token.kind == "bonus" else "-") + colour

    # ------------------------------------------------------------ coaches

    def _coaches(self, view: View, names: dict[int, str]) -> Table:
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
        for header in ("Coach", "House", "Tempo", "Goals", "Hand", "Deck", "Pitch card", "Snitch"):
            table.add_column(header, no_wrap=header not in ("Coach", "House", "Pitch card"))
        marks = words.marks(view)
        for coach in view.coaches:
            who = Text(f"{marks[coach.seat % 2]} ", style=TEAM_STYLE[coach.seat % 2])
            who.append(f"{words.name(names, coach.seat)}{' (you)' if words.viewer(view) == coach.seat else ''}")
            house = coach.house.capitalize() + (f" ({coach.flag})" if coach.flag else "")
            goals = str(coach.goals + coach.celebrated)
            if coach.celebrated:
                goals += f" ({coach.goals} to flip)"
            pitch_card = self._pitch_card(view, coach)
            snitch = "in play" if coach.has_snitch_card else "–"
            tempo = f"{coach.tempo}/4"
            table.add_row(who, house, tempo, goals, str(coach.hand_size), str(coach.deck_size), pitch_card, snitch)
        return table

    @staticmethod
    def _pitch_card(view: View, coach: snitch_pb2.CoachView) -> str:
        if coach.HasField("pitch_card"):
            shown = lookups.card(view, coach.seat, coach.pitch_card)
            return shown.name if shown is not None else f"card {coach.pitch_card}"
        if words.viewer(view) == coach.seat and view.HasField("my_pitch_card"):
            shown = lookups.card(view, coach.seat, view.my_pitch_card)
            return f"{shown.name if shown is not None else view.my_pitch_card} (secret)"
        return "chosen" if coach.pitch_card_chosen else "–"

    # ---------------------------------------------------- Build Your Team

    def _team_building(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The viewer's Team under construction, then each Coach's progress (the rival's Team stays secret)."""
        parts: list[RenderableType] = []
        if view.HasField("draft"):
            parts += self._draft(view)
        progress = Text()
        for coach in view.coaches:
            who = words.cap(words.who(view, names, coach.seat))
            done = coach.team_confirmed
            verb = ("have" if who == "You" else "has") if done else ("are" if who == "You" else "is")
            progress.append(f"{who} {verb} {'formed the Team' if done else 'still building'}", style="dim")
            if coach.flag:
                progress.append(f", {coach.flag} Flag", style="dim")
            progress.append("\n")
        progress.rstrip()
        parts.append(progress)
        return parts

    def _draft(self, view: View) -> list[RenderableType]:
        draft = view.draft
        left = draft.galleons_left  # the engine's (l.693): the CLI adds up nothing
        head = Text("Your Team: ", style="bold")
        head.append(draft.house.capitalize() if draft.HasField("house") else "no House yet", style="bold")
        head.append(f" · Funding {draft.funding}: {draft.cost} spent, {left} left")
        if view.spectators_on:
            head.append(" · Spectators on")
        players = Table(
            title=f"Players ({len(draft.players)} of 7)",
            title_justify="left",
            title_style="bold",
            box=box.SIMPLE_HEAD,
            padding=(0, 1),
            show_edge=False,
        )
        players.add_column("Position", no_wrap=True)
        players.add_column("Player")
        players.add_column("Cost", justify="right", no_wrap=True)
        players.add_column("Trait", ratio=1)
        for card in sorted(draft.players, key=lambda c: lookups.position_rank(c.position)):
            players.add_row(words.title(card.position), card.name, f"{card.cost} G", card.trait or "–")
        deck_cost = sum(c.cost for c in draft.tactics)
        deck = Text(f"Tactical deck: {len(draft.tactics)} of {DECK_SIZE} cards, {deck_cost} G", style="bold")
        bought = sorted((c for c in draft.tactics if c.cost), key=lambda c: c.id)
        if bought:
            deck.append(" · " + ", ".join(f"{c.name} ({c.cost} G)" for c in bought), style="dim")
        if len(draft.tactics) > len(bought):
            deck.append(f" · {len(draft.tactics) - len(bought)} free", style="dim")
        parts: list[RenderableType] = [head]
        if draft.players:
            parts.append(players)
        else:
            parts.append(Text("Players: none yet (7: a Keeper, 2 Beaters, 3 Chasers, a Seeker)", style="bold"))
        parts.append(deck)
        if view.spectators_on:
            table = _listing("Spectators (the Fervent Fan comes free)")
            for spectator in draft.spectators:
                table.add_row(f"{spectator.cost} G", _spectator_text(spectator))
            if not draft.spectators:
                table.add_row("", Text("none bought yet", style="dim"))
            parts.append(table)
        if draft.ready:
            parts.append(Text("Confirmed: the Team is formed.", style="bold green"))
        elif draft.missing:
            parts.append(Text(f"Still missing: {draft.missing}", style="yellow"))
        else:
            parts.append(Text("Complete: confirm it when you are ready.", style="green"))
        return parts

    # ---------------------------------------------------- Traits, Spectators

    def _traits(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The unique Players' Traits, by Team, and which Locked tokens are on."""
        table = _listing(f"Traits ({UNIQUE} a Trait, {LOCKED} its Locked token is on)")
        marks = words.marks(view)
        for coach in view.coaches:
            codes = lookups.card_codes(coach)
            for index, card in enumerate(coach.cards):
                if not card.trait:
                    continue
                text = Text(f"{card.name}: ", style="bold")
                text.append(card.trait)
                if index in coach.locked:
                    text.append(f" {LOCKED} Locked", style="bold red")
                label = Text(f"{marks[coach.seat % 2]} ", style=TEAM_STYLE[coach.seat % 2])
                label.append(codes[index])
                table.add_row(label, text)
        return [table] if table.row_count else []

    def _stand(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """The Spectator Stand's two Zones and whose Spectator is where; each Coach's Spectator cards."""
        if not view.spectators_on:
            return []
        marks = words.marks(view)
        stand = _listing("Spectator Stand", justify="left")
        for spot in view.stand:
            text = Text()
            if spot.HasField("seat") and spot.HasField("card"):
                text.append(f"{marks[spot.seat % 2]} ", style=TEAM_STYLE[spot.seat % 2])
                card = lookups.spectator(view, spot.seat, spot.card)
                text.append(card.name if card is not None else spot.card)
            else:
                text.append("empty", style="dim")
            stand.add_row(f"{words.title(spot.zone)} Zone", text)
        cards = _listing("Spectators (played ones return after a Hand Swap)")
        for coach in view.coaches:
            played = list(coach.spectators_played)
            for card in coach.spectators:
                label = Text(f"{marks[coach.seat % 2]}", style=TEAM_STYLE[coach.seat % 2])
                text = _spectator_text(card)
                if card.id in played:
                    played.remove(card.id)
                    text.append(" (played)", style="dim")
                cards.add_row(label, text)
        return [stand, cards] if cards.row_count else [stand]

    # -------------------------------------------------------------- cards

    def _snitch_row(self, view: View) -> list[RenderableType]:
        if not view.race.row:
            return []
        title = f"Snitch row (deck {view.race.deck_size}, discard {len(view.race.discard)})"
        return [_snitch_cards(title, list(view.race.row))]

    def _own_cards(self, view: View) -> list[RenderableType]:
        parts: list[RenderableType] = []
        if view.HasField("my_snitch_card"):
            parts.append(_snitch_cards("Your Snitch card in play (secret)", [view.my_snitch_card]))
        if view.hand:
            table = _listing("Your hand")
            for card in view.hand:
                text = Text(card.name, style="bold")
                text.append(f": {' | '.join(card.blocks)}")
                if card.intrepid:
                    text.append(f" — {card.intrepid}", style="yellow" if card.swift else "dim")
                table.add_row(str(card.id), text)
            parts.append(table)
        return parts

    def _face_up(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        """This Game Sequence's Intrepid Moves, face up, in the order played by each Coach."""
        table = _listing("Intrepid Moves this Game Sequence")
        for coach in view.coaches:
            for card_id in coach.intrepids:
                shown = lookups.card(view, coach.seat, card_id)
                text = Text(f"{words.cap(words.who(view, names, coach.seat))}: ", style=TEAM_STYLE[coach.seat % 2])
                text.append(f"{shown.name} — {shown.intrepid}" if shown is not None else f"card {card_id}")
                table.add_row(str(card_id), text)
        return [table] if table.row_count else []

    # --------------------------------------------------------------- roll

    def _exchange(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        if not view.HasField("exchange"):
            return []
        ex = view.exchange
        marks = words.marks(view)
        kind = ROLL_NAME.get(ex.kind, words.title(ex.kind))
        text = Text("Roll: ", style="bold")
        text.append(f"{kind} of {words.who(view, names, ex.seat)}")
        if ex.HasField("actor"):
            actor = lookups.player(view, ex.seat, ex.actor)
            if actor is not None:
                text.append(f" ({marks[ex.seat % 2]} {actor.code})")
        if ex.HasField("target_team") and ex.HasField("target"):
            target = lookups.player(view, ex.target_team, ex.target)
            if target is not None:
                text.append(f" at {marks[ex.target_team % 2]} {target.code}")
        text.append("\n  Action: ")
        if ex.HasField("fixed"):
            text.append(f"{ex.fixed} fixed")
        elif ex.HasField("action_roll"):
            text.append_text(_roll(ex.action_roll))
        else:
            text.append("not rolled yet", style="dim")
        if ex.action_modifier:
            text.append(f" {_signed(ex.action_modifier)}")
        if ex.aim_bonus:
            text.append(f" (Aim {_signed(ex.aim_bonus)})", style="dim")
        if ex.HasField("reaction"):
            text.append(f"\n  {ROLL_NAME.get(ex.reaction, words.title(ex.reaction))}")
            if ex.HasField("reactor"):
                team = 1 - ex.seat if not ex.HasField("target_team") else ex.target_team
                reactor = lookups.player(view, team, ex.reactor)
                if reactor is not None:
                    text.append(f" ({marks[team % 2]} {reactor.code})")
            text.append(": ")
            if ex.HasField("reaction_roll"):
                text.append_text(_roll(ex.reaction_roll))
            else:
                text.append("not rolled yet", style="dim")
            if ex.reaction_modifier:
                text.append(f" {_signed(ex.reaction_modifier)}")
        return [text]

    # ------------------------------------------------------------ results

    @staticmethod
    def _results(view: View, names: dict[int, str]) -> Table:
        table = Table(title="Results", box=box.SIMPLE, title_justify="left")
        for header in ("#", "Coach", "result", "Goals"):
            table.add_column(header)
        for seat in sorted(view.outcome.seats, key=lambda s: s.rank):
            table.add_row(str(seat.rank), words.name(names, seat.seat), result_word(seat.result), f"{seat.score:g}")
        if view.outcome.reason:
            table.caption = name_mentions(view.outcome.reason, names)
            table.caption_justify = "left"
        return table


# ------------------------------------------------------------------- helpers


def _spectator_text(card: snitch_pb2.SpectatorCardView) -> Text:
    """A Spectator card in the engine's words: its Zones, its effect in an empty Zone and on a rival's."""
    text = Text(card.name, style="bold")
    zones = " or ".join(words.title(z) for z in card.zones)
    text.append(f" ({zones}): {card.first} · displacing a rival: {card.second}")
    return text


def _listing(title: str, justify: JustifyMethod = "right") -> Table:
    """A titled list: a number (or a short label), then a paragraph that wraps under itself."""
    table = Table.grid(padding=(0, 1))
    table.title = title
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column(justify=justify, no_wrap=True)
    table.add_column()
    return table


def _snitch_cards(title: str, cards: list[snitch_pb2.SnitchCardView]) -> Table:
    """Snitch cards: Type, and the three Impulses (the Fast one with its Types), in the engine's words."""
    table = _listing(title)
    for card in cards:
        text = Text(card.name, style="bold")
        if card.kind != "snitch":
            text.append(f": {card.text}", style="italic")
        else:
            text.append(f" ({card.type})", style="dim")
            text.append(f" — Rushed: {card.rushed} · Fast")
            if card.fast_types:
                text.append(f" ({'/'.join(card.fast_types)})", style="dim")
            text.append(f": {card.fast} · Perfect: {card.perfect}")
        table.add_row(str(card.id), text)
    return table
