"""Catch the Golden Snitch in the terminal: the pitch, the Snitch race, the Coaches, the cards and the roll.

Everything comes from menagerie.snitch.v1 views. Every sentence — events, the prompt, the
labels of the legal actions, the words of each card (its Action Blocks, its Intrepid Move,
each Impulse of a Snitch card) and the extra words on the pending decision — comes from
the engine through the service; this module only lays out names, numbers and marks. It
never words a rule and never imports the engine.

The pitch is drawn as the view's Zones at their row and column (rows 0–2, columns 0–6),
each Zone with the Players in it (Team, Position code, Stunned tokens, the Quaffle; ✷ a
Player with a Trait, ⊘ its Locked token), the Bludgers and a Loose Quaffle. Below it: the
Snitch race track, the Coaches (with their Flag colour), the Traits of the Teams' unique
Players, the Spectator Stand and each Coach's Spectator cards, the face-up row of Snitch
cards, the viewer's hand and Snitch card in play, and the roll under way.

While the Teams are built (mode "advanced", Build Your Team) the screen is the viewer's
own Team under construction instead: House, Funding spent and left, the Players picked
(Position, cost, Trait), the Tactical deck's size and cost, the Spectators, and what the
engine says is still missing; the rival's progress shows only as built or not. The legal
picks are listed by the session with the engine's labels, as every decision's are.
"""

from __future__ import annotations

import itertools
import tomllib
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.cli.menu import Entry, Pick, Toggles, action_kind, arrange, label_subject, picks
from menagerie.cli.results import result_word
from menagerie.rules.text import name_mentions, seat_name
from menagerie.snitch.data.cards import DECK_SIZE  # the rulebook's number, from the data (not the engine)
from menagerie.snitch.v1 import snitch_pb2, snitch_pb2_grpc

View = snitch_pb2.View
TEAM_STYLE = ("bold red", "bold green")  # seat 0, seat 1
SNITCH = "★"
QUAFFLE = "◉"  # the holder's mark, and a Loose Quaffle
BLUDGER = "●"
BUILDING = ("team_building", "flag_choice")  # the decisions before the Teams are on the table
UNIQUE = "✷"  # a Player with a Trait (the unique Players' mark)
LOCKED = "⊘"  # its Locked token is on its card
SEEKER = 6  # the Seeker's card follows the six Pitch Players' in a Coach's `cards`
POSITION_ORDER = ("keeper", "beater", "chaser", "seeker")
FACE: dict[int, str] = {
    snitch_pb2.SYMBOL_SUCCESS: "S",
    snitch_pb2.SYMBOL_DOUBLE_SUCCESS: "SS",
    snitch_pb2.SYMBOL_OPPORTUNITY: "O",
    snitch_pb2.SYMBOL_DOUBLE_OPPORTUNITY: "OO",
    snitch_pb2.SYMBOL_BLANK: "-",
}
COLOUR: dict[int, str] = {snitch_pb2.COLOUR_ORANGE: "o", snitch_pb2.COLOUR_PURPLE: "p", snitch_pb2.COLOUR_BLACK: "b"}
COLOUR_STYLE: dict[int, str] = {
    snitch_pb2.COLOUR_ORANGE: "dark_orange",
    snitch_pb2.COLOUR_PURPLE: "magenta",
    snitch_pb2.COLOUR_BLACK: "bold",
}
ROLL_NAME: dict[str, str] = {"steal_reaction": "Steal Reaction", "bludger": "Bludger's hit"}
# Shorter and shorter forms of the Zones' names, for narrower columns (each step applies after the last).
SHORTER: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        ("West ", "W "),
        ("East ", "E "),
        (" Deployment Zone", " Deployment"),
        (" Scoring Area", " Scoring"),
        (" Wing", ""),
    ),
    ((" Deployment", " Deploy"),),
)


# ----------------------------------------------------------------- presentation


def _name(names: dict[int, str], seat: int) -> str:
    return seat_name(seat, names.get(seat, ""))


def _viewer(view: View) -> int | None:
    return view.viewer if view.HasField("viewer") else None


def _who(view: View, names: dict[int, str], seat: int) -> str:
    """ "you" for the viewer, else the seat's name."""
    return "you" if _viewer(view) == seat else _name(names, seat)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(word: str) -> str:
    return word.replace("_", " ").capitalize()


