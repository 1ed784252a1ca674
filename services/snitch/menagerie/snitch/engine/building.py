"""Build Your Team (mode "advanced", l.689–703): the secret drafts, the Flags, then the Teams on the table.

What may be picked is `roster.py`'s (pure); this part turns it into the match's first
phase: one decision of both seats, each Coach picking until they confirm, then each Coach
chooses a Flag colour (l.460) and the Teams are revealed before the Setup steps. See
RULES.md "Build Your Team".
"""

from __future__ import annotations

from menagerie.rules.text import listing
from menagerie.snitch.data import FERVENT_FAN
from menagerie.snitch.engine import roster
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Action,
    ChooseFlag,
    ConfirmTeam,
    DropFromTeam,
    Event,
    FlagChoice,
    FlagChosen,
    PickForTeam,
    SnitchState,
    StartMatch,
    TeamChanged,
    TeamConfirmed,
    TeamRevealed,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import rival


class BuildYourTeam(EngineParts):
    """The team-building phase and the start of the match that follows it (a part of SnitchEngine)."""

    def _limits(self, state: SnitchState) -> roster.Limits:
        return roster.Limits(funding=state.funding, spectators=state.spectators_on)

    def _draft(self, state: SnitchState, seat: int) -> roster.Draft:
        draft = state.players[seat].draft
        assert draft is not None
        return draft

    def _pick_options(self, state: SnitchState, seat: int) -> list[Action]:
        draft = self._draft(state, seat)
        return [PickForTeam(part=p, card=c) for p, c in roster.options(self.catalogue, draft, self._limits(state))]

    def _pick_problem(self, state: SnitchState, seat: int, action: PickForTeam) -> str | None:
        if action.part not in roster.PARTS:
            return f"there is no part {action.part!r} of a Team; parts: {', '.join(roster.PARTS)}"
        draft = self._draft(state, seat)
        return roster.add_problem(self.catalogue, draft, self._limits(state), action.part, action.card)

    def _do_pick(self, state: SnitchState, seat: int, action: PickForTeam) -> list[Event]:
        roster.add(self._draft(state, seat), action.part, action.card)  # type: ignore[arg-type]
        return [TeamChanged(seat=seat, part=action.part, card=action.card)]

    def _drop_options(self, state: SnitchState, seat: int) -> list[Action]:
        draft = self._draft(state, seat)
        last = roster.last_pick(draft)
        return [DropFromTeam(part=last[0], card=last[1])] if last is not None else []

    def _drop_problem(self, state: SnitchState, seat: int, action: DropFromTeam) -> str | None:
        if action.part not in roster.PARTS:
            return f"there is no part {action.part!r} of a Team; parts: {', '.join(roster.PARTS)}"
        return roster.drop_problem(self._draft(state, seat), action.part, action.card)

    def _do_drop(self, state: SnitchState, seat: int, action: DropFromTeam) -> list[Event]:
        roster.drop(self._draft(state, seat))
        return [TeamChanged(seat=seat, part=action.part, card=action.card, dropped=True)]

    def _confirm_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [ConfirmTeam()] if self._confirm_problem(state, seat, ConfirmTeam()) is None else []

    def _confirm_problem(self, state: SnitchState, seat: int, action: ConfirmTeam) -> str | None:
        return roster.complete_problem(self.catalogue, self._draft(state, seat), self._limits(state))

    def _do_confirm(self, state: SnitchState, seat: int, action: ConfirmTeam) -> list[Event]:
        self._draft(state, seat).ready = True
        self.decided(state, seat)
        events: list[Event] = [TeamConfirmed(seat=seat)]
        self.advance(state, events)
        return events

    def _flag_options(self, state: SnitchState, seat: int) -> list[Action]:
        taken = state.players[rival(seat)].flag
        return [ChooseFlag(colour=c) for c in FLAG_COLOURS.values() if c != taken]

    def _flag_problem(self, state: SnitchState, seat: int, action: ChooseFlag) -> str | None:
        """A Flag colour of the box, not the rival's (l.460); why not, else None."""
        colours = list(FLAG_COLOURS.values())
        if action.colour not in colours:
            return f"there is no {action.colour!r} Flag; colours: {listing(colours)}"
        if action.colour == state.players[rival(seat)].flag:
            return f"the {action.colour} Flag is the rival's; the two Coaches' colours differ"
        return None

    def _do_flag(self, state: SnitchState, seat: int, action: ChooseFlag) -> list[Event]:
        self.settle(state)
        state.players[seat].flag = action.colour
        events: list[Event] = [FlagChosen(seat=seat, colour=action.colour)]
        self.advance(state, events)
        return events

    def _start_step(self, state: SnitchState, step: StartMatch, events: list[Event]) -> None:
        """Both Teams are formed (l.703): each Coach picks a Flag colour (l.460), the Teams are shown, play begins."""
        if step.stage < 2:
            self.ask(state, FlagChoice(must=[step.stage]), StartMatch(stage=step.stage + 1))
            return
        for seat, coach in enumerate(state.players):
            draft = coach.draft
            assert draft is not None and draft.house is not None
            coach.house = draft.house
            coach.lineup = roster.lineup(self.catalogue, draft.players)
            coach.deck = sorted(draft.tactics)
            coach.spectators = ([FERVENT_FAN] if state.spectators_on else []) + list(draft.spectators)
            coach.draft = None
            events.append(TeamRevealed(seat=seat, house=coach.house, players=coach.lineup, spectators=coach.spectators))
        self._start_match(state, events)
