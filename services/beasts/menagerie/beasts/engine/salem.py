"""Mode III, Advanced Magizoology: the cooperative game against the Second Salemers (see RULES.md).

A part of BeastsEngine (a mixin): setup steps 1–7, the turn of action points (Move,
Fight, Collect, and the free pooled Capture), the events and Second Salemer cards, and
the end of a round, when the location bar slides and a new Salemer appears. Every card
effect applies without a decision; the only decisions are a character each, then each
turn's actions. Line numbers (l.) are the rulebook's.
"""

from __future__ import annotations

from typing import Any

from menagerie.beasts.engine.costs import deficit, resources_of
from menagerie.beasts.engine.data import BLUE_CIRCLES, COLOURS, Colour
from menagerie.beasts.engine.model import (
    ActionsChanged,
    BarCleared,
    BarRefilled,
    BeastsState,
    BeastsView,
    Capture,
    CharacterChoice,
    CharacterChosen,
    CharacterInfo,
    ChooseCharacter,
    Collect,
    CreaturePlaced,
    CreatureRecaptured,
    DieRoll,
    Event,
    EventRevealed,
    Fight,
    FightRolled,
    Moved,
    Player,
    ResourceCollected,
    ResourceCounts,
    ResourceReturned,
    RoundEnded,
    SalemCardInfo,
    SalemerPlaced,
    SecondSalemerRevealed,
    Step,
    TurnActions,
    TurnEnded,
    TurnStarted,
)
from menagerie.beasts.engine.parts import EngineParts
from menagerie.beasts.engine.salem_data import (
    BAR,
    CREATURES_GOAL,
    FIGHT_WINS_FROM,
    LOSS_AT,
    STARTING_SALEMERS,
    Actions,
    ApparateAbility,
    Calm,
    ClearBar,
    CollectAbility,
    Effect,
    FightAbility,
    Gain,
    Lose,
    NewSalemers,
    Track,
    describe_ability,
    describe_effect,
)
from menagerie.rules.decisions import Refusal
from menagerie.rules.rng import Rng

SECOND_SALEMER_SPACE = len(BAR)  # the bar's last slot: the space of the Second Salemer (l.149)
FIGHT, COLLECT = Fight(), Collect()  # actions are frozen: made once, listed at every decision


