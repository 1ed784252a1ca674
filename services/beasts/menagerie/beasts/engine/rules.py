"""The rules of the Fantastic Beasts board game (see RULES.md); mode III is its own part, engine/salem.py.

A turn is three decisions of the seat to play, kept on the decision stack: roll the
die (spells may be cast first), choose where to stop, then — in mode II — capture a
creature you can pay for, cast spells or end the turn. When ending the turn is the
only thing left to do, it ends by itself. Every refusal names the rule it enforces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from menagerie.beasts.engine.board import Routes
from menagerie.beasts.engine.costs import cost_of, deficit, pay, resources_of
from menagerie.beasts.engine.data import BLUE_CIRCLES, COLOURS, DIE_FACES, Colour, GameData, SpellId, load_data
from menagerie.beasts.engine.model import (
    SPELL_ACTIONS,
    Accio,
    Action,
    AfterStop,
    BeastsState,
    BeastsView,
    Capture,
    ChooseCharacter,
    ChooseStop,
    Collect,
    CreatureCaptured,
    CreatureCard,
    DieRoll,
    DieRolled,
    EndTurn,
    Event,
    Expelliarmus,
    FelixFelicis,
    Fight,
    MatchFinished,
    MatchStarted,
    Mode,
    Move,
    Moved,
    Player,
    PlayerView,
    Portkey,
    ResourceCollected,
    ResourceCounts,
    Revelio,
    Roll,
    RollDie,
    SpaceLeftEmpty,
    SpaceToken,
    SpellAction,
    SpellCast,
    SpellDrawn,
    SpellInfo,
    Step,
    SupplyShuffled,
    TokenPlaced,
    TokenRevealed,
    TurnDecision,
    TurnEnded,
    TurnStarted,
    WingardiumLeviosa,
)
from menagerie.beasts.engine.salem import AdvancedMagizoology
from menagerie.beasts.engine.salem_data import (
    CREATURES_GOAL,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    Difficulty,
    SalemData,
    load_salem,
)
from menagerie.beasts.engine.text import TITLES, BeastsText
from menagerie.rules.chance import Distribution, die_outcomes
from menagerie.rules.contract import (
    GameInfo,
    MatchSetup,
    ModeInfo,
    OptionInfo,
    Outcome,
    ResultKind,
    SeatResult,
)
from menagerie.rules.decisions import Decision, Refusal, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.rng import Rng
from menagerie.rules.text import seat_name

SPELLS_PER_TURN = 3
STARTING_SPELLS = 2
ROUND_CAP = 60
CREATURES_TO_WIN = {"capture": 3, "training": 2}
TIMING_WORDS = {"roll": "before rolling", "move": "after rolling, before moving", "stopped": "after stopping"}


# The actions without parameters, made once: a playout lists them at every turn.
ROLL, CAPTURE, END_TURN = Roll(), Capture(), EndTurn()


class BeastsEngine(AdvancedMagizoology, RulesEngine[BeastsState, Action, BeastsView, Event]):
    """Modes I (`capture`), II (`training`, optionally with spell cards) and III (`advanced`, co-op)."""

    info: ClassVar[GameInfo] = GameInfo(
        game="beasts",
        title="Fantastic Beasts and Where to Find Them",
        modes=(
            ModeInfo("capture", "Mode I: First Capture Attempts", 2, 6),
            ModeInfo(
                "training",
                "Mode II: Magizoology Training",
                2,
                6,
                options=(OptionInfo("spell_cards", "Play with the Spell Card Variant", ("false", "true"), "false"),),
            ),
            ModeInfo(
                "advanced",
                "Mode III: Advanced Magizoology (co-op against the Second Salemers)",
                2,
                6,
                options=(
                    OptionInfo(
                        "difficulty",
                        "How hard the Second Salemers press: gentle (a careful team usually wins), standard"
                        " (about an even match) or hard (the Salemers usually win)",
                        DIFFICULTIES,
                        DEFAULT_DIFFICULTY,
                    ),
                ),
                cooperative=True,
            ),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (EndTurn,)
    state_type: ClassVar[Any] = BeastsState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = BeastsView
    event_type: ClassVar[Any] = Event

    def __init__(self, data: GameData | None = None, salem: SalemData | None = None) -> None:
        self.data = data or load_data()
        self.salem = salem or load_salem()
        self.routes = Routes(self.data.board)
        self._moves = [Move(space.id) for space in self.data.board.spaces]  # actions are frozen: made once
        self._steps = [Step(space.id) for space in self.data.board.spaces]
        self.creatures = {c.id: c for c in self.data.creatures}
        self.costs = {c.id: ResourceCounts(**c.cost) for c in self.data.creatures}
        self.cost_tuples = {c.id: cost_of(c.cost) for c in self.data.creatures}
        self.spells = {s.id: s for s in self.data.spells}
        self.text = BeastsText(self.data, self.salem)
        super().__init__()

    def rulebook(self) -> dict[type, Rule[BeastsState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed."""
        spell = Rule[BeastsState, Any, Event](
            "Spell cards", self._spell_options, self._spell_problem, self._cast, not_now=self._spell_not_now
        )
        return {
            Roll: Rule("Rolling", lambda s, seat: [ROLL], no_problem, self._roll, not_now=self._roll_not_now),
            Move: Rule(
                "Movement", self._move_options, self._move_problem, self._move, not_now=self._move_not_now, exact=True
            ),
            Capture: Rule(
                "Capture",
                lambda s, seat: [CAPTURE],
                self._capture_problem,
                lambda s, seat, a: (
                    self._capture_advanced(s, seat, a) if s.mode == "advanced" else self._capture(s, seat, a)
                ),
                not_now=lambda s, seat, d: "you capture after stopping on the creature's space",
            ),
            EndTurn: Rule(
                "End of turn",
                lambda s, seat: [END_TURN],
                lambda s, seat, a: self._end_turn_problem(s, seat),
                lambda s, seat, a: self._end_advanced_turn(s) if s.mode == "advanced" else self._end_turn(s),
                not_now=lambda s, seat, d: "roll the die and move before you end your turn",
            ),
            ChooseCharacter: Rule(
                "Characters",
                self._character_options,
                lambda s, seat, a: (
                    None if a in self._character_options(s, seat) else "that character is taken or unknown"
                ),
                self._choose_character,
                exact=True,
            ),
            Step: Rule("Moving", self._step_options, self._step_problem, self._step, exact=True),
            Fight: Rule("Fighting Salemers", self._fight_options, self._fight_problem, self._fight, exact=True),
            Collect: Rule(
                "Collecting resources", self._collect_options, self._collect_problem, self._collect, exact=True
            ),
            **dict.fromkeys(SPELL_ACTIONS, spell),
        }

    def out_of_turn(self, state: BeastsState, seat: int, decision: Decision) -> Refusal:
        """Only the seat to play decides."""
        deciding = decision.must[0] if decision.must else state.current
        return Refusal("Turn order", f"it is {seat_name(deciding)}'s turn, not {seat_name(seat)}'s")

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[BeastsState, list[Event]]:
        """Tokens face down on every space, the rest a face-down supply; a random first seat."""
        options = self.info.validate(setup)
        rng = Rng(seed)
        if setup.mode == "advanced":
            return self._setup_mode_iii(setup, rng, cast("Difficulty", options["difficulty"]))
        tokens = self.data.all_tokens()
        rng.shuffle(tokens)
        board = self.data.board
        on_board: list[str | None] = [None] * len(board.spaces)
        for space in board.token_spaces:
            on_board[space] = tokens.pop()
        players = [Player(position=board.start_space, resources=dict.fromkeys(COLOURS, 0)) for _ in range(setup.seats)]
        first = rng.below(setup.seats)
        spell_cards = setup.mode == "training" and options.get("spell_cards") == "true"
        state = BeastsState(
            mode=cast("Mode", setup.mode),
            spell_cards=spell_cards,
            rng=rng,
            tokens=on_board,
            face_up=[False] * len(board.spaces),
            supply=tokens,
            players=players,
            current=first,
            decisions=[],
            turn=0,
            turn_cap=ROUND_CAP * setup.seats,
        )
        events: list[Event] = [MatchStarted(first_seat=first, supply_size=len(tokens))]
        if spell_cards:
            state.spell_deck = self.data.spell_deck()
            rng.shuffle(state.spell_deck)
            for offset in range(setup.seats):
                seat = (first + offset) % setup.seats
                for _ in range(STARTING_SPELLS):
                    events += self._draw_spell(state, seat)
        events += self._start_turn(state)
        return state, events

    def _setup_mode_iii(self, setup: MatchSetup, rng: Rng, difficulty: Difficulty) -> tuple[BeastsState, list[Event]]:
        """Mode III: standees on the start space, a random first seat, then setup steps 2–7 (engine/salem.py)."""
        board = self.data.board
        players = [Player(position=board.start_space, resources=dict.fromkeys(COLOURS, 0)) for _ in range(setup.seats)]
        first = rng.below(setup.seats)
        state = BeastsState(
            mode="advanced",
            spell_cards=False,
            rng=rng,
            tokens=[],
            face_up=[],
            supply=[],
            players=players,
            current=first,
            decisions=[],
            turn=0,
            turn_cap=ROUND_CAP * setup.seats,
            first=first,
            difficulty=difficulty,
        )
        events: list[Event] = [MatchStarted(first_seat=first, supply_size=0)]
        return state, events + self._setup_advanced(state, rng)

    # --------------------------------------------------------------- the turn

    def _decide(self, state: BeastsState, decision: TurnDecision) -> None:
        """The seat to play's next decision replaces the one it has just made."""
        decision.must = [state.current]
        self.restart(state, decision)

    def _roll_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        return "you have already rolled the die this turn"

    def _roll(self, state: BeastsState, seat: int, action: Roll) -> list[Event]:
        return self._roll_die(state, DieRoll(seat=seat))

    def _roll_die(self, state: BeastsState, roll: DieRoll) -> list[Event]:
        """The pending decision is taken; the die (a chance node, drawn at once) decides what is asked next."""
        self.settle(state)
        events: list[Event] = []
        self.draw(state, roll, events)
        return events

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        """The die is the game's one chance node; nothing else happens between decisions."""
        return {DieRoll: Chance(self._die_faces, self._draw_die, self._die_rolled)}

    @staticmethod
    def _die_faces(state: BeastsState, roll: DieRoll) -> Distribution[int]:
        return die_outcomes(DIE_FACES)

    @staticmethod
    def _draw_die(state: BeastsState, roll: DieRoll) -> int:
        return state.rng.choice(DIE_FACES)

    def _die_rolled(self, state: BeastsState, roll: DieRoll, value: int, events: list[Event]) -> None:
        """The die shows `value`: the steps to move (asked again after Felix Felicis), or a fight's result."""
        if roll.purpose == "fight":
            events += self._fought(state, roll.seat, value)
            return
        state.roll = value
        events.append(DieRolled(seat=roll.seat, value=value))
        self._decide(state, ChooseStop())

    def _move_options(self, state: BeastsState, seat: int) -> list[Move]:
        """Exactly the legal stops: every space within the steps, by the routes `_move_problem` measures with."""
        origin = state.players[seat].position
        return [self._moves[to] for to in self.routes.destinations(origin, state.roll + state.bonus)]

    def _move_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        if isinstance(decision, RollDie):
            return "roll the die before you move"
        return "you have already moved this turn"

    def _move_problem(self, state: BeastsState, seat: int, action: Move) -> str | None:
        to = action.to
        if not 0 <= to < len(state.tokens):
            return f"there is no space {to}"
        origin = state.players[seat].position
        if to == origin:
            return "you must move at least one step"
        steps = state.roll + state.bonus
        distance = self.routes.distance[origin][to]
        if distance > steps:
            return f"space {to} is {distance} steps away; you may move at most {steps}"
        return None

    def _move(self, state: BeastsState, seat: int, action: Move) -> list[Event]:
        player = state.players[seat]
        events: list[Event] = [Moved(seat=seat, origin=player.position, destination=action.to)]
        player.position = action.to
        return events + self._stop(state, seat)

    def _stop(self, state: BeastsState, seat: int) -> list[Event]:
        """Reveal the token where the seat stopped and resolve it."""
        player = state.players[seat]
        space = player.position
        token = state.tokens[space]
        events: list[Event] = []
        if token is not None and not state.face_up[space]:
            state.face_up[space] = True
            events.append(self._revealed(space, token))
        if token is None:
            if space != self.data.board.start_space:  # the start never holds a token
                events += self._refill(state, space)
        elif token in COLOURS:
            state.tokens[space] = None
            state.face_up[space] = False
            set_aside = state.mode == "capture"
            if set_aside:
                state.set_aside.append(token)
            else:
                player.resources[token] += 1
            events.append(ResourceCollected(seat=seat, colour=token, space=space, set_aside=set_aside))
            events += self._refill(state, space)
        elif state.mode == "capture":
            state.tokens[space] = None
            state.face_up[space] = False
            player.captured.append(token)
            events.append(CreatureCaptured(seat=seat, creature=token, space=space, paid=ResourceCounts()))
            events += self._refill(state, space)
            finished = self._check_end(state, seat)
            if finished:
                return events + finished
        self._decide(state, AfterStop())
        return events + self._settle(state)

    def _refill(self, state: BeastsState, space: int) -> list[Event]:
        if not state.supply:
            return [SpaceLeftEmpty(space=space)]
        state.tokens[space] = state.supply.pop()
        state.face_up[space] = False
        return [TokenPlaced(space=space)]

    def _settle(self, state: BeastsState) -> list[Event]:
        """Ends the turn by itself once ending it is the only thing left to do.

        Not with the Spell Card Variant: whether a spell is left to cast depends on the
        hand, which the others must not learn from the turn ending early (RULES.md); the
        seat always ends its turn itself then.
        """
        if (
            not state.spell_cards
            and isinstance(self.top(state), AfterStop)
            and not self._can_capture(state, state.current)
        ):
            return self._end_turn(state)  # without spells, End turn is all that is left
        return []

    # ---------------------------------------------------------------- capture

    def _capture_problem(self, state: BeastsState, seat: int, action: Capture) -> str | None:
        """Why `seat` cannot capture now, or None when it can."""
        if state.mode == "advanced":
            return self._capture_advanced_problem(state, seat)
        if self._can_capture(state, seat):
            return None
        if state.mode == "capture":
            return "in mode I a creature is captured as soon as it is revealed"
        player = state.players[seat]
        token = state.tokens[player.position]
        if token is None or token in COLOURS or not state.face_up[player.position]:
            return "there is no face-up creature on your space"
        creature = self.creatures[token]
        return (
            f"the {creature.name} needs {_describe(creature.cost)}; you lack {self.shortfall(player.resources, token)}"
        )

    def _can_capture(self, state: BeastsState, seat: int) -> bool:
        """Mode II: a face-up creature lies on the seat's space and its resources pay for it."""
        if state.mode == "capture":
            return False
        player = state.players[seat]
        token = state.tokens[player.position]
        if token is None or not state.face_up[player.position] or token not in self.cost_tuples:
            return False
        return not deficit(resources_of(player.resources), self.cost_tuples[token])

    def shortfall(self, resources: Mapping[str, int], creature_id: str) -> str:
        """What `resources` cannot pay of the creature's cost, even with wild tokens ('' if they can)."""
        cost = self.creatures[creature_id].cost
        lacking = deficit(resources_of(resources), cost_of(cost))
        if not lacking:
            return ""
        missing = {c: max(0, n - resources.get(c, 0)) for c, n in cost.items()}
        return f"{lacking} more token(s) ({_describe(missing)} without wild tokens)"

    def payment(self, resources: Mapping[str, int], creature_id: str) -> dict[str, int]:
        """The tokens a capture takes (see costs.pay): the cost's own colours first, wild for the rest."""
        have = resources_of(resources)
        left = pay(have, cost_of(self.creatures[creature_id].cost))
        return {colour: before - after for colour, before, after in zip(COLOURS, have, left, strict=True)}

    def _capture(self, state: BeastsState, seat: int, action: Capture) -> list[Event]:
        player = state.players[seat]
        space = player.position
        creature = state.tokens[space]
        assert creature is not None
        paid = self.payment(player.resources, creature)
        returned = []
        for colour, count in paid.items():
            player.resources[colour] -= count
            returned += [colour] * count
        player.captured.append(creature)
        state.tokens[space] = None
        state.face_up[space] = False
        events: list[Event] = [
            CreatureCaptured(seat=seat, creature=creature, space=space, paid=ResourceCounts(**paid)),
        ]
        state.supply += returned
        state.rng.shuffle(state.supply)
        events.append(SupplyShuffled(returned=len(returned), size=len(state.supply)))
        events += self._refill(state, space)
        finished = self._check_end(state, seat)
        return events + (finished or self._end_turn(state))

    # ------------------------------------------------------------ turn & end

    def _start_turn(self, state: BeastsState) -> list[Event]:
        state.turn += 1
        state.roll = state.bonus = state.spells_played = 0
        self._decide(state, RollDie())
        events: list[Event] = [TurnStarted(seat=state.current, turn=state.turn)]
        if state.spell_cards:
            events += self._draw_spell(state, state.current)
        return events

    def _end_turn(self, state: BeastsState) -> list[Event]:
        events: list[Event] = [TurnEnded(seat=state.current)]
        if state.turn >= state.turn_cap:
            return events + self._finish(state, [], f"the turn cap of {state.turn_cap} turns was reached: a draw")
        state.current = (state.current + 1) % len(state.players)
        return events + self._start_turn(state)

    def _check_end(self, state: BeastsState, seat: int) -> list[Event]:
        """Ends the match after `seat` captured, if that wins it."""
        target = CREATURES_TO_WIN[state.mode]
        if len(state.players[seat].captured) >= target:
            return self._finish(state, [seat], f"{seat_name(seat)} captured {target} creatures")
        captured = sum(len(p.captured) for p in state.players)
        if state.mode == "capture" and captured == len(self.creatures):
            winners = [i for i, p in enumerate(state.players) if len(p.captured) == 2]
            listed = ", ".join(str(w) for w in winners)
            return self._finish(state, winners, f"all creatures are captured; seats {listed} captured 2 each")
        return []

    def _finish(self, state: BeastsState, winners: list[int], reason: str, all_lose: bool = False) -> list[Event]:
        """The outcome: `winners` win, the others lose; no winners is a draw, or with `all_lose` (co-op) a loss."""
        counts = [len(p.captured) for p in state.players]
        if state.mode == "advanced":  # co-op: every seat scores the team's captures
            counts = [sum(counts)] * len(counts)
        keys = [(i in winners, counts[i]) for i in range(len(counts))]
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "win" if seat in winners else ("loss" if winners or all_lose else "draw")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(counts[seat]), rank=rank))
        state.outcome = Outcome(seats=results, reason=reason)
        self.clear(state)
        return [MatchFinished(outcome=state.outcome)]

    # ----------------------------------------------------------------- spells

    def _draw_spell(self, state: BeastsState, seat: int) -> list[Event]:
        hand = state.players[seat].spells
        reshuffled = False
        if not state.spell_deck:
            if not state.spell_discard:
                return []
            state.spell_deck, state.spell_discard = state.spell_discard, []
            state.rng.shuffle(state.spell_deck)
            reshuffled = True
        card = state.spell_deck.pop()
        hand.append(card)
        return [SpellDrawn(seat=seat, reshuffled=reshuffled, spell=cast("SpellId", card))]

    @staticmethod
    def spell_of(action: SpellAction) -> SpellId:
        """The spell card an action casts."""
        return cast("SpellId", type(action).__struct_config__.tag)

    def _spell_options(self, state: BeastsState, seat: int) -> list[Action]:
        """Every target of every spell in hand (the problem check keeps those castable now)."""
        if not state.spell_cards or not state.players[seat].spells:
            return []
        player = state.players[seat]
        held = set(player.spells)
        options: list[Action] = []
        if "felix_felicis" in held:
            options.append(FelixFelicis())
        if "wingardium_leviosa" in held:
            options.append(WingardiumLeviosa())
        if "revelio" in held:
            options += [Revelio(s) for s, t in enumerate(state.tokens) if t is not None and not state.face_up[s]]
        if "accio" in held:
            options += [Accio(s) for s, t in enumerate(state.tokens) if t in COLOURS and state.face_up[s]]
        if "expelliarmus" in held:
            for target, other in enumerate(state.players):
                if target != seat:
                    options += [Expelliarmus(target, c) for c in COLOURS if other.resources[c] > 0]
        if "portkey" in held:
            options += [Portkey(b) for b in BLUE_CIRCLES if b != player.position]
        return options

    def _spell_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        return "spells are cast during your own turn"

    def _spell_problem(self, state: BeastsState, seat: int, action: SpellAction) -> str | Refusal | None:
        spell = self.spell_of(action)
        name = self.spells[spell].name
        if not state.spell_cards:
            return "this match is played without the Spell Card Variant"
        player = state.players[seat]
        if spell not in player.spells:
            return f"you hold no {name} card"
        if state.spells_played >= SPELLS_PER_TURN:
            return f"you may cast at most {SPELLS_PER_TURN} spells per turn"
        timing = self.spells[spell].timing
        top = self.top(state)
        if top is None or top.kind() not in timing:
            return f"{name} is cast only {_describe_timing(timing)}"
        if isinstance(action, Revelio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] is None or state.face_up[s]:
                return Refusal("Revelio", f"space {s} holds no face-down token")
        elif isinstance(action, Accio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] not in COLOURS or not state.face_up[s]:
                return Refusal("Accio", f"space {s} holds no face-up resource token")
        elif isinstance(action, Expelliarmus):
            target = action.target_seat
            if target == seat or not 0 <= target < len(state.players):
                return Refusal("Expelliarmus", "choose another player's seat")
            if state.players[target].resources[action.colour] <= 0:
                return Refusal("Expelliarmus", f"{seat_name(target)} holds no {action.colour} token")
        elif isinstance(action, Portkey):
            if action.space not in BLUE_CIRCLES:
                return Refusal("Portkey", f"space {action.space} is not a blue-circle space")
            if action.space == player.position:
                return Refusal("Portkey", "you are on that space already")
        return None

    def _cast(self, state: BeastsState, seat: int, action: SpellAction) -> list[Event]:
        spell = self.spell_of(action)
        player = state.players[seat]
        player.spells.remove(spell)
        state.spell_discard.append(spell)
        state.spells_played += 1
        cast_event = SpellCast(seat=seat, spell=spell)
        events: list[Event] = []
        if isinstance(action, FelixFelicis):
            events += self._roll_die(state, DieRoll(seat=seat, purpose="felix"))
        elif isinstance(action, WingardiumLeviosa):
            state.bonus += 2
        elif isinstance(action, Revelio):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            token = state.tokens[action.space]
            assert token is not None
            state.face_up[action.space] = True
            events.append(self._revealed(action.space, token))
        elif isinstance(action, Accio):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            colour = state.tokens[action.space]
            assert colour is not None
            player.resources[colour] += 1
            state.tokens[action.space] = None
            state.face_up[action.space] = False
            events.append(ResourceCollected(seat=seat, colour=cast("Colour", colour), space=action.space))
            events += self._refill(state, action.space)
        elif isinstance(action, Expelliarmus):
            cast_event = SpellCast(seat=seat, spell=spell, target_seat=action.target_seat, colour=action.colour)
            state.players[action.target_seat].resources[action.colour] -= 1
            player.resources[action.colour] += 1
        elif isinstance(action, Portkey):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            events.append(Moved(seat=seat, origin=player.position, destination=action.space))
            player.position = action.space
        return [cast_event, *events, *self._settle(state)]

    # ------------------------------------------------------------------- view

    @staticmethod
    def _revealed(space: int, token: str) -> TokenRevealed:
        if token in COLOURS:
            return TokenRevealed(space=space, state="resource", colour=token)
        return TokenRevealed(space=space, state="creature", creature=token)

    def _space_token(self, state: BeastsState, space: int) -> SpaceToken:
        token = state.tokens[space]
        if token is None:
            return SpaceToken(space, "empty")
        if not state.face_up[space]:
            return SpaceToken(space, "hidden")
        if token in COLOURS:
            return SpaceToken(space, "resource", colour=token)
        return SpaceToken(space, "creature", creature=token)

    def view(self, state: BeastsState, seat: int | None) -> BeastsView:
        """What `seat` (None: a spectator) may know: never face-down tokens, the supply or others' spells."""
        advanced = state.mode == "advanced"
        captured_by = {c: i for i, p in enumerate(state.players) for c in p.captured}
        face_up_on = {
            t: s for s, t in enumerate(state.tokens) if t is not None and state.face_up[s] and t not in COLOURS
        }
        return BeastsView(
            mode=state.mode,
            spell_cards=state.spell_cards,
            viewer=seat,
            board=self.data.board,
            tokens=[self._space_token(state, s) for s in self.data.board.token_spaces],
            players=[
                PlayerView(
                    seat=i,
                    position=p.position,
                    resources=ResourceCounts(**p.resources),
                    captured=list(p.captured),
                    spell_count=len(p.spells),
                    spells=sorted(p.spells) if i == seat else [],
                    character=p.character,
                    actions=self.character(state, i).actions if p.character else 0,
                )
                for i, p in enumerate(state.players)
            ],
            creatures=[
                CreatureCard(
                    id=c.id,
                    name=c.name,
                    cost=self.costs[c.id],
                    captured_by=captured_by.get(c.id),
                    face_up_on=face_up_on.get(c.id),
                )
                for c in self.data.creatures
            ],
            current_seat=state.current,
            prompt=self.prompt(state),
            roll=state.roll,
            steps=state.roll + state.bonus,
            spells_played=state.spells_played,
            spells_per_turn=SPELLS_PER_TURN if state.spell_cards else 0,
            turn=state.turn,
            turn_cap=state.turn_cap,
            supply_size=len(state.supply),
            spell_deck_size=len(state.spell_deck),
            spell_discard=list(state.spell_discard),
            set_aside=ResourceCounts(**{c: state.set_aside.count(c) for c in COLOURS}),
            creatures_to_win=CREATURES_GOAL[len(state.players)] if advanced else CREATURES_TO_WIN[state.mode],
            spell_book=self._spell_book() if state.spell_cards else [],
            outcome=state.outcome,
            **(self.advanced_view(state) if advanced else {}),
        )

    def _spell_book(self) -> list[SpellInfo]:
        return [SpellInfo(s.id, s.name, _describe_timing(s.timing), s.text) for s in self.data.spells]

    def state_from_view(self, view: BeastsView, seat: int | None) -> BeastsState:
        """A state consistent with `view`: unseen tokens and spells dealt in catalogue order."""
        if view.mode == "advanced":
            return self.advanced_state_from_view(view)
        unknown = self._unseen_tokens(view)
        tokens: list[str | None] = [None] * len(self.data.board.spaces)
        face_up = [False] * len(tokens)
        for t in view.tokens:
            if t.state == "hidden":
                tokens[t.space] = unknown.pop()
            elif t.state != "empty":
                tokens[t.space] = t.creature or t.colour
                face_up[t.space] = True
        hands, deck = self._spells_from_view(view, seat)
        kinds: dict[str, type[RollDie] | type[ChooseStop] | type[AfterStop]] = {
            "roll": RollDie,
            "move": ChooseStop,
            "stopped": AfterStop,
        }
        decision = kinds.get(view.prompt.kind)
        return BeastsState(
            mode=view.mode,
            spell_cards=view.spell_cards,
            rng=Rng(0),
            tokens=tokens,
            face_up=face_up,
            supply=unknown,
            players=[
                Player(
                    position=p.position,
                    resources={c: getattr(p.resources, c) for c in COLOURS},
                    captured=list(p.captured),
                    spells=hands[i],
                )
                for i, p in enumerate(view.players)
            ],
            current=view.current_seat,
            decisions=[decision(must=list(view.prompt.must))] if decision else [],
            turn=view.turn,
            turn_cap=view.turn_cap,
            roll=view.roll,
            bonus=view.steps - view.roll,
            spells_played=view.spells_played,
            spell_deck=deck,
            spell_discard=list(view.spell_discard),
            set_aside=[c for c in COLOURS for _ in range(getattr(view.set_aside, c))],
            outcome=view.outcome,
        )

    def _unseen_tokens(self, view: BeastsView) -> list[str]:
        """The tokens `view` does not show (face down on the board or in the supply), in catalogue order."""
        unknown = self.data.all_tokens()
        seen: list[str] = []
        for token in view.tokens:
            if token.state == "creature" and token.creature:
                seen.append(token.creature)
            elif token.state == "resource" and token.colour:
                seen.append(token.colour)
        for player in view.players:
            seen += player.captured
            seen += [c for c in COLOURS for _ in range(getattr(player.resources, c))]
        seen += [c for c in COLOURS for _ in range(getattr(view.set_aside, c))]
        for known in seen:
            unknown.remove(known)
        hidden = [t.space for t in view.tokens if t.state == "hidden"]
        if len(unknown) != len(hidden) + view.supply_size:
            raise ValueError("the view's token counts do not add up")
        return unknown

    def _spells_from_view(self, view: BeastsView, seat: int | None) -> tuple[list[list[str]], list[str]]:
        """Every seat's hand of spells and the deck: the others' hands and the deck dealt from the unseen cards."""
        hands: list[list[str]] = [list(p.spells) for p in view.players]
        if not view.spell_cards:
            return hands, []
        unseen = self.data.spell_deck()
        own = view.players[seat].spells if seat is not None else []  # a spectator sees no hand
        for spell in [*own, *view.spell_discard]:
            unseen.remove(spell)
        for i, p in enumerate(view.players):
            if i != seat:
                hands[i] = [unseen.pop() for _ in range(p.spell_count)]
        return hands, unseen

    # ------------------------------------------------------------------ words


def _describe(counts: Mapping[Any, int]) -> str:
    parts = [f"{n} {c}" for c, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _describe_timing(timing: tuple[str, ...]) -> str:
    return " or ".join(TIMING_WORDS[t] for t in timing)
