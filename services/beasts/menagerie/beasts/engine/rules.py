"""The rules of modes I and II of the Fantastic Beasts board game (see RULES.md).

A turn is a short sequence of decisions: roll (spells may be cast first), choose
where to stop, then — in mode II — capture a creature you can pay for, cast spells
or end the turn. When ending the turn is the only thing left to do, it ends by
itself. Every refusal names the rule it enforces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

import msgspec

from menagerie.beasts.engine.board import Routes
from menagerie.beasts.engine.data import BLUE_CIRCLES, COLOURS, Colour, GameData, load_data
from menagerie.beasts.engine.model import (
    Accio,
    Action,
    BeastsState,
    BeastsView,
    Capture,
    CreatureCard,
    EndTurn,
    Expelliarmus,
    FelixFelicis,
    Mode,
    Move,
    Player,
    PlayerView,
    Portkey,
    ResourceCounts,
    Revelio,
    Roll,
    SpaceToken,
    WingardiumLeviosa,
)
from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo, Outcome, ResultKind, SeatResult, ToAct
from menagerie.rules.errors import IllegalAction
from menagerie.rules.rng import Rng
from menagerie.shared.engine import Event

SPELLS_PER_TURN = 3
HAND_LIMIT = 5
STARTING_SPELLS = 2
ROUND_CAP = 60
CREATURES_TO_WIN = {"capture": 3, "training": 2}

SpellAction = FelixFelicis | WingardiumLeviosa | Revelio | Accio | Expelliarmus | Portkey


class BeastsEngine:
    """Modes I (`capture`) and II (`training`, optionally with spell cards)."""

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
        ),
    )
    state_type: ClassVar[type[Any]] = BeastsState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[type[Any]] = BeastsView

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_data()
        self.routes = Routes(self.data.board)
        self.creatures = {c.id: c for c in self.data.creatures}
        self.costs = {c.id: ResourceCounts(**c.cost) for c in self.data.creatures}
        self.spell_names: dict[str, str] = {s.id: s.name for s in self.data.spells}
        self.spell_timing: dict[str, tuple[str, ...]] = {s.id: s.timing for s in self.data.spells}

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[BeastsState, list[Event]]:
        """Tokens face down on every space, the rest a face-down supply; a random first seat."""
        options = self.info.validate(setup)
        rng = Rng(seed)
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
            phase="roll",
            turn=0,
            turn_cap=ROUND_CAP * setup.seats,
        )
        events = [Event("match_started", {"first_seat": first, "supply_size": len(tokens)})]
        if spell_cards:
            state.spell_deck = self.data.spell_deck()
            rng.shuffle(state.spell_deck)
            for offset in range(setup.seats):
                seat = (first + offset) % setup.seats
                for _ in range(STARTING_SPELLS):
                    events += self._draw_spell(state, seat)
        events += self._start_turn(state)
        return state, events

    # --------------------------------------------------------------- contract

    def to_act(self, state: BeastsState) -> ToAct:
        """The current seat, until the match ends."""
        return ToAct() if state.outcome else ToAct(must=(state.current,))

    def outcome(self, state: BeastsState) -> Outcome | None:
        """The result once the match is over."""
        return state.outcome

    def legal_actions(self, state: BeastsState, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        if state.outcome is not None or seat != state.current:
            return []
        player = state.players[seat]
        actions: list[Action] = []
        if state.phase == "roll":
            actions.append(Roll())
        elif state.phase == "move":
            actions += [Move(to) for to in self.routes.destinations(player.position, state.roll + state.bonus)]
        elif state.phase == "stopped":
            if self._capture_problem(state, seat) is None:
                actions.append(Capture())
            actions.append(EndTurn())
        actions += self._castable(state, seat)
        return actions

    def check(self, state: BeastsState, seat: int, action: Action) -> None:
        """Raises IllegalAction, naming the rule, unless `action` is legal for `seat` now."""
        if state.outcome is not None:
            raise IllegalAction("End of the game", "the match is over")
        if not 0 <= seat < len(state.players):
            raise IllegalAction("Seats", f"there is no seat {seat}")
        if seat != state.current:
            raise IllegalAction("Turn order", f"it is seat {state.current}'s turn, not seat {seat}'s")
        phase = state.phase
        if isinstance(action, Roll):
            if phase != "roll":
                raise IllegalAction("Rolling", "you have already rolled the die this turn")
        elif isinstance(action, Move):
            self._check_move(state, seat, action.to)
        elif isinstance(action, Capture):
            problem = self._capture_problem(state, seat)
            if problem is not None:
                raise IllegalAction("Capture", problem)
        elif isinstance(action, EndTurn):
            if phase != "stopped":
                raise IllegalAction("End of turn", "roll the die and move before you end your turn")
        else:
            self._check_spell(state, seat, action)

    def apply(self, state: BeastsState, seat: int, action: Action) -> list[Event]:
        """Validates `action`, then performs it; returns the events."""
        self.check(state, seat, action)
        if isinstance(action, Roll):
            state.roll = state.rng.roll()
            state.phase = "move"
            return [Event("die_rolled", {"seat": seat, "value": state.roll})]
        if isinstance(action, Move):
            player = state.players[seat]
            events = [Event("moved", {"seat": seat, "origin": player.position, "destination": action.to})]
            player.position = action.to
            return events + self._stop(state, seat)
        if isinstance(action, Capture):
            return self._capture(state, seat)
        if isinstance(action, EndTurn):
            return self._end_turn(state)
        return self._cast(state, seat, action)

    # --------------------------------------------------------------- movement

    def _check_move(self, state: BeastsState, seat: int, to: int) -> None:
        if state.phase == "roll":
            raise IllegalAction("Movement", "roll the die before you move")
        if state.phase != "move":
            raise IllegalAction("Movement", "you have already moved this turn")
        if not 0 <= to < len(state.tokens):
            raise IllegalAction("Movement", f"there is no space {to}")
        origin = state.players[seat].position
        if to == origin:
            raise IllegalAction("Movement", "you must move at least one step")
        steps = state.roll + state.bonus
        distance = self.routes.distance[origin][to]
        if distance > steps:
            raise IllegalAction("Movement", f"space {to} is {distance} steps away; you may move at most {steps}")

    def _stop(self, state: BeastsState, seat: int) -> list[Event]:
        """Reveal the token where the seat stopped and resolve it."""
        player = state.players[seat]
        space = player.position
        token = state.tokens[space]
        events: list[Event] = []
        if token is not None and not state.face_up[space]:
            state.face_up[space] = True
            events.append(Event("token_revealed", {"space": space, **self._token_fields(token)}))
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
            events.append(
                Event("resource_collected", {"seat": seat, "colour": token, "space": space, "set_aside": set_aside})
            )
            events += self._refill(state, space)
        elif state.mode == "capture":
            state.tokens[space] = None
            state.face_up[space] = False
            player.captured.append(token)
            events.append(Event("creature_captured", {"seat": seat, "creature": token, "space": space, "paid": {}}))
            events += self._refill(state, space)
            finished = self._check_end(state, seat)
            if finished:
                return events + finished
        state.phase = "stopped"
        return events + self._settle(state)

    def _refill(self, state: BeastsState, space: int) -> list[Event]:
        if not state.supply:
            return [Event("space_left_empty", {"space": space})]
        state.tokens[space] = state.supply.pop()
        state.face_up[space] = False
        return [Event("token_placed", {"space": space})]

    def _settle(self, state: BeastsState) -> list[Event]:
        """Ends the turn by itself once ending it is the only thing left to do."""
        if (
            state.phase == "stopped"
            and state.outcome is None
            and self.legal_actions(state, state.current) == [EndTurn()]
        ):
            return self._end_turn(state)
        return []

    # ---------------------------------------------------------------- capture

    def _capture_problem(self, state: BeastsState, seat: int) -> str | None:
        """Why `seat` cannot capture now, or None when it can."""
        if state.mode == "capture":
            return "in mode I a creature is captured as soon as it is revealed"
        if state.phase != "stopped":
            return "you capture after stopping on the creature's space"
        player = state.players[seat]
        space = player.position
        token = state.tokens[space]
        if token is None or token in COLOURS or not state.face_up[space]:
            return "there is no face-up creature on your space"
        shortfall = self._shortfall(player, token)
        if shortfall:
            creature = self.creatures[token]
            return f"the {creature.name} needs {_describe(creature.cost)}; you lack {shortfall}"
        return None

    def _shortfall(self, player: Player, creature_id: str) -> str:
        """What the player cannot pay for the creature, even with wild tokens ('' if they can)."""
        cost = self.creatures[creature_id].cost
        missing = {c: max(0, n - player.resources[c]) for c, n in cost.items()}
        wild_needed = sum(missing.values())
        if wild_needed <= player.resources["wild"]:
            return ""
        return f"{wild_needed - player.resources['wild']} more token(s) ({_describe(missing)} without wild tokens)"

    def _capture(self, state: BeastsState, seat: int) -> list[Event]:
        player = state.players[seat]
        space = player.position
        creature = state.tokens[space]
        assert creature is not None
        paid = dict.fromkeys(COLOURS, 0)
        for colour, need in self.creatures[creature].cost.items():
            own = min(need, player.resources[colour])
            paid[colour] += own
            paid["wild"] += need - own
        returned = []
        for colour, count in paid.items():
            player.resources[colour] -= count
            returned += [colour] * count
        player.captured.append(creature)
        state.tokens[space] = None
        state.face_up[space] = False
        events = [Event("creature_captured", {"seat": seat, "creature": creature, "space": space, "paid": paid})]
        state.supply += returned
        state.rng.shuffle(state.supply)
        events.append(Event("supply_shuffled", {"returned": len(returned), "size": len(state.supply)}))
        events += self._refill(state, space)
        finished = self._check_end(state, seat)
        return events + (finished or self._end_turn(state))

    # ------------------------------------------------------------ turn & end

    def _start_turn(self, state: BeastsState) -> list[Event]:
        state.turn += 1
        state.phase = "roll"
        state.roll = state.bonus = state.spells_played = 0
        events = [Event("turn_started", {"seat": state.current, "turn": state.turn})]
        if state.spell_cards:
            events += self._draw_spell(state, state.current)
        return events

    def _end_turn(self, state: BeastsState) -> list[Event]:
        events = [Event("turn_ended", {"seat": state.current})]
        if state.turn >= state.turn_cap:
            return events + self._finish(state, [], f"the turn cap of {state.turn_cap} turns was reached: a draw")
        state.current = (state.current + 1) % len(state.players)
        return events + self._start_turn(state)

    def _check_end(self, state: BeastsState, seat: int) -> list[Event]:
        """Ends the match after `seat` captured, if that wins it."""
        target = CREATURES_TO_WIN[state.mode]
        if len(state.players[seat].captured) >= target:
            return self._finish(state, [seat], f"seat {seat} captured {target} creatures")
        captured = sum(len(p.captured) for p in state.players)
        if state.mode == "capture" and captured == len(self.creatures):
            winners = [i for i, p in enumerate(state.players) if len(p.captured) == 2]
            listed = ", ".join(str(w) for w in winners)
            return self._finish(state, winners, f"all creatures are captured; seats {listed} captured 2 each")
        return []

    def _finish(self, state: BeastsState, winners: list[int], reason: str) -> list[Event]:
        counts = [len(p.captured) for p in state.players]
        keys = [(i in winners, counts[i]) for i in range(len(counts))]
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "draw" if not winners else ("win" if seat in winners else "loss")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(counts[seat]), rank=rank))
        state.outcome = Outcome(seats=results, reason=reason)
        state.phase = "finished"
        return [Event("match_finished", {"outcome": msgspec.to_builtins(state.outcome)})]

    # ----------------------------------------------------------------- spells

    def _draw_spell(self, state: BeastsState, seat: int) -> list[Event]:
        hand = state.players[seat].spells
        if len(hand) >= HAND_LIMIT:
            return []
        reshuffled = False
        if not state.spell_deck:
            if not state.spell_discard:
                return []
            state.spell_deck, state.spell_discard = state.spell_discard, []
            state.rng.shuffle(state.spell_deck)
            reshuffled = True
        card = state.spell_deck.pop()
        hand.append(card)
        return [Event("spell_drawn", {"seat": seat, "reshuffled": reshuffled}, private={seat: {"spell": card}})]

    def _castable(self, state: BeastsState, seat: int) -> list[Action]:
        if not state.spell_cards or state.spells_played >= SPELLS_PER_TURN:
            return []
        player = state.players[seat]
        out: list[Action] = []
        for spell in sorted(set(player.spells)):
            if state.phase not in self.spell_timing[spell]:
                continue
            if spell == "felix_felicis":
                out.append(FelixFelicis())
            elif spell == "wingardium_leviosa":
                out.append(WingardiumLeviosa())
            elif spell == "revelio":
                out += [Revelio(s) for s, t in enumerate(state.tokens) if t is not None and not state.face_up[s]]
            elif spell == "accio":
                out += [Accio(s) for s, t in enumerate(state.tokens) if t in COLOURS and state.face_up[s]]
            elif spell == "expelliarmus":
                for target, other in enumerate(state.players):
                    if target != seat:
                        out += [Expelliarmus(target, c) for c in COLOURS if other.resources[c] > 0]
            elif spell == "portkey":
                out += [Portkey(b) for b in BLUE_CIRCLES if b != player.position]
        return out

    def _check_spell(self, state: BeastsState, seat: int, action: SpellAction) -> None:
        spell = type(action).__struct_config__.tag
        assert isinstance(spell, str)
        name = self.spell_names[spell]
        if not state.spell_cards:
            raise IllegalAction("Spell cards", "this match is played without the Spell Card Variant")
        player = state.players[seat]
        if spell not in player.spells:
            raise IllegalAction("Spell cards", f"you hold no {name} card")
        if state.spells_played >= SPELLS_PER_TURN:
            raise IllegalAction("Spell cards", f"you may cast at most {SPELLS_PER_TURN} spells per turn")
        timing = self.spell_timing[spell]
        if state.phase not in timing:
            raise IllegalAction("Spell cards", f"{name} is cast only {_describe_timing(timing)}")
        if isinstance(action, Revelio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] is None or state.face_up[s]:
                raise IllegalAction("Revelio", f"space {s} holds no face-down token")
        elif isinstance(action, Accio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] not in COLOURS or not state.face_up[s]:
                raise IllegalAction("Accio", f"space {s} holds no face-up resource token")
        elif isinstance(action, Expelliarmus):
            target = action.target_seat
            if target == seat or not 0 <= target < len(state.players):
                raise IllegalAction("Expelliarmus", "choose another player's seat")
            if state.players[target].resources[action.colour] <= 0:
                raise IllegalAction("Expelliarmus", f"seat {target} holds no {action.colour} token")
        elif isinstance(action, Portkey):
            if action.space not in BLUE_CIRCLES:
                raise IllegalAction("Portkey", f"space {action.space} is not a blue-circle space")
            if action.space == player.position:
                raise IllegalAction("Portkey", "you are on that space already")

    def _cast(self, state: BeastsState, seat: int, action: SpellAction) -> list[Event]:
        spell = type(action).__struct_config__.tag
        assert isinstance(spell, str)
        player = state.players[seat]
        player.spells.remove(spell)
        state.spell_discard.append(spell)
        state.spells_played += 1
        cast: dict[str, Any] = {"seat": seat, "spell": spell}
        events: list[Event] = []
        if isinstance(action, FelixFelicis):
            state.roll = state.rng.roll()
            events.append(Event("die_rolled", {"seat": seat, "value": state.roll}))
        elif isinstance(action, WingardiumLeviosa):
            state.bonus += 2
        elif isinstance(action, Revelio):
            cast["space"] = action.space
            token = state.tokens[action.space]
            assert token is not None
            state.face_up[action.space] = True
            events.append(Event("token_revealed", {"space": action.space, **self._token_fields(token)}))
        elif isinstance(action, Accio):
            cast["space"] = action.space
            colour = state.tokens[action.space]
            assert colour is not None
            player.resources[colour] += 1
            state.tokens[action.space] = None
            state.face_up[action.space] = False
            events.append(
                Event("resource_collected", {"seat": seat, "colour": colour, "space": action.space, "set_aside": False})
            )
            events += self._refill(state, action.space)
        elif isinstance(action, Expelliarmus):
            cast.update(target_seat=action.target_seat, colour=action.colour)
            state.players[action.target_seat].resources[action.colour] -= 1
            player.resources[action.colour] += 1
        elif isinstance(action, Portkey):
            cast["space"] = action.space
            events.append(Event("moved", {"seat": seat, "origin": player.position, "destination": action.space}))
            player.position = action.space
        return [Event("spell_cast", cast), *events, *self._settle(state)]

    # ------------------------------------------------------------------- view

    @staticmethod
    def _token_fields(token: str) -> dict[str, str]:
        if token in COLOURS:
            return {"state": "resource", "colour": token}
        return {"state": "creature", "creature": token}

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
            phase=state.phase,
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
            to_act=list(self.to_act(state).seats()),
            creatures_to_win=CREATURES_TO_WIN[state.mode],
            outcome=state.outcome,
        )

    def determinize(self, view: BeastsView, seat: int, seed: int) -> BeastsState:
        """A full state consistent with `view`: hidden tokens, supply and others' spells sampled."""
        rng = Rng(seed)
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
        rng.shuffle(unknown)
        hidden = [t.space for t in view.tokens if t.state == "hidden"]
        if len(unknown) != len(hidden) + view.supply_size:
            raise ValueError("the view's token counts do not add up")
        tokens: list[str | None] = [None] * len(self.data.board.spaces)
        face_up = [False] * len(tokens)
        for t in view.tokens:
            if t.state == "hidden":
                tokens[t.space] = unknown.pop()
            elif t.state != "empty":
                tokens[t.space] = t.creature or t.colour
                face_up[t.space] = True
        hands: list[list[str]] = [list(p.spells) for p in view.players]
        deck: list[str] = []
        if view.spell_cards:
            unseen = self.data.spell_deck()
            for spell in [*view.players[seat].spells, *view.spell_discard]:
                unseen.remove(spell)
            rng.shuffle(unseen)
            for i, p in enumerate(view.players):
                if i != seat:
                    hands[i] = [unseen.pop() for _ in range(p.spell_count)]
            deck = unseen
        return BeastsState(
            mode=view.mode,
            spell_cards=view.spell_cards,
            rng=Rng(rng.next_u64()),
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
            phase=view.phase,
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


def _describe(counts: Mapping[Colour, int]) -> str:
    parts = [f"{n} {c}" for c, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _describe_timing(timing: tuple[str, ...]) -> str:
    words = {"roll": "before rolling", "move": "after rolling, before moving", "stopped": "after stopping"}
    return " or ".join(words[t] for t in timing)