def _marks(view: View) -> tuple[str, str]:
    """A one-letter mark per Team: its House's initial (the seat number if both share one)."""
    houses = [c.house for c in view.coaches] if len(view.coaches) == 2 else ["", ""]
    initials = [h[:1].upper() for h in houses]
    if not all(initials) or initials[0] == initials[1]:
        return ("1", "2")
    return (initials[0], initials[1])


def _fitted(name: str, room: int) -> str:
    """A Zone's name, shortened as far as a column of `room` characters needs ("West Deployment Zone" → "W Deploy")."""
    for words in SHORTER:
        if len(name) <= room:
            return name
        for long, short in words:
            name = name.replace(long, short)
    return name


def _roll_die(die: snitch_pb2.RolledDie) -> Text:
    """ "o:S" in the die's colour (a re-rolled die marked ′)."""
    mark = "′" if len(die.rerolled_by) else ""
    return Text(
        f"{COLOUR.get(die.colour, '?')}:{FACE.get(die.face, '?')}{mark}", style=COLOUR_STYLE.get(die.colour, "")
    )


def _roll(roll: snitch_pb2.Roll) -> Text:
    """ "o:S o:- p:OO" with each die in its colour (a re-rolled die marked ′)."""
    return Text(" ").join(_roll_die(die) for die in roll.dice)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else ""


# --------------------------------------------------------------------------- UI


def _group_of(action: Any) -> str | None:
    """Team building's picks by part ("Pick a player"); every other action by its kind."""
    if action.WhichOneof("kind") == "pick_for_team":
        return f"Pick a {action.pick_for_team.part}"
    return action_kind(action)


# Re-rolls of a set of dice: the action's kind and the toggles' title. A Reroll names its side; a
# Locked Trait re-rolls the side the view's decision names (roll_side).
DICE_CHOICES = (("reroll", "Re-roll dice"), ("use_trait", "Re-roll dice with the Locked Trait"))
SIDE_WORD: dict[int, str] = {snitch_pb2.ROLL_SIDE_ACTION: "Action", snitch_pb2.ROLL_SIDE_REACTION: "Reaction"}


def _roll_dice(view: View) -> list[tuple[int, int, snitch_pb2.RolledDie]]:
    """Every die of the roll under way: (side, index, die), the Action's first."""
    if not view.HasField("exchange"):
        return []
    ex = view.exchange
    sides: tuple[tuple[int, snitch_pb2.Roll], ...] = (
        (snitch_pb2.ROLL_SIDE_ACTION, ex.action_roll),
        (snitch_pb2.ROLL_SIDE_REACTION, ex.reaction_roll),
    )
    return [(side, i, die) for side, roll in sides for i, die in enumerate(roll.dice)]


def _dice_toggles(view: View, legal: Any) -> list[Toggles]:
    """Each kind of re-roll with several ways as toggles over the roll's dice (Pursuit's keep-dice likewise).

    Only a set of marked dice that one listed action names (its side and dice) may be
    confirmed, and that action is the one submitted.
    """
    dice = _roll_dice(view)
    place = {(side, i): n for n, (side, i, _) in enumerate(dice)}
    items = tuple(f"{SIDE_WORD[side]} die {i + 1}: {_roll_die(die).plain}" for side, i, die in dice)
    toggles = []
    for kind, title in DICE_CHOICES:
        combos: dict[frozenset[int], int] = {}
        for index, action in enumerate(legal.actions):
            member = getattr(action, kind) if action.WhichOneof("kind") == kind else None
            side = member.side if kind == "reroll" and member else view.decision.roll_side
            if member and member.dice and all((side, d) in place for d in member.dice):
                combos[frozenset(place[side, d] for d in member.dice)] = index
        if len(combos) >= 2:
            labels = {index: legal.labels[index].text for index in combos.values()}
            toggles.append(Toggles(f"{title} ({len(combos)} ways)", items, combos, labels))
    return toggles


# Dice tokens as toggles when the spends take at most this many (2 ** n marked sets are matched).
MOST_TOKEN_TOGGLES = 10


def _colour_word(colour: snitch_pb2.Colour.ValueType) -> str:
    """A Colour in a word ("orange")."""
    return snitch_pb2.Colour.Name(colour).removeprefix("COLOUR_").lower()


