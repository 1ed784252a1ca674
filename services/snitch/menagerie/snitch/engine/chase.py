"""The Snitch Race in play (l.582–685): Snitch cards taken, Impulses, race tokens, the catch."""

from __future__ import annotations

from menagerie.rules.text import seat_name
from menagerie.snitch.data import (
    Colour,
)
from menagerie.snitch.data.cards import (
    Obstruct,
    RaceAction,
    RaceDiceToken,
    Step,
    UpwindToken,
)
from menagerie.snitch.engine import race
from menagerie.snitch.engine.model import (
    Action,
    DodgeChoice,
    DodgeToken,
    Event,
    Exchange,
    ImpulseStep,
    PlaceRaceToken,
    RaceMoved,
    RaceTokenPlaced,
    RaceTokenPlacement,
    RefillRow,
    SnitchCardChoice,
    SnitchCardKept,
    SnitchCardTaken,
    SnitchCaught,
    SnitchState,
    TakeSnitch,
    TakeSnitchCard,
)
from menagerie.snitch.engine.parts import EngineParts


class SnitchRace(EngineParts):
    """The Snitch Race in play (a part of SnitchEngine)."""

    @staticmethod
    def race_of(state: SnitchState) -> race.Race:
        """The Snitch race as race.py's value."""
        return race.Race(
            seekers=(state.seekers[0], state.seekers[1]),
            snitch=state.snitch,
            tokens=tuple(state.race_tokens),
            held=(tuple(state.held[0]), tuple(state.held[1])),
            deck=tuple(state.snitch_deck),
            row=tuple(state.snitch_row),
            discard=tuple(state.snitch_discard),
            in_play=(state.players[0].snitch_in_play, state.players[1].snitch_in_play),
            turn=state.race_turn,
        )

    @staticmethod
    def store_race(state: SnitchState, value: race.Race) -> None:
        """Writes race.py's value back into the state."""
        state.seekers = list(value.seekers)
        state.snitch = value.snitch
        state.race_tokens = list(value.tokens)
        state.held = [list(value.held[0]), list(value.held[1])]
        state.snitch_deck = list(value.deck)
        state.snitch_row = list(value.row)
        state.snitch_discard = list(value.discard)
        state.players[0].snitch_in_play = value.in_play[0]
        state.players[1].snitch_in_play = value.in_play[1]
        state.race_turn = value.turn

    def _take_snitch(self, state: SnitchState, step: TakeSnitch, events: list[Event]) -> None:
        """A Snitch card from the row (l.656), if the row has one."""
        if race.snitch_choices(self.race_of(state), step.seat):
            self.ask(state, SnitchCardChoice(must=[step.seat]))

    def _race_step(self, state: SnitchState, seat: int, step: Step, events: list[Event]) -> None:
        """One step of an Impulse (or a Golden Snitch card's Glimpse) for `seat`."""
        current = self.race_of(state)
        if isinstance(step, UpwindToken | RaceDiceToken):
            token = "upwind" if isinstance(step, UpwindToken) else step.token
            colour = None if isinstance(step, UpwindToken) else step.colour
            self._ask_race_token(state, seat, token, colour, 1)
            return
        assert isinstance(step, RaceAction)
        if isinstance(step, Obstruct) and not race.can_obstruct(current, seat):
            events.append(
                RaceMoved(
                    seat=seat,
                    step="obstruct",
                    successes=0,
                    seekers=list(state.seekers),
                    snitch=state.snitch,
                    skipped=True,
                )
            )
            return
        if step.successes is not None:
            self._apply_race(state, seat, step.name, step.successes, events)
            return
        self._start_exchange(
            state, Exchange(kind="race", seat=seat, race_step=step.name, modifier=step.modifier, stage="aim")
        )

    def _apply_race(self, state: SnitchState, seat: int, name: str, successes: int, events: list[Event]) -> None:
        current = self.race_of(state)
        if name == "dodge" and race.may_ignore(current, seat, successes):
            self.ask(state, DodgeChoice(must=[seat], successes=successes))
            return
        if name == "accelerate":
            current = race.accelerate(current, seat, successes)
        elif name == "dodge":
            current = race.dodge(current, seat, successes, False)
        elif name == "glimpse":
            current = race.glimpse(current, successes)
        else:
            current = race.obstruct(current, seat, successes)
        self.store_race(state, current)
        events.append(
            RaceMoved(seat=seat, step=name, successes=successes, seekers=list(state.seekers), snitch=state.snitch)
        )
        self._check_catch(state, events)

    def _check_catch(self, state: SnitchState, events: list[Event]) -> None:
        """A Seeker on the Snitch's space catches it and wins at once (l.685)."""
        caught = race.catcher(self.race_of(state), state.attacking)
        if caught is not None:
            events.append(SnitchCaught(seat=caught))
            self._finish(state, caught, events, reason=f"{seat_name(caught)}'s Seeker caught the Golden Snitch")

    def _impulse(self, state: SnitchState, step: ImpulseStep, events: list[Event]) -> None:
        if step.index + 1 < len(step.steps):
            self.then(state, ImpulseStep(seat=step.seat, steps=step.steps, index=step.index + 1))
        self._race_step(state, step.seat, step.steps[step.index], events)

    def _ask_race_token(self, state: SnitchState, seat: int, token: str, colour: Colour | None, left: int) -> None:
        spaces = race.token_spaces(self.race_of(state), seat)
        if spaces:
            self.ask(state, RaceTokenPlacement(must=[seat], token=token, colour=colour, left=left))

    def _snitch_card_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [TakeSnitchCard(card=c.card, option=c.option) for c in race.snitch_choices(self.race_of(state), seat)]

    def _do_take_snitch_card(self, state: SnitchState, seat: int, action: TakeSnitchCard) -> list[Event]:
        self.settle(state)
        held = state.players[seat].snitch_in_play
        current, play = race.take_snitch_card(self.race_of(state), seat, race.SnitchChoice(action.card, action.option))
        self.store_race(state, current)
        events: list[Event] = [
            SnitchCardKept(seat=seat, card=action.card)
            if action.option == "keep"
            else SnitchCardTaken(
                seat=seat,
                card=action.card,
                option=action.option,
                in_play=held if action.option == "combine" else None,
                level=play.level,
            )
        ]
        self.then(
            state, *([ImpulseStep(seat=seat, steps=list(play.steps))] if play.steps else []), RefillRow(seat=seat)
        )
        self.advance(state, events)
        return events

    def _race_token_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [PlaceRaceToken(space=s) for s in race.token_spaces(self.race_of(state), seat)]

    def _race_token_problem(self, state: SnitchState, seat: int, action: PlaceRaceToken) -> str | None:
        """A token goes on a free space the Coach may use (l.616); why not, else None."""
        current = self.race_of(state)
        if action.space in race.token_spaces(current, seat):
            return None
        where = "between the leading Seeker and the Snitch"
        if race.lagged(current) == seat:
            where += ", nor, your Seeker being Lagged, between the two Seekers"
        return f"space {action.space!r} is not a free space {where} (l.616)"

    def _do_race_token(self, state: SnitchState, seat: int, action: PlaceRaceToken) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, RaceTokenPlacement)
        step: UpwindToken | RaceDiceToken = (
            UpwindToken() if top.token == "upwind" else RaceDiceToken(token=top.token, colour=top.colour or "orange")  # type: ignore[arg-type]
        )
        self.store_race(state, race.place_token(self.race_of(state), seat, step, action.space))
        events: list[Event] = [RaceTokenPlaced(seat=seat, token=top.token, space=action.space, colour=top.colour)]
        top.left -= 1
        if top.left <= 0 or not race.token_spaces(self.race_of(state), seat):
            self.settle(state)
        self.advance(state, events)
        return events

    def _do_dodge(self, state: SnitchState, seat: int, action: DodgeToken) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, DodgeChoice)
        self.store_race(state, race.dodge(self.race_of(state), seat, top.successes, action.ignore))
        events: list[Event] = [
            RaceMoved(
                seat=seat, step="dodge", successes=top.successes, seekers=list(state.seekers), snitch=state.snitch
            )
        ]
        self._check_catch(state, events)
        self.advance(state, events)
        return events
