"""Setup (l.233–247) and the Kick-Off (l.255–273): the first steps of a match."""

from __future__ import annotations

from collections.abc import Sequence

from menagerie.rules.chance import Distribution, die_outcomes
from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import Rng
from menagerie.snitch.data import (
    STAND_ZONES,
    House,
    Symbol,
)
from menagerie.snitch.engine import pitch, race, rolls, roster, tactics
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Action,
    AdvantageRoll,
    AdvantageRolled,
    BeatenBludger,
    BludgerPlaced,
    CardsDrawn,
    Coach,
    Deployment,
    DeployPlayer,
    Event,
    GoldenSnitchRevealed,
    KickOffBludger,
    KickOffStep,
    PitchPlayer,
    PlaceBludger,
    RefillRow,
    SequenceStep,
    SetupRow,
    SnitchCardDrawn,
    SnitchRowRefilled,
    SnitchState,
    StandSpot,
    StartMatch,
    TeamBuilding,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.pitch_rules import zone_problem


class SetUpAndKickOff(EngineParts):
    """Setup (a part of SnitchEngine)."""

    def setup(self, setup: MatchSetup, seed: int) -> tuple[SnitchState, list[Event]]:
        """Basic Teams start at once (l.207); in mode "advanced" both Coaches first build their Team (l.689)."""
        options = self.info.validate(setup)
        rng = Rng(seed)
        # Placeholders until the Setup steps run (`_start_match`): halves, Seekers and the Snitch.
        halves = (self.pitch.halves[0].id, self.pitch.halves[1].id)
        layout = pitch.setup_layout(self.pitch, halves, PlayerRef(0, pitch.PITCH_LINEUP.index("chaser")))
        state = SnitchState(
            mode=setup.mode,  # type: ignore[arg-type]
            rng=rng,
            players=[],
            layout=layout,
            attacking=0,
            seekers=[0, 0],
            snitch=0,
        )
        events: list[Event] = []
        if setup.mode == "advanced":
            state.funding = int(options["funding"])
            state.spectators_on = options["spectators"] == "on"
            state.players = [Coach(house="gryffindor", team=[], draft=roster.Draft()) for _ in (0, 1)]
            self.ask(state, TeamBuilding(must=[0, 1]), StartMatch())
            return state, events
        houses: list[House] = [options["house_0"], options["house_1"]]  # type: ignore[list-item]
        for house in houses:
            basic = [p.id for p in self.data.players.lineup(house)]
            state.players.append(
                Coach(
                    house=house,
                    team=[],
                    lineup=basic,
                    deck=[c.id for c in self.decks.deck(house)],
                    flag=FLAG_COLOURS[house],
                )
            )
        self._start_match(state, events)
        return state, events

    def _start_match(self, state: SnitchState, events: list[Event]) -> None:
        """Setup steps 1–7 (l.233–247), from step 4's roll (a chance node) on; see `_advantage_rolled`."""
        self.then(state, AdvantageRoll())
        self.advance(state, events)

    def _advantage_faces(self, state: SnitchState, step: AdvantageRoll) -> Distribution[Symbol]:
        """Step 4's die (l.241): each face with its chance, but the blank when a blank is rolled again (RULES.md)."""
        spec = self.data.dice.setup_roll
        faces = rolls.faces(self.data.dice, spec.colour)
        return die_outcomes([face for face in faces if not (spec.reroll_blank and face == "blank")])

    def _draw_advantage(self, state: SnitchState, step: AdvantageRoll) -> Symbol:
        """The die rolled with the match's Rng until it shows a face that is not rolled again."""
        spec = self.data.dice.setup_roll
        face = rolls.roll_die(state.rng, self.data.dice, spec.colour)
        while spec.reroll_blank and face == "blank":
            face = rolls.roll_die(state.rng, self.data.dice, spec.colour)
        return face

    def _advantage_rolled(self, state: SnitchState, step: AdvantageRoll, face: Symbol, events: list[Event]) -> None:
        """Step 4 showed `face`: halves, Seekers, Snitch, advantage, the row, hands; then the Kick-Off."""
        rng = state.rng
        # Step 4 (l.241): seat 0 took the Success symbol, seat 1 the Opportunity (authored).
        attacking = 0 if face in ("success", "double_success") else 1
        halves = (self.pitch.halves[0].id, self.pitch.halves[1].id)
        chaser = pitch.PITCH_LINEUP.index("chaser")
        state.layout = pitch.setup_layout(self.pitch, halves, PlayerRef(attacking, chaser))
        state.attacking = attacking
        the_race = race.new_race(self.data.track, rng)
        state.seekers, state.snitch, state.snitch_deck = list(the_race.seekers), the_race.snitch, list(the_race.deck)
        events.append(AdvantageRolled(face=face, attacking=attacking, chaser=chaser))
        for seat, coach in enumerate(state.players):
            cards = tactics.opening_hand(list(coach.deck), rng)
            coach.team = [PitchPlayer() for _ in pitch.PITCH_LINEUP]
            coach.hand, coach.deck = list(cards.hand), list(cards.deck)
            events.append(CardsDrawn(seat=seat, count=len(cards.hand), cards=list(cards.hand)))
        if state.spectators_on:
            state.stand = [StandSpot(zone=z) for z in STAND_ZONES]
        # Step 5's row (Golden Snitch cards with the Attacking Team), then the Kick-Off.
        self.then(state, SetupRow(seat=attacking), KickOffStep())

    def _refill_row(self, state: SnitchState, step: SetupRow | RefillRow, events: list[Event]) -> None:
        """Draw the row back up to 3; a Golden Snitch card is Glimpsed by `step.seat`'s Seeker first (l.243, l.677)."""
        old_row, old_deck = list(state.snitch_row), len(state.snitch_deck)
        refill = race.refill_row(self.race_of(state), state.rng)
        self.store_race(state, refill.race)
        drawn = [c for c in state.snitch_row if c not in old_row]
        if refill.golden is not None:
            drawn.append(refill.golden)
        # A reshuffle happened when the deck grew (the discard pile became the deck).
        reshuffled = len(state.snitch_deck) + len(drawn) > old_deck
        events.extend(SnitchCardDrawn(card=c, reshuffled=reshuffled and i == 0) for i, c in enumerate(drawn))
        if refill.golden is not None:
            events.append(GoldenSnitchRevealed(seat=step.seat, card=refill.golden))
            self.then(state, RefillRow(seat=step.seat))
            self._race_step(state, step.seat, race.golden_glimpse(refill.golden), events)
            return
        events.append(SnitchRowRefilled(row=list(state.snitch_row)))

    def _kick_off(self, state: SnitchState, step: KickOffStep, events: list[Event]) -> None:
        """The Kick-Off (l.255–273): Bludgers attacking first, then the 2/1/1/2 deployment moves."""
        if step.stage < 2:
            seat = state.attacking if step.stage == 0 else self.defending(state)
            self.ask(state, KickOffBludger(must=[seat]), KickOffStep(stage=step.stage + 1))
            return
        if step.stage < 2 + len(pitch.KICK_OFF_MOVES):
            is_attacking, count = pitch.KICK_OFF_MOVES[step.stage - 2]
            seat = state.attacking if is_attacking else self.defending(state)
            movable = {d.player for d in self._deploy_options(state, seat)}
            left = min(count, len(movable))
            if left:
                self.ask(state, Deployment(must=[seat], left=left), KickOffStep(stage=step.stage + 1))
            else:
                self.then(state, KickOffStep(stage=step.stage + 1))
            return
        state.deployed = []
        self.then(state, SequenceStep(stage="hand_swap"))

    def _bludger_zones(self, state: SnitchState, seat: int) -> Sequence[str]:
        """Where `seat` may put a Bludger now: a beaten one's Zones, else the Kick-Off's (l.257)."""
        top = self.top(state)
        if isinstance(top, BeatenBludger):
            return top.zones
        return pitch.bludger_placements(self.pitch, state.layout, seat)

    def _place_bludger_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [PlaceBludger(zone=z) for z in self._bludger_zones(state, seat)]

    def _place_bludger_problem(self, state: SnitchState, seat: int, action: PlaceBludger) -> str | None:
        """Why the Bludger may not go to that Zone (None: it may)."""
        return zone_problem(self.pitch, action.zone, self._bludger_zones(state, seat))

    def _do_place_bludger(self, state: SnitchState, seat: int, action: PlaceBludger) -> list[Event]:
        events: list[Event] = []
        top = self.settle(state)
        bludger = top.bludger if isinstance(top, BeatenBludger) else len(state.layout.bludgers)
        state.layout = state.layout.with_bludger(bludger, action.zone)
        events.append(BludgerPlaced(seat=seat, bludger=bludger, zone=action.zone))
        self.advance(state, events)
        return events

    def _deploy_options(self, state: SnitchState, seat: int) -> tuple[pitch.Deploy, ...]:
        moved = frozenset(PlayerRef(t, i) for t, i in state.deployed)
        return pitch.deployment_options(self.pitch, state.layout, seat, moved)

    def _deploy_actions(self, state: SnitchState, seat: int) -> list[Action]:
        return [DeployPlayer(player=d.player.index, zone=d.to) for d in self._deploy_options(state, seat)]

    def _do_deploy(self, state: SnitchState, seat: int, action: DeployPlayer) -> list[Event]:
        events: list[Event] = []
        top = self.top(state)
        assert isinstance(top, Deployment)
        player = PlayerRef(seat, action.player)
        state.deployed.append([seat, action.player])
        self._place_player(state, player, action.zone, "deploy", events)
        top.left -= 1
        if top.left <= 0 or not self._deploy_options(state, seat):
            self.settle(state)
        self.advance(state, events)
        return events