def _spent(spend: snitch_pb2.SpendTokens) -> Counter[str]:
    """The tokens a spend takes, by kind and colour ("Bonus orange" twice...)."""
    return Counter(
        [f"Bonus {_colour_word(c)}" for c in spend.bonus] + [f"Penalty {_colour_word(c)}" for c in spend.penalty]
    )


def _token_toggles(legal: Any) -> list[Toggles]:
    """Dice tokens to spend with several ways as toggles over the tokens the spends take (the web's tray likewise).

    The items are the tokens the largest spends name (of each kind and colour, as many as
    any spend takes); tokens of one kind and colour are alike, so every set of marked items
    that counts the same as a listed spend confirms that spend, and marking none confirms
    spending none. Who holds which token is never worked out: only the list is read.
    """
    spends = {
        index: _spent(action.spend_tokens)
        for index, action in enumerate(legal.actions)
        if action.WhichOneof("kind") == "spend_tokens"
    }
    if len(spends) < 2:
        return []
    most: Counter[str] = Counter()
    for tokens in spends.values():
        most |= tokens  # the larger count of each
    items = tuple(token for token, count in sorted(most.items()) for _ in range(count))
    if len(items) > MOST_TOKEN_TOGGLES:
        return []
    by_tokens = {frozenset(tokens.items()): index for index, tokens in spends.items()}
    combos: dict[frozenset[int], int] = {}
    for size in range(len(items) + 1):
        for marked in itertools.combinations(range(len(items)), size):
            index = by_tokens.get(frozenset(Counter(items[m] for m in marked).items()))
            if index is not None:
                combos[frozenset(marked)] = index
    labels = {index: legal.labels[index].text for index in spends}
    named = tuple(f"{token} token" for token in items)
    return [Toggles(f"Spend Dice tokens ({len(spends)} ways)", named, combos, labels)]


