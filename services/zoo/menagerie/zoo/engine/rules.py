"""The rules of Fantasy Zoo, beginner and advanced modes (see RULES.md).

Every phase is simultaneous: to_act lists every seat that still has to pick, build,
choose a reward or choose a secret goal. An action by one seat concerns only that seat
(its events say so), so the others' picks land at the same moment; the events that
move the whole table on (hands passed, a new phase) concern everyone.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import msgspec

from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, Outcome, ResultKind, SeatResult, ToAct
from menagerie.rules.errors import IllegalAction
from menagerie.rules.rng import Rng
from menagerie.shared.engine import Event
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import (
    VALUES,
    Card,
    ChooseOne,
    Exchange,
    Gain,
    IfCountAtLeast,
    IfValueAtMost,
    PerCount,
    Plain,
    ValueName,
    ZooData,
    load_data,
)
from menagerie.zoo.engine.model import (
    Action,
    Build,
    ChooseReward,
    ChooseSecretGoal,
    Enclosure,
    EnclosureView,
    End,
    Finish,
    Keep,
    Mode,
    OpenGoalState,
    Pick,
    Place,
    Placed,
    PlacedCard,
    Player,
    PlayerZoo,
    Values,
    ZooState,
    ZooView,
)

ENDS: tuple[End, End] = ("left", "right")
HAND_SIZE = 4
SECRET_GOALS_EACH = 2
OPEN_GOALS_SHOWN = 6

_builtins = msgspec.to_builtins


class ZooEngine:
    """Fantasy Zoo: `beginner` (no goal cards, paths need not connect) and `advanced`."""

    info: ClassVar[GameInfo] = GameInfo(
        game="zoo",
        title="Fantasy Zoo",
        modes=(
            ModeInfo("beginner", "Beginner: no goal cards, paths need not connect", 2, 6),
            ModeInfo("advanced", "Advanced: open and secret goals, paths must connect", 2, 6),
        ),
    )
    state_type: ClassVar[type[Any]] = ZooState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[type[Any]] = ZooView

    def __init__(self, data: ZooData | None = None) -> None:
        self.data = data or load_data()
        self.cards = {c.id: c for c in self.data.cards}
        self.secret_goals = {g.id: g for g in self.data.secret_goals}
        self.open_goals = {g.id: g for g in self.data.open_goals}

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[ZooState, list[Event]]:
        """Shuffle the pile; in advanced mode deal 2 secret goals each and reveal 6 open goals."""
        self.info.validate(setup)
        rng = Rng(seed)
        pile = [c.id for c in self.data.cards]
        rng.shuffle(pile)
        players = [Player(values=dict.fromkeys(VALUES, 0)) for _ in range(setup.seats)]
        state = ZooState(
            mode=cast("Mode", setup.mode),
            rng=rng,
            rounds=4 if setup.seats == 6 else 5,
            players=players,
            draw_pile=pile,
        )
        events: list[Event] = []
        if state.mode == "advanced":
            secret = [g.id for g in self.data.secret_goals]
            rng.shuffle(secret)
            for seat, player in enumerate(players):
                player.secret_goals = [secret.pop() for _ in range(SECRET_GOALS_EACH)]
                goals = [_builtins(self.secret_goals[g]) for g in player.secret_goals]
                events.append(Event("secret_goals_dealt", {"seat": seat}, private={seat: {"goals": goals}}))
            shown = [g.id for g in self.data.open_goals]
            rng.shuffle(shown)
            state.open_goals = shown[:OPEN_GOALS_SHOWN]
            state.open_in_play = list(state.open_goals)
            events.append(
                Event("open_goals_revealed", {"goals": [_builtins(self.open_goals[g]) for g in state.open_goals]})
            )
        return state, events + self._start_round(state)

    # --------------------------------------------------------------- contract

    def to_act(self, state: ZooState) -> ToAct:
        """Everyone with something left to decide in the current phase."""
        players = state.players
        if state.phase == "drafting":
            seats = [s for s, p in enumerate(players) if not p.picked]
        elif state.phase == "construction":
            seats = [s for s, p in enumerate(players) if not p.finished]
        elif state.phase == "rewards":
            seats = [s for s, p in enumerate(players) if p.reward_choices]
        elif state.phase == "secret_goals":
            seats = [s for s, p in enumerate(players) if p.secret_goal_choices]
        else:
            seats = []
        return ToAct(must=tuple(seats))

    def outcome(self, state: ZooState) -> Outcome | None:
        """The result once the match is over."""
        return state.outcome

    def legal_actions(self, state: ZooState, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        if seat not in self.to_act(state).must:
            return []
        player = state.players[seat]
        if state.phase == "drafting":
            return [Pick(c) for c in player.hand]
        if state.phase == "rewards":
            return [ChooseReward(g, option) for g in player.reward_choices[:1] for option in (0, 1)]
        if state.phase == "secret_goals":
            return [ChooseSecretGoal(g) for g in player.secret_goal_choices]
        actions: list[Action] = []
        for card_id in player.picks:
            card = self.cards[card_id]
            for end in ENDS:
                if self._connects(state, player, card, end):
                    actions.append(Build(card_id, end))
            for position, level in zoo.animal_slots(player, card, self.cards):
                for increase, decrease in self._choices(card):
                    actions.append(Place(card_id, position, level, increase, decrease))
        if player.kept is None:
            actions += [Keep(c) for c in player.picks]
        actions.append(Finish())
        return actions

    def check(self, state: ZooState, seat: int, action: Action) -> None:
        """Raises IllegalAction, naming the rule, unless `action` is legal for `seat` now."""
        if state.outcome is not None:
            raise IllegalAction("End of the game", "the match is over")
        if not 0 <= seat < len(state.players):
            raise IllegalAction("Seats", f"there is no seat {seat}")
        player = state.players[seat]
        if isinstance(action, Pick):
            self._check_pick(state, player, action)
        elif isinstance(action, (Build, Place, Keep, Finish)):
            self._check_construction(state, player, action)
        elif isinstance(action, ChooseReward):
            if state.phase != "rewards" or action.goal not in player.reward_choices:
                raise IllegalAction("Open goals", f"you have no reward of goal {action.goal} to choose")
            if action.goal != player.reward_choices[0]:
                raise IllegalAction("Open goals", f"choose the reward of goal {player.reward_choices[0]} first")
            if action.option not in (0, 1):
                raise IllegalAction("Open goals", "choose reward 0 or 1")
        elif isinstance(action, ChooseSecretGoal):
            if state.phase != "secret_goals" or not player.secret_goal_choices:
                raise IllegalAction("Secret goals", "you have no secret goal to choose now")
            if action.goal not in player.secret_goal_choices:
                raise IllegalAction("Secret goals", f"goal {action.goal} is not one of the secret goals you met")

    def apply(self, state: ZooState, seat: int, action: Action) -> list[Event]:
        """Validates `action`, then performs it; returns the events."""
        self.check(state, seat, action)
        if isinstance(action, Pick):
            return self._pick(state, seat, action.card)
        if isinstance(action, Build):
            return self._build(state, seat, action)
        if isinstance(action, Place):
            return self._place(state, seat, action)
        if isinstance(action, Keep):
            return self._keep(state, seat, action.card)
        if isinstance(action, Finish):
            return self._finish(state, seat)
        if isinstance(action, ChooseReward):
            return self._choose_reward(state, seat, action)
        return self._choose_secret_goal(state, seat, action.goal)

    # ---------------------------------------------------------------- drafting

    def _start_round(self, state: ZooState) -> list[Event]:
        state.round += 1
        state.phase = "drafting"
        state.pick = 1
        events = [Event("round_started", {"round": state.round})]
        for seat, player in enumerate(state.players):
            player.picks = [player.kept] if player.kept is not None else []
            player.kept = None
            player.finished = False
            player.picked = False
            player.passed = []
            player.hand = [state.draw_pile.pop() for _ in range(HAND_SIZE)]
            dealt = [_builtins(self.cards[c]) for c in player.hand]
            events.append(Event("cards_dealt", {"seat": seat, "count": HAND_SIZE}, private={seat: {"cards": dealt}}))
        return events

    def _check_pick(self, state: ZooState, player: Player, action: Pick) -> None:
        if state.phase != "drafting":
            raise IllegalAction("Drafting", "cards are picked only while drafting")
        if player.picked:
            raise IllegalAction("Drafting", "you have picked this pass already; wait until the others have")
        if action.card not in player.hand:
            raise IllegalAction("Drafting", f"card {action.card} is not in the hand in front of you")

    def _pick(self, state: ZooState, seat: int, card: int) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(card)
        player.picks.append(card)
        player.picked = True
        events = [
            Event("card_picked", {"seat": seat}, private={seat: {"card": _builtins(self.cards[card])}}, affects=(seat,))
        ]
        if all(p.picked for p in state.players):
            events += self._pass_hands(state)
        return events

    def _pass_hands(self, state: ZooState) -> list[Event]:
        """Every hand moves to the next seat (to the left); a last card is taken by itself."""
        players = state.players
        hands = [p.hand for p in players]
        for seat, player in enumerate(players):
            player.passed += hands[seat]
            player.hand = hands[seat - 1]
            player.picked = False
        state.pick += 1
        if all(len(p.hand) == 0 for p in players):
            return self._start_construction(state)
        private = {s: {"hand": [_builtins(self.cards[c]) for c in p.hand]} for s, p in enumerate(players)}
        events = [Event("hands_passed", {"pick": state.pick}, private=private)]
        if all(len(p.hand) == 1 for p in players):
            for seat, player in enumerate(players):
                card = player.hand.pop()
                player.picks.append(card)
                player.picked = True
                events.append(
                    Event("card_picked", {"seat": seat}, private={seat: {"card": _builtins(self.cards[card])}})
                )
            events += self._pass_hands(state)
        return events

    # ------------------------------------------------------------ construction

    def _start_construction(self, state: ZooState) -> list[Event]:
        state.phase = "construction"
        for player in state.players:
            player.passed = []
        return [Event("construction_started", {"round": state.round})]

    def _connects(self, state: ZooState, player: Player, card: Card, end: End) -> bool:
        if state.mode == "beginner":
            return True
        needed = zoo.end_connector(player, end, self.cards)
        edge = card.enclosures.left if end == "right" else card.enclosures.right
        return edge == needed

    def _choices(self, card: Card) -> list[tuple[ValueName | None, ValueName | None]]:
        effect = card.animal.effect
        if isinstance(effect, Exchange):
            return [(up, down) for up in VALUES for down in VALUES if up != down]
        if isinstance(effect, ChooseOne):
            return [(option, None) for option in effect.options]
        return [(None, None)]

    def _check_construction(self, state: ZooState, player: Player, action: Build | Place | Keep | Finish) -> None:
        if state.phase != "construction":
            raise IllegalAction("Construction", "cards are played only in the construction phase")
        if player.finished:
            raise IllegalAction("Construction", "you have finished this round's construction")
        if isinstance(action, Finish):
            return
        if action.card not in player.picks:
            raise IllegalAction("Construction", f"card {action.card} is not among the cards you picked")
        card = self.cards[action.card]
        if isinstance(action, Keep):
            if player.kept is not None:
                raise IllegalAction("Keeping a card", "you may keep only one card for the next round")
        elif isinstance(action, Build):
            if not self._connects(state, player, card, action.end):
                needed = zoo.end_connector(player, action.end, self.cards)
                edge = card.enclosures.left if action.end == "right" else card.enclosures.right
                raise IllegalAction(
                    "Paths",
                    f"the {action.end} end needs a path at the {needed}; this card's edge has it at the {edge}",
                )
        else:
            self._check_place(player, card, action)

    def _check_place(self, player: Player, card: Card, action: Place) -> None:
        animal = card.animal
        slot = (action.position, action.level)
        if slot not in set(zoo.animal_slots(player, card, self.cards)):
            placed = zoo.card_at(player, action.position)
            if placed is None:
                raise IllegalAction("Placing animals", f"there is no enclosure card at position {action.position}")
            here = placed.level(action.level)
            if not zoo.fits(animal.habitat, here):
                raise IllegalAction(
                    "Placing animals",
                    f"the {animal.name} lives in the {animal.habitat}, not in a {here.type} enclosure",
                )
            if animal.size == "large":
                raise IllegalAction(
                    "Large animals",
                    f"the {animal.name} needs two neighbouring free {animal.habitat} (or mystic) enclosures "
                    "on the same level, this one and the next to the right",
                )
            raise IllegalAction("Placing animals", "different animals never share an enclosure")
        if (action.increase, action.decrease) not in self._choices(card):
            effect = card.animal.effect
            if isinstance(effect, Exchange):
                detail = "name two different values: one to increase and one to decrease"
            elif isinstance(effect, ChooseOne):
                detail = f"choose to increase {effect.options[0]} or {effect.options[1]}"
            else:
                detail = "this animal's effect has no choice to make"
            raise IllegalAction("Animal effects", detail)

    def _build(self, state: ZooState, seat: int, action: Build) -> list[Event]:
        player = state.players[seat]
        card = self.cards[action.card]
        position = zoo.end_position(player, action.end)
        player.picks.remove(action.card)
        player.row.append(
            Placed(position, action.card, Enclosure(card.enclosures.top), Enclosure(card.enclosures.bottom))
        )
        player.row.sort(key=lambda p: p.position)
        return [
            Event("enclosure_built", {"seat": seat, "card": _builtins(card), "position": position}, affects=(seat,))
        ]

    def _place(self, state: ZooState, seat: int, action: Place) -> list[Event]:
        player = state.players[seat]
        card = self.cards[action.card]
        player.picks.remove(action.card)
        placed = zoo.card_at(player, action.position)
        assert placed is not None
        large = card.animal.size == "large"
        placed.level(action.level).animals.append(action.card)
        placed.level(action.level).large = large
        if large:
            neighbour = zoo.card_at(player, action.position + 1)
            assert neighbour is not None
            neighbour.level(action.level).animals.append(action.card)
            neighbour.level(action.level).large = True
        self._effect(player, card, action)
        fields = {
            "seat": seat,
            "card": _builtins(card),
            "position": action.position,
            "level": action.level,
            "values": dict(player.values),
        }
        return [Event("animal_placed", fields, affects=(seat,))]

    def _effect(self, player: Player, card: Card, action: Place) -> None:
        """The animal's effect, applied at once (counts include the animal just placed)."""
        effect = card.animal.effect
        if isinstance(effect, Plain):
            self._gain(player, effect.gain)
        elif isinstance(effect, IfValueAtMost):
            if player.values[effect.value] <= effect.at_most:
                self._gain(player, effect.gain)
        elif isinstance(effect, IfCountAtLeast):
            if self._count(player, effect.count.of, effect.count.type) >= effect.at_least:
                self._gain(player, effect.gain)
        elif isinstance(effect, PerCount):
            zoo.add(player, effect.value, effect.per * self._count(player, effect.count.of, effect.count.type))
        elif isinstance(effect, Exchange):
            assert action.increase is not None and action.decrease is not None
            zoo.add(player, action.decrease, -1)
            zoo.add(player, action.increase, 1)
        else:
            assert action.increase is not None
            zoo.add(player, action.increase, 1)

    def _count(self, player: Player, of: str, kind: Any) -> int:
        if of == "animals":
            return zoo.count_animals(player, self.cards, kind)
        return zoo.count_enclosures(player, kind)

    @staticmethod
    def _gain(player: Player, gain: Gain) -> None:
        for value in VALUES:
            if gain.get(value):
                zoo.add(player, value, gain.get(value))

    def _keep(self, state: ZooState, seat: int, card: int) -> list[Event]:
        player = state.players[seat]
        player.picks.remove(card)
        player.kept = card
        return [
            Event("card_kept", {"seat": seat}, private={seat: {"card": _builtins(self.cards[card])}}, affects=(seat,))
        ]

    def _secret_card(self, kind: str, seat: int, card: int) -> Event:
        """An event everyone sees happen, while only `seat` sees the card."""
        return Event(kind, {"seat": seat}, private={seat: {"card": _builtins(self.cards[card])}}, affects=(seat,))

    def _finish(self, state: ZooState, seat: int) -> list[Event]:
        player = state.players[seat]
        discarded = player.picks
        player.picks = []
        player.finished = True
        state.discards += discarded
        fields = {"seat": seat, "discarded": [_builtins(self.cards[c]) for c in discarded]}
        events = [Event("construction_finished", fields, affects=(seat,))]
        if all(p.finished for p in state.players):
            events += self._end_construction(state)
        return events

    # ------------------------------------------------------------------- goals

    def _end_construction(self, state: ZooState) -> list[Event]:
        """Open goals are checked against the zoos as built, then rewards are handed out."""
        if state.mode != "advanced":
            return self._end_round(state)
        met = {goal: self._achievers(state, goal) for goal in state.open_in_play}
        events: list[Event] = []
        for goal, seats in met.items():
            if not seats:
                continue
            state.open_in_play.remove(goal)
            events.append(Event("goal_met", {"goal": goal, "seats": seats}))
            rewards = self.open_goals[goal].rewards
            if len(seats) == 1:
                for option in (0, 1):
                    events += self._reward(state, seats[0], goal, rewards[option])
            else:
                for seat in seats:
                    state.players[seat].reward_choices.append(goal)
        if any(p.reward_choices for p in state.players):
            state.phase = "rewards"
            return events
        return events + self._end_round(state)

    def _achievers(self, state: ZooState, goal: int) -> list[int]:
        """Seats whose zoo meets an open goal now."""
        card = self.open_goals[goal]
        return [s for s, p in enumerate(state.players) if zoo.measure(p, card.metric, self.cards) >= card.at_least]

    def _reward(self, state: ZooState, seat: int, goal: int, gain: Gain) -> list[Event]:
        player = state.players[seat]
        self._gain(player, gain)
        fields = {"seat": seat, "goal": goal, "gain": _builtins(gain), "values": dict(player.values)}
        return [Event("reward_taken", fields, affects=(seat,))]

    def _choose_reward(self, state: ZooState, seat: int, action: ChooseReward) -> list[Event]:
        player = state.players[seat]
        player.reward_choices.remove(action.goal)
        events = self._reward(state, seat, action.goal, self.open_goals[action.goal].rewards[action.option])
        if not any(p.reward_choices for p in state.players):
            events += self._end_round(state)
        return events

    def _end_round(self, state: ZooState) -> list[Event]:
        if state.round < state.rounds:
            return self._start_round(state)
        return self._end_game(state)

    def _end_game(self, state: ZooState) -> list[Event]:
        """Secret goals are revealed and judged on the final zoos, then scored."""
        events: list[Event] = []
        if state.mode == "advanced":
            measures = {
                g: [zoo.measure(p, self.secret_goals[g].metric, self.cards) for p in state.players]
                for p in state.players
                for g in p.secret_goals
            }
            for seat, player in enumerate(state.players):
                met = [g for g in player.secret_goals if _strictly_most(measures[g], seat)]
                goals = [_builtins(self.secret_goals[g]) for g in player.secret_goals]
                events.append(Event("secret_goals_revealed", {"seat": seat, "goals": goals, "met": met}))
                if len(met) == 1:
                    events += self._score_secret(state, seat, met[0])
                elif len(met) > 1:
                    player.secret_goal_choices = met
            if any(p.secret_goal_choices for p in state.players):
                state.phase = "secret_goals"
                return events
        return events + self._finish_game(state)

    def _score_secret(self, state: ZooState, seat: int, goal: int) -> list[Event]:
        player = state.players[seat]
        player.scored_secret_goal = goal
        reward = self.secret_goals[goal].reward
        self._gain(player, reward)
        fields = {"seat": seat, "goal": goal, "gain": _builtins(reward), "values": dict(player.values)}
        return [Event("secret_goal_scored", fields, affects=(seat,))]

    def _choose_secret_goal(self, state: ZooState, seat: int, goal: int) -> list[Event]:
        state.players[seat].secret_goal_choices = []
        events = self._score_secret(state, seat, goal)
        if not any(p.secret_goal_choices for p in state.players):
            events += self._finish_game(state)
        return events

    def _finish_game(self, state: ZooState) -> list[Event]:
        """The most points wins; a tie goes to more animals housed; a tie on both is shared."""
        keys = [(zoo.score(p.values), len(zoo.animals(p))) for p in state.players]
        best = max(keys)
        winners = [s for s, k in enumerate(keys) if k == best]
        everyone = len(winners) == len(keys)
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "draw" if everyone else ("win" if seat in winners else "loss")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(key[0]), rank=rank))
        names = ", ".join(f"seat {w}" for w in winners)
        reason = f"{names} {'win' if len(winners) > 1 else 'wins'} with {best[0]} points and {best[1]} animals"
        if everyone:
            reason = f"everyone ties with {best[0]} points and {best[1]} animals"
        state.outcome = Outcome(seats=results, reason=reason)
        state.phase = "finished"
        return [Event("match_finished", {"outcome": _builtins(state.outcome)})]

    # -------------------------------------------------------------------- view

    def view(self, state: ZooState, seat: int | None) -> ZooView:
        """What `seat` (None: a spectator) may know: never another hand, pick, kept card or unrevealed goal."""
        mine = state.players[seat] if seat is not None else None
        top = self.cards[state.draw_pile[-1]].enclosures if state.draw_pile else None
        return ZooView(
            mode=state.mode,
            viewer=seat,
            round=state.round,
            rounds=state.rounds,
            phase=state.phase,
            pick=state.pick,
            zoos=[self._zoo_view(state, s, seat) for s in range(len(state.players))],
            hand=[self.cards[c] for c in mine.hand] if mine else [],
            picks=[self.cards[c] for c in mine.picks] if mine else [],
            kept=self.cards[mine.kept] if mine and mine.kept is not None else None,
            passed=[self.cards[c] for c in mine.passed] if mine else [],
            open_goals=[OpenGoalState(self.open_goals[g], g in state.open_in_play) for g in state.open_goals],
            draw_pile_size=len(state.draw_pile),
            draw_pile_top=top,
            discards=[self.cards[c] for c in state.discards],
            to_act=list(self.to_act(state).seats()),
            outcome=state.outcome,
        )

    def _zoo_view(self, state: ZooState, seat: int, viewer: int | None) -> PlayerZoo:
        def enclosure(e: Enclosure) -> EnclosureView:
            return EnclosureView(e.type, [self.cards[a] for a in e.animals], e.large)

        player = state.players[seat]
        revealed = seat == viewer or state.phase in ("secret_goals", "finished")
        return PlayerZoo(
            seat=seat,
            row=[PlacedCard(p.position, self.cards[p.card], enclosure(p.top), enclosure(p.bottom)) for p in player.row],
            values=Values(**player.values),
            score=zoo.score(player.values),
            animals=len(zoo.animals(player)),
            hand_size=len(player.hand),
            picked=len(player.picks),
            finished=player.finished,
            secret_goals=[self.secret_goals[g] for g in player.secret_goals] if revealed else [],
            scored_secret_goal=player.scored_secret_goal,
            keeps_a_card=player.kept is not None,
            reward_choices=list(player.reward_choices),
            secret_goal_choices=list(player.secret_goal_choices),
        )

    def determinize(self, view: ZooView, seat: int, seed: int) -> ZooState:
        """A full state consistent with `view`: others' hands, picks, kept cards and goals, and the pile, sampled."""
        rng = Rng(seed)
        known = {c.id for c in (*view.hand, *view.picks, *view.discards)}
        if view.kept is not None:
            known.add(view.kept.id)
        for player_zoo in view.zoos:
            for placed in player_zoo.row:
                known.add(placed.card.id)
                known.update(a.id for a in (*placed.top.animals, *placed.bottom.animals))
        unknown = [c.id for c in self.data.cards if c.id not in known]
        rng.shuffle(unknown)
        pile: list[int] = []
        if view.draw_pile_top is not None:
            top = next(c for c in unknown if self.cards[c].enclosures == view.draw_pile_top)
            unknown.remove(top)
            pile = [top]
        revealed = {g.id for z in view.zoos for g in z.secret_goals}
        unseen_goals = [g.id for g in self.data.secret_goals if g.id not in revealed]
        rng.shuffle(unseen_goals)
        players = []
        for z in view.zoos:
            own = z.seat == seat
            hidden = z.hand_size + z.picked + (1 if z.keeps_a_card and not own else 0)
            if own:
                hand, picks = [c.id for c in view.hand], [c.id for c in view.picks]
                kept = view.kept.id if view.kept is not None else None
            else:
                sampled = [unknown.pop() for _ in range(hidden)]
                hand, picks = sampled[: z.hand_size], sampled[z.hand_size : z.hand_size + z.picked]
                kept = sampled[-1] if z.keeps_a_card else None
            goals = [g.id for g in z.secret_goals]
            if view.mode == "advanced" and not goals:
                goals = [unseen_goals.pop() for _ in range(SECRET_GOALS_EACH)]
            players.append(
                Player(
                    values={"dangerous": z.values.dangerous, "cute": z.values.cute, "rare": z.values.rare},
                    row=[
                        Placed(
                            p.position,
                            p.card.id,
                            Enclosure(p.top.type, [a.id for a in p.top.animals], p.top.large),
                            Enclosure(p.bottom.type, [a.id for a in p.bottom.animals], p.bottom.large),
                        )
                        for p in z.row
                    ],
                    hand=hand,
                    picks=picks,
                    kept=kept,
                    picked=view.phase == "drafting" and z.seat not in view.to_act,
                    finished=z.finished,
                    passed=[c.id for c in view.passed] if own else [],
                    secret_goals=goals,
                    reward_choices=list(z.reward_choices),
                    secret_goal_choices=list(z.secret_goal_choices),
                    scored_secret_goal=z.scored_secret_goal,
                )
            )
        pile = unknown[: view.draw_pile_size - len(pile)] + pile
        return ZooState(
            mode=view.mode,
            rng=Rng(rng.next_u64()),
            rounds=view.rounds,
            players=players,
            draw_pile=pile,
            round=view.round,
            phase=view.phase,
            pick=view.pick,
            discards=[c.id for c in view.discards],
            open_goals=[g.goal.id for g in view.open_goals],
            open_in_play=[g.goal.id for g in view.open_goals if g.open],
            outcome=view.outcome,
        )


def _strictly_most(measures: list[int], seat: int) -> bool:
    """The seat has more than every other seat (a tie is not "the most")."""
    mine = measures[seat]
    return all(mine > other for s, other in enumerate(measures) if s != seat)