class AdvancedMagizoology(EngineParts):
    """Mode III's rules, as a part of BeastsEngine (which provides what parts.EngineParts declares)."""

    # ------------------------------------------------------------------ setup

    def _setup_advanced(self, state: BeastsState, rng: Rng) -> list[Event]:
        """Setup steps 2–7 (l.101–117); then each seat chooses a character (step 1), from the first seat."""
        seats = len(state.players)
        salem = self.salem
        state.second_deck = [c.id for c in salem.second_salemers]
        rng.shuffle(state.second_deck)
        state.location_deck = [c.id for c in salem.locations]
        rng.shuffle(state.location_deck)
        state.event_deck = salem.event_deck(state.difficulty)
        rng.shuffle(state.event_deck)
        state.pool = {colour: count for colour, count in self.data.resources.items()}
        state.salemer_supply = salem.track.salemer_tokens
        state.salemers = [False] * len(self.data.board.spaces)
        state.tokens = [None] * len(self.data.board.spaces)
        state.face_up = [False] * len(self.data.board.spaces)
        state.supply = []
        events: list[Event] = []
        # Step 5: creatures on as many revealed locations.
        creatures = [c.id for c in self.data.creatures]
        rng.shuffle(creatures)
        wanted = CREATURES_GOAL[seats]
        revealed = [state.location_deck.pop() for _ in range(wanted)]
        placed = creatures[:wanted]
        rng.shuffle(placed)  # "Place the creature tokens randomly on these locations"
        events += self.place_creatures(state, placed, revealed)
        # Step 6: Salemers on the next 10 or 12 locations; every revealed card back under the deck.
        salem_cards = [state.location_deck.pop() for _ in range(STARTING_SALEMERS[seats])]
        events += self.place_salemers(state, salem_cards)
        returned = revealed + salem_cards
        rng.shuffle(returned)
        state.location_deck = returned + state.location_deck  # the bottom is the front (the top is the last)
        # Step 7: five cards on the bar, left to right.
        state.bar = [state.location_deck.pop() for _ in BAR] + [0]
        events.append(BarRefilled(bar=state.bar[: len(BAR)]))
        self.restart(state, CharacterChoice(must=[state.current]))
        return events

    def place_creatures(self, state: BeastsState, creatures: list[str], cards: list[int]) -> list[Event]:
        """Setup step 5: each creature token face up on the space of the location card beside it."""
        events: list[Event] = []
        for creature, space in zip(creatures, cards, strict=True):
            state.tokens[space] = creature
            state.face_up[space] = True
            events.append(CreaturePlaced(creature=creature, space=space))
        return events

    def place_salemers(self, state: BeastsState, cards: list[int]) -> list[Event]:
        """Setup step 6: a Salemer token on the space of each revealed location card."""
        events: list[Event] = []
        for space in cards:
            events += self._place_salemer(state, space)
        return events

    def _character_options(self, state: BeastsState, seat: int) -> list[ChooseCharacter]:
        taken = {p.character for p in state.players}
        return [ChooseCharacter(c.id) for c in self.salem.characters if c.id not in taken]

    def _choose_character(self, state: BeastsState, seat: int, action: ChooseCharacter) -> list[Event]:
        state.players[seat].character = action.character
        events: list[Event] = [CharacterChosen(seat=seat, character=action.character)]
        following = (seat + 1) % len(state.players)
        if following != state.first:
            self.restart(state, CharacterChoice(must=[following]))
            return events
        state.current = state.first
        return events + self._start_advanced_turn(state)

    def character(self, state: BeastsState, seat: int) -> Any:
        """The seat's character card."""
        return next(c for c in self.salem.characters if c.id == state.players[seat].character)

    # ------------------------------------------------------------------ the turn

    def _start_advanced_turn(self, state: BeastsState) -> list[Event]:
        state.turn += 1
        state.actions_left = self.character(state, state.current).actions
        state.collect_bonus_used = False
        state.apparate_used = False
        self.restart(state, TurnActions(must=[state.current]))
        return [TurnStarted(seat=state.current, turn=state.turn)]

    def _spend(self, state: BeastsState) -> list[Event]:
        """One action spent; with none left, the turn ends (unless a free capture is still possible)."""
        state.actions_left -= 1
        return self._maybe_end(state)

    def _maybe_end(self, state: BeastsState) -> list[Event]:
        if state.outcome is not None or state.actions_left > 0:
            return []
        if self._capture_advanced_problem(state, state.current) is None:
            return []  # capturing costs no action: the seat may still capture, then end
        return self._end_advanced_turn(state)

    def _end_advanced_turn(self, state: BeastsState) -> list[Event]:
        events: list[Event] = [TurnEnded(seat=state.current)]
        if state.turn >= state.turn_cap:
            return events + self._round_cap(state)
        state.current = (state.current + 1) % len(state.players)
        if state.current == state.first:
            events += self._end_round(state)
            if state.outcome is not None:
                return events
        return events + self._start_advanced_turn(state)

    def _round_cap(self, state: BeastsState) -> list[Event]:
        """The safety cap (RULES.md): a team still playing after so many rounds loses, by l.157's loss."""
        rounds = state.turn_cap // len(state.players)
        reason = f"the Salemers exposed the wizarding world after {rounds} rounds (the round cap)"
        return self._finish(state, [], reason, all_lose=True)

    def on_salemer(self, state: BeastsState, seat: int) -> bool:
        """Whether a Salemer token lies on the seat's space (it must fight it before anything else, l.127–129)."""
        return state.salemers[state.players[seat].position]

    def must_fight(self, state: BeastsState, seat: int) -> Refusal | None:
        """l.127–129: with actions left on a Salemer's space, fighting it is the only legal action."""
        if state.actions_left <= 0:
            return None
        space = state.players[seat].position
        if not state.salemers[space]:  # on_salemer, read here at once: every listing of legal actions asks
            return None
        return Refusal("Fighting Salemers", f"you must fight the Salemer on space {space} before anything else")

    def _end_turn_problem(self, state: BeastsState, seat: int) -> Refusal | None:
        """Mode III: a turn may end with actions left, but not on a Salemer's space (l.127–129)."""
        return self.must_fight(state, seat) if state.mode == "advanced" else None

    # --- Move

    def step_destinations(self, state: BeastsState, seat: int) -> list[int]:
        """The next spaces by street, and from a blue circle the other blue circles (l.125)."""
        here = state.players[seat].position
        return list(self.routes.adjacency[here])

    def _step_options(self, state: BeastsState, seat: int) -> list[Step]:
        if state.actions_left <= 0 or self.on_salemer(state, seat):
            return []
        return [self._steps[to] for to in self.routes.adjacency[state.players[seat].position]]

    def _step_problem(self, state: BeastsState, seat: int, action: Step) -> str | Refusal | None:
        if (fight := self.must_fight(state, seat)) is not None:
            return fight  # "you must stop on that space and fight it; otherwise you may not continue moving"
        if state.actions_left <= 0:
            return "you have no actions left this turn"
        if action.to not in self.step_destinations(state, seat):
            here = state.players[seat].position
            return f"space {action.to} is not next to space {here} (nor a blue circle you may Apparate to)"
        return None

    def _step(self, state: BeastsState, seat: int, action: Step) -> list[Event]:
        player = state.players[seat]
        origin = player.position
        player.position = action.to
        events: list[Event] = [Moved(seat=seat, origin=origin, destination=action.to)]
        apparated = origin in BLUE_CIRCLES and action.to in BLUE_CIRCLES and action.to not in self._streets(origin)
        if apparated and isinstance(self.character(state, seat).ability, ApparateAbility) and not state.apparate_used:
            state.apparate_used = True  # once per turn: free Apparates back and forth would never end a turn
            return events + self._maybe_end(state)  # the character Apparates for free
        return events + self._spend(state)

    def _streets(self, space: int) -> tuple[int, ...]:
        return self.data.board.spaces[space].neighbours

    # --- Fight

    def wins_from(self, state: BeastsState, seat: int) -> int:
        """The lowest roll that defeats a Salemer for this seat's character (3, or its Trait's)."""
        ability = self.character(state, seat).ability
        return ability.wins_from if isinstance(ability, FightAbility) else FIGHT_WINS_FROM

    def _fight_options(self, state: BeastsState, seat: int) -> list[Fight]:
        return [FIGHT] if state.actions_left > 0 and self.on_salemer(state, seat) else []

    def _fight_problem(self, state: BeastsState, seat: int, action: Fight) -> str | None:
        if not self.on_salemer(state, seat):
            return "there is no Salemer on your space"
        if state.actions_left <= 0:
            return "you have no actions left this turn"
        return None

    def _fight(self, state: BeastsState, seat: int, action: Fight) -> list[Event]:
        """A fight costs an action and rolls the die (a chance node; `_fought` applies what it shows)."""
        return self._roll_die(state, DieRoll(seat=seat, purpose="fight"))

    def _fought(self, state: BeastsState, seat: int, value: int) -> list[Event]:
        """The fight's die shows `value`: 3–6 (2–6 with the fight ability) defeats the Salemer (l.127)."""
        self.restart(state, TurnActions(must=[seat]))  # the turn goes on unless this fight ends it
        space = state.players[seat].position
        won = value >= self.wins_from(state, seat)
        events: list[Event] = [FightRolled(seat=seat, space=space, value=value, won=won)]
        state.actions_left -= 1  # the action is spent before its event, which may take actions away
        if won:
            state.salemers[space] = False
            state.salemer_supply += 1
            events += self._reveal_event(state, seat)
        return events + self._maybe_end(state)

    # --- Collect

    def bar_slot(self, state: BeastsState, seat: int) -> int | None:
        """The bar space holding the card of the seat's location, if it lies there (l.131)."""
        space = state.players[seat].position
        for slot, card in enumerate(state.bar[: len(BAR)]):
            if card and card == space:  # 0 is an empty bar space, never the start space's card
                return slot
        return None

    def _collect_options(self, state: BeastsState, seat: int) -> list[Collect]:
        return [COLLECT] if self._collect_problem(state, seat, COLLECT) is None else []

    def _collect_problem(self, state: BeastsState, seat: int, action: Collect) -> str | Refusal | None:
        if (fight := self.must_fight(state, seat)) is not None:
            return fight
        if state.actions_left <= 0:
            return "you have no actions left this turn"
        slot = self.bar_slot(state, seat)
        if slot is None:
            return "your location's card is not on the location bar (l.131)"
        if state.pool.get(BAR[slot], 0) <= 0:
            return f"no {BAR[slot]} resource token is left in the supply"
        return None

    def _collect(self, state: BeastsState, seat: int, action: Collect) -> list[Event]:
        slot = self.bar_slot(state, seat)
        assert slot is not None
        colour: Colour = BAR[slot]
        player = state.players[seat]
        taken = 1
        if isinstance(self.character(state, seat).ability, CollectAbility) and not state.collect_bonus_used:
            state.collect_bonus_used = True
            taken = 2
        events: list[Event] = []
        for _ in range(taken):
            if state.pool.get(colour, 0) > 0:
                state.pool[colour] -= 1
                player.resources[colour] += 1
                events.append(ResourceCollected(seat=seat, colour=colour, space=player.position))
        state.location_deck.insert(0, state.bar[slot])  # face down under the deck; the space stays empty
        state.bar[slot] = 0
        state.actions_left -= 1  # the action is spent before its event, which may take actions away
        events += self._reveal_event(state, seat)
        return events + self._maybe_end(state)

    # --- Capture (no action)

    def capture_team(self, state: BeastsState, seat: int) -> list[int]:
        """The players standing on the seat's space, the seat first: whose resources a capture there pools."""
        here = state.players[seat].position
        others = [i for i, p in enumerate(state.players) if p.position == here and i != seat]
        return [seat, *others]

    def pooled(self, state: BeastsState, seats: list[int]) -> dict[str, int]:
        """The resources of these players together."""
        return {c: sum(state.players[s].resources[c] for s in seats) for c in COLOURS}

    def _capture_advanced_problem(self, state: BeastsState, seat: int) -> str | None:
        player = state.players[seat]
        creature = state.tokens[player.position]
        if creature is None or creature not in self.cost_tuples:
            return "there is no creature on your space"
        if self.on_salemer(state, seat):
            return "a Salemer is on your space: fight it first (l.129)"
        team = self.capture_team(state, seat)
        lacking = deficit(resources_of(self.pooled(state, team)), self.cost_tuples[creature])
        if lacking:
            name = self.creatures[creature].name
            return f"the players on this space lack {lacking} resource(s) for the {name}; gather there together (l.137)"
        return None

    def _capture_advanced(self, state: BeastsState, seat: int, action: Capture) -> list[Event]:
        """Pay from the players on the space, the capturer first (own colours, then wild), l.137–139."""
        space = state.players[seat].position
        creature = state.tokens[space]
        assert creature is not None
        need = list(self.cost_tuples[creature])
        paid = dict.fromkeys(COLOURS, 0)
        team = self.capture_team(state, seat)
        for colour_index, colour in enumerate(COLOURS[:4]):
            for member in team:
                held = state.players[member].resources
                own = min(need[colour_index], held[colour])
                held[colour] -= own
                paid[colour] += own
                need[colour_index] -= own
        for member in team:
            held = state.players[member].resources
            use = min(sum(need), held["wild"])
            held["wild"] -= use
            paid["wild"] += use
            for i in range(4):
                covered = min(need[i], use)
                need[i] -= covered
                use -= covered
        assert sum(need) == 0, "a capture is only offered when the pooled resources pay for it"
        for colour, count in paid.items():
            state.pool[colour] = state.pool.get(colour, 0) + count  # "returned to the supply"
        state.players[seat].captured.append(creature)
        state.tokens[space] = None
        state.face_up[space] = False
        events: list[Event] = [
            CreatureRecaptured(seats=sorted(team), creature=creature, space=space, paid=ResourceCounts(**paid))
        ]
        goal = CREATURES_GOAL[len(state.players)]
        if self.team_captured(state) >= goal:
            return events + self._finish(state, list(range(len(state.players))), f"the team captured {goal} creatures")
        return events + self._maybe_end(state)

    @staticmethod
    def team_captured(state: BeastsState) -> int:
        """Creatures the team has captured."""
        return sum(len(p.captured) for p in state.players)

    # ------------------------------------------------------------------ cards

    def _reveal_event(self, state: BeastsState, seat: int) -> list[Event]:
        """Reveal the top event card, apply it, return it under its deck (l.127, l.131, l.135)."""
        card = state.event_deck.pop()
        state.event_deck.insert(0, card)
        effect = self.salem.event(card).effect
        return [EventRevealed(seat=seat, card=card), *self._apply(state, seat, effect)]

    def _apply(self, state: BeastsState, seat: int, effect: Effect) -> list[Event]:
        """A card's effect, without a decision (see salem_data for the vocabulary)."""
        events: list[Event] = []
        if isinstance(effect, Calm):
            return events
        if isinstance(effect, Gain):
            if state.pool.get(effect.colour, 0) > 0:
                state.pool[effect.colour] -= 1
                state.players[seat].resources[effect.colour] += 1
                events.append(ResourceCollected(seat=seat, colour=effect.colour, space=state.players[seat].position))
        elif isinstance(effect, Lose):
            for loser in range(len(state.players)) if effect.everyone else [seat]:
                for _ in range(effect.count):
                    events += self._lose_one(state, loser)
        elif isinstance(effect, Actions):
            if state.current == seat:
                state.actions_left = max(0, state.actions_left + effect.delta)
                events.append(ActionsChanged(seat=seat, left=state.actions_left))
        elif isinstance(effect, NewSalemers):
            for _ in range(effect.count):
                card = state.location_deck.pop()
                state.location_deck.insert(0, card)
                events += self._place_salemer(state, card)
                if state.outcome is not None:
                    break
        elif isinstance(effect, Track):
            for _ in range(effect.count):
                events += self._onto_track(state)
                if state.outcome is not None:
                    break
        elif isinstance(effect, ClearBar):
            for slot in range(len(BAR)):
                if state.bar[slot]:
                    state.location_deck.insert(0, state.bar[slot])
                    state.bar[slot] = 0
            events.append(BarCleared())
        return events

    @staticmethod
    def _lose_one(state: BeastsState, seat: int) -> list[Event]:
        """The seat returns one token: of the colour it holds most (wild last; ties in colour order)."""
        held = state.players[seat].resources
        candidates = [c for c in COLOURS if held[c] > 0]
        if not candidates:
            return []
        colour = max(candidates, key=lambda c: (held[c], c != "wild", -COLOURS.index(c)))
        held[colour] -= 1
        state.pool[colour] = state.pool.get(colour, 0) + 1
        return [ResourceReturned(seat=seat, colour=colour)]

    def _place_salemer(self, state: BeastsState, space: int) -> list[Event]:
        """A Salemer on a location; on the Salem track instead when a Salemer or a creature is there (l.157)."""
        if state.salemers[space] or state.tokens[space] is not None:
            return self._onto_track(state)
        if state.salemer_supply <= 0:
            return self._onto_track(state)  # authored: no token left to put there, it counts as evidence
        state.salemer_supply -= 1
        state.salemers[space] = True
        return [SalemerPlaced(space=space)]

    def _onto_track(self, state: BeastsState) -> list[Event]:
        """A token on the first free space of the Salem track; an orange box reveals a Second Salemer card (l.165)."""
        state.track += 1
        events: list[Event] = [SalemerPlaced(space=0, on_track=True, track=state.track)]
        seats = len(state.players)
        if state.track >= LOSS_AT[seats]:
            reason = f"the {LOSS_AT[seats]}th Salemer token reached the Salem track: the No-Majs are exposed"
            return events + self._finish(state, [], reason, all_lose=True)
        if state.track in self.salem.track.orange.of(state.difficulty) and state.second_deck:
            card = state.second_deck.pop()
            state.second_revealed.append(card)
            effect = self.salem.second_salemer(card).effect
            events.append(SecondSalemerRevealed(card=card))
            events += self._apply(state, state.current, effect)
        return events

    # ------------------------------------------------------------------ end of a round

    def _end_round(self, state: BeastsState) -> list[Event]:
        """l.145–153: slide the bar's cards right onto the Second Salemer space, refill, a new Salemer appears."""
        state.round += 1
        events: list[Event] = [RoundEnded(round=state.round)]
        cards = [c for c in state.bar if c]
        slots = len(BAR) + 1
        state.bar = [0] * (slots - len(cards)) + cards  # slid right until the last space is covered
        for slot in range(slots):
            if not state.bar[slot]:
                state.bar[slot] = state.location_deck.pop()
        rearmost = state.bar[SECOND_SALEMER_SPACE]
        events.append(BarRefilled(bar=state.bar[: len(BAR)], second_salemer=rearmost))
        events += self._place_salemer(state, rearmost)
        state.location_deck.insert(0, rearmost)
        state.bar[SECOND_SALEMER_SPACE] = 0
        return events

    # ------------------------------------------------------------------ view helpers

    def bar_view(self, state: BeastsState) -> list[int]:
        """The location bar's cards, left to right (0: empty)."""
        return list(state.bar[: len(BAR)])

    def pool_view(self, state: BeastsState) -> ResourceCounts:
        """The public supply of resource tokens."""
        return ResourceCounts(**{c: state.pool.get(c, 0) for c in COLOURS})

    def advanced_view(self, state: BeastsState) -> dict[str, Any]:
        """Mode III's part of a view: everything on the table (the decks' orders stay hidden)."""
        return {
            "salemers": [space for space, there in enumerate(state.salemers) if there],
            "bar": self.bar_view(state),
            "bar_colours": list(BAR),
            "location_deck_size": len(state.location_deck),
            "event_deck_size": len(state.event_deck),
            "second_deck_size": len(state.second_deck),
            "second_revealed": list(state.second_revealed),
            "track": state.track,
            "track_spaces": self.salem.track.spaces,
            "orange": list(self.salem.track.orange.of(state.difficulty)),
            "loss_at": LOSS_AT[len(state.players)],
            "pool": self.pool_view(state),
            "actions_left": state.actions_left,
            "round": state.round,
            "team_captured": self.team_captured(state),
            "first_seat": state.first,
            "collect_bonus_used": state.collect_bonus_used,
            "apparate_used": state.apparate_used,
            "character_book": self.character_book(),
            "second_revealed_cards": [self.second_salemer_info(c) for c in state.second_revealed],
        }

    def character_book(self) -> list[CharacterInfo]:
        """The character cards in the engine's words (the same for every view: built once)."""
        book: list[CharacterInfo] | None = getattr(self, "_character_book", None)
        if book is None:
            book = [
                CharacterInfo(id=c.id, name=c.name, actions=c.actions, ability=describe_ability(c.ability))
                for c in self.salem.characters
            ]
            self._character_book = book
        return book

    def second_salemer_info(self, card_id: int) -> SalemCardInfo:
        """A Second Salemer card in words."""
        card = self.salem.second_salemer(card_id)
        return SalemCardInfo(id=card.id, name=card.name, text=describe_effect(card.effect))

    def advanced_state_from_view(self, view: BeastsView) -> BeastsState:
        """A state consistent with a mode III view: the decks' known contents in catalogue order."""
        board = self.data.board
        tokens: list[str | None] = [None] * len(board.spaces)
        face_up = [False] * len(board.spaces)
        for token in view.tokens:
            if token.state == "creature" and token.creature:
                tokens[token.space], face_up[token.space] = token.creature, True
        salemers = [False] * len(board.spaces)
        for space in view.salemers:
            salemers[space] = True
        on_bar = set(view.bar)
        kinds: dict[str, type[CharacterChoice] | type[TurnActions]] = {
            "character": CharacterChoice,
            "actions": TurnActions,
        }
        decision = kinds.get(view.prompt.kind)
        pool = view.pool or ResourceCounts()
        difficulty = self.salem.track.difficulty_of(view.orange)  # the boxes on the table tell it
        return BeastsState(
            mode="advanced",
            spell_cards=False,
            rng=Rng(0),
            tokens=tokens,
            face_up=face_up,
            supply=[],
            players=[
                Player(
                    position=p.position,
                    resources={c: getattr(p.resources, c) for c in COLOURS},
                    captured=list(p.captured),
                    character=p.character,
                )
                for p in view.players
            ],
            current=view.current_seat,
            decisions=[decision(must=list(view.prompt.must))] if decision else [],
            turn=view.turn,
            turn_cap=view.turn_cap,
            location_deck=[c.id for c in self.salem.locations if c.id not in on_bar],
            event_deck=self.salem.event_deck(difficulty),
            second_deck=[c.id for c in self.salem.second_salemers if c.id not in view.second_revealed],
            second_revealed=list(view.second_revealed),
            bar=[*view.bar, 0],
            salemers=salemers,
            track=view.track,
            salemer_supply=self.salem.track.salemer_tokens - len(view.salemers),
            pool={c: getattr(pool, c) for c in COLOURS},
            actions_left=view.actions_left,
            collect_bonus_used=view.collect_bonus_used,
            apparate_used=view.apparate_used,
            round=view.round,
            first=view.first_seat,
            outcome=view.outcome,
            difficulty=difficulty,
        )