class SnitchUI:
    """Drawing menagerie.snitch.v1 views."""

    pb2: ModuleType = snitch_pb2

    def stub(self, channel: grpc.Channel) -> snitch_pb2_grpc.SnitchStub:
        """The Snitch service's stub on `channel`."""
        return snitch_pb2_grpc.SnitchStub(channel)

    def how_to_play(self) -> str:
        """The short how-to-play kept beside this module (howto.toml, shipped as package data)."""
        return str(tomllib.loads(Path(__file__).with_name("howto.toml").read_text(encoding="utf-8"))["text"])

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The header: the Game Sequence, who attacks, the decision and who is to act."""
        return self._header(view, names)

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """Re-rolls of several dice and Dice tokens to spend as toggles; the rest as listed, a long list
        grouped: team building's picks by part (House, Player, …), else by kind."""
        toggles = _dice_toggles(view, legal) + _token_toggles(legal)
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
        if _building(view):
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
        if not _building(view):
            attacking = _who(view, names, view.attacking)
            text.append(" · ")
            text.append(
                f"{_cap(attacking)} {'attack' if attacking == 'you' else 'attacks'}",
                style=TEAM_STYLE[view.attacking % 2],
            )
        if kind:
            text.append(f" · {view.prompt.title or _title(kind)}", style="bold cyan")
        if view.HasField("block_seat"):
            block = ", ".join(_title(a) for a in view.block_remaining) or "done"
            whose = _who(view, names, view.block_seat)
            text.append(f"\nAction Block {view.block_index + 1} of {whose}: {block} left", style="dim")
        waiting = [*view.prompt.must, *(s for s in view.prompt.may if s not in view.prompt.must)]
        if waiting and kind != "finished":
            who = ", ".join(_who(view, names, s) for s in sorted(waiting))
            text.append(f"\nTo act: {who}", style="cyan")
            if view.decision_detail:
                text.append(f" ({view.decision_detail})", style="cyan")
        return text

    # --------------------------------------------------------------- race

    def _race(self, view: View, names: dict[int, str]) -> Group:
        """The track, one 3-character cell per space: the numbers, then the Seekers and the Snitch, then the tokens."""
        the_race = view.race
        marks = _marks(view)
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
        distances = [f"{_who(view, names, s)} {the_race.snitch - at}" for s, at in enumerate(the_race.seekers)]
        facts.append(f"Spaces to the Snitch: {', '.join(distances)}")
        if the_race.HasField("ahead"):
            facts.append(f" · {_cap(_who(view, names, the_race.ahead))} ahead", style="bold")
        held = [
            f"{_who(view, names, int(entry.split(':')[0]))} {kind} {entry.split(':')[1]}"
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
            marks = _marks(view)
            return "^" + (marks[token.owner] if token.HasField("owner") and token.owner < 2 else "?")
        colour = token.colour[:1] if token.HasField("colour") else "?"
        return ("+" if token.kind == "bonus" else "-") + colour

    # ------------------------------------------------------------ coaches

    def _coaches(self, view: View, names: dict[int, str]) -> Table:
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
        for header in ("Coach", "House", "Tempo", "Goals", "Hand", "Deck", "Pitch card", "Snitch"):
            table.add_column(header, no_wrap=header not in ("Coach", "House", "Pitch card"))
        marks = _marks(view)
        for coach in view.coaches:
            who = Text(f"{marks[coach.seat % 2]} ", style=TEAM_STYLE[coach.seat % 2])
            who.append(f"{_name(names, coach.seat)}{' (you)' if _viewer(view) == coach.seat else ''}")
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
            shown = _card(view, coach.seat, coach.pitch_card)
            return shown.name if shown is not None else f"card {coach.pitch_card}"
        if _viewer(view) == coach.seat and view.HasField("my_pitch_card"):
            shown = _card(view, coach.seat, view.my_pitch_card)
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
            who = _cap(_who(view, names, coach.seat))
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
        for card in sorted(draft.players, key=lambda c: _position_rank(c.position)):
            players.add_row(_title(card.position), card.name, f"{card.cost} G", card.trait or "–")
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
        marks = _marks(view)
        for coach in view.coaches:
            codes = _card_codes(coach)
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
        marks = _marks(view)
        stand = _listing("Spectator Stand", justify="left")
        for spot in view.stand:
            text = Text()
            if spot.HasField("seat") and spot.HasField("card"):
                text.append(f"{marks[spot.seat % 2]} ", style=TEAM_STYLE[spot.seat % 2])
                card = _spectator(view, spot.seat, spot.card)
                text.append(card.name if card is not None else spot.card)
            else:
                text.append("empty", style="dim")
            stand.add_row(f"{_title(spot.zone)} Zone", text)
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
                shown = _card(view, coach.seat, card_id)
                text = Text(f"{_cap(_who(view, names, coach.seat))}: ", style=TEAM_STYLE[coach.seat % 2])
                text.append(f"{shown.name} — {shown.intrepid}" if shown is not None else f"card {card_id}")
                table.add_row(str(card_id), text)
        return [table] if table.row_count else []

    # --------------------------------------------------------------- roll

    def _exchange(self, view: View, names: dict[int, str]) -> list[RenderableType]:
        if not view.HasField("exchange"):
            return []
        ex = view.exchange
        marks = _marks(view)
        kind = ROLL_NAME.get(ex.kind, _title(ex.kind))
        text = Text("Roll: ", style="bold")
        text.append(f"{kind} of {_who(view, names, ex.seat)}")
        if ex.HasField("actor"):
            actor = _player(view, ex.seat, ex.actor)
            if actor is not None:
                text.append(f" ({marks[ex.seat % 2]} {actor.code})")
        if ex.HasField("target_team") and ex.HasField("target"):
            target = _player(view, ex.target_team, ex.target)
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
            text.append(f"\n  {ROLL_NAME.get(ex.reaction, _title(ex.reaction))}")
            if ex.HasField("reactor"):
                team = 1 - ex.seat if not ex.HasField("target_team") else ex.target_team
                reactor = _player(view, team, ex.reactor)
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
            table.add_row(str(seat.rank), _name(names, seat.seat), result_word(seat.result), f"{seat.score:g}")
        if view.outcome.reason:
            table.caption = name_mentions(view.outcome.reason, names)
            table.caption_justify = "left"
        return table


# ---------------------------------------------------------------------- the pitch


class PitchGrid:
    """The pitch: a grid of the view's Zones by row and column, each with its Players, Bludgers and Quaffle."""

    def __init__(self, view: View, names: dict[int, str]) -> None:
        self.view = view
        self.names = names

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self.table(options.max_width)

    def table(self, width: int) -> Table:
        """The grid, each Zone's name in full where its column is wide enough, else shortened."""
        view = self.view
        zones = list(view.zones)
        rows = max((z.row for z in zones), default=0) + 1
        columns = max((z.column for z in zones), default=0) + 1
        room = (width - columns - 1) // columns
        table = Table(box=box.ROUNDED, show_header=False, padding=(0, 0), expand=True, show_lines=True)
        for _ in range(columns):
            table.add_column(ratio=1, overflow="fold")
        grid: list[list[RenderableType]] = [["" for _ in range(columns)] for _ in range(rows)]
        for zone in zones:
            grid[zone.row][zone.column] = self.cell(zone, _fitted(zone.name, room))
        for row in grid:
            table.add_row(*row)
        return table

    def cell(self, zone: snitch_pb2.ZoneView, name: str) -> Text:
        view = self.view
        marks = _marks(view)
        text = Text(name, style="bold" if zone.orange else "")
        if zone.HasField("scoring_area_of"):
            text.stylize(TEAM_STYLE[zone.scoring_area_of % 2])
        for team in (0, 1):
            here = [p for p in view.players if p.team == team and p.zone == zone.id]
            if not here:
                continue
            text.append(f"\n{marks[team]}", style=TEAM_STYLE[team])
            for player in sorted(here, key=lambda p: p.index):
                text.append(" ")
                style = "bold underline" if player.has_quaffle else ""
                text.append(player.code, style=style)
                text.append(_trait_mark(view, team, player.index), style="yellow")
                if player.has_quaffle:
                    text.append(QUAFFLE, style="bold yellow")
                if player.stunned:
                    text.append("×" * player.stunned, style="red")
                if player.bonus or player.penalty:
                    text.append("+" * len(player.bonus) + "-" * len(player.penalty), style="cyan")
        extras = Text()
        for bludger in zone.bludgers:
            extras.append(f"{BLUDGER}{bludger + 1} ", style="bold")
        if zone.quaffle and view.quaffle_loose:
            extras.append(f"{QUAFFLE} loose", style="bold yellow")
        if extras:
            text.append("\n")
            text.append_text(extras)
        return text


# ------------------------------------------------------------------- helpers


def _building(view: View) -> bool:
    """Whether the Teams are still being built (Build Your Team): the screen is the team-building one."""
    return view.HasField("draft") or view.prompt.kind in BUILDING


def _position_rank(position: str) -> int:
    return POSITION_ORDER.index(position) if position in POSITION_ORDER else len(POSITION_ORDER)


def _card_codes(coach: snitch_pb2.CoachView) -> list[str]:
    """The short code of each of a Coach's Player cards (lineup order): K, B1, B2, C1, C2, C3, S."""
    codes = []
    for index, card in enumerate(coach.cards):
        same = [i for i, c in enumerate(coach.cards) if c.position == card.position]
        letter = card.position[:1].upper()
        codes.append(letter if len(same) == 1 else f"{letter}{same.index(index) + 1}")
    return codes


def _trait_mark(view: View, team: int, index: int) -> str:
    """ "✷" after a Player with a Trait, "✷⊘" once its Locked token is on ("" without a Trait)."""
    coach = next((c for c in view.coaches if c.seat == team), None)
    if coach is None or index >= len(coach.cards) or not coach.cards[index].trait:
        return ""
    return UNIQUE + (LOCKED if index in coach.locked else "")


def _spectator(view: View, seat: int, card_id: str) -> snitch_pb2.SpectatorCardView | None:
    coach = next((c for c in view.coaches if c.seat == seat), None)
    return next((c for c in coach.spectators if c.id == card_id), None) if coach is not None else None


def _spectator_text(card: snitch_pb2.SpectatorCardView) -> Text:
    """A Spectator card in the engine's words: its Zones, its effect in an empty Zone and on a rival's."""
    text = Text(card.name, style="bold")
    zones = " or ".join(_title(z) for z in card.zones)
    text.append(f" ({zones}): {card.first} · displacing a rival: {card.second}")
    return text


def _player(view: View, team: int, index: int) -> snitch_pb2.PlayerView | None:
    return next((p for p in view.players if p.team == team and p.index == index), None)


def _card(view: View, seat: int, card_id: int) -> snitch_pb2.TacticalCardView | None:
    """A Tactical card the viewer may see (in hand, or face up), in the engine's words."""
    for card in (*view.hand, *view.cards):
        if card.seat == seat and card.id == card_id:
            return card
    return None


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
