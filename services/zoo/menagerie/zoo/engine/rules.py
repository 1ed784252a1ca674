"""The rules of Fantasy Zoo, beginner and advanced modes (see RULES.md).

Every phase is simultaneous and is one decision on the stack: drafting, construction,
choosing the reward of each open goal met (one decision per goal, in turn), choosing the
secret goal that scores. Its `must` lists the seats still to decide; a seat leaves it
once it has decided, and when nobody is left the next decision replaces it. An action by one seat concerns only that
seat (its events say so), so the others' picks land at the same moment; the events
that move the whole table on (hands passed, a new phase) concern everyone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast

from menagerie.rules.contract import (
    GameInfo,
    MatchSetup,
    ModeInfo,
    OptionInfo,
    Outcome,
    ResultKind,
    SeatResult,
)
from menagerie.rules.decisions import Decision, Refusal, Rule
from menagerie.rules.engine import RulesEngine
from menagerie.rules.rng import Rng
from menagerie.rules.text import listing, seat_name
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import VALUES, Card, ChooseOne, Exchange, Gain, ValueName, ZooData, load_data
from menagerie.zoo.engine.model import (
    Action,
    AnimalPlaced,
    Build,
    CardKept,
    CardPicked,
    CardsDealt,
    ChooseReward,
    ChooseSecretGoal,
    Construction,
    ConstructionFinished,
    ConstructionStarted,
    Drafting,
    Enclosure,
    EnclosureBuilt,
    EnclosureView,
    End,
    Event,
    Finish,
    GoalMet,
    HandReceived,
    HandsPassed,
    Keep,
    MatchFinished,
    Mode,
    NegativeValues,
    OpenEnd,
    OpenGoalsRevealed,
    OpenGoalState,
    Pick,
    Place,
    Placed,
    PlacedCard,
    Player,
    PlayerZoo,
    Preview,
    Rewards,
    RewardTaken,
    RoundStarted,
    SecretGoals,
    SecretGoalScored,
    SecretGoalsDealt,
    SecretGoalsRevealed,
    Values,
    ZooDecision,
    ZooState,
    ZooView,
)
from menagerie.zoo.engine.text import MODE_WORDS, NEGATIVE_VALUES_OPTION, TITLES, ZooText, end_words

HAND_SIZE = 4
SECRET_GOALS_EACH = 2
OPEN_GOALS_SHOWN = 6
DECISIONS: dict[str, type[ZooDecision]] = {d.kind(): d for d in (Drafting, Construction, Rewards, SecretGoals)}
# The match option on negative values, in both modes: the rulebook's product by default.
NEGATIVE_VALUES = OptionInfo(
    "negative_values", NEGATIVE_VALUES_OPTION, ("multiply", "count_as_zero"), default_value="multiply"
)


def goals_to_check(order: Sequence[int], in_play: Collection[int], after: int | None = None) -> list[int]:
    """The open goals a round's check has still to judge, one by one in the order they were revealed.

    `after`: the goal whose rewards were just chosen (the check goes on with the goals
    revealed after it); None: the check starts, with every goal in play.
    """
    start = 0 if after is None else order.index(after) + 1
    return [goal for goal in order[start:] if goal in in_play]


class ZooEngine(RulesEngine[ZooState, Action, ZooView, Event]):
    """Fantasy Zoo: `beginner` (no goal cards, paths need not connect) and `advanced`."""

    info: ClassVar[GameInfo] = GameInfo(
        game="zoo",
        title="Fantasy Zoo",
        modes=(
            ModeInfo("beginner", MODE_WORDS["beginner"], 2, 6, options=(NEGATIVE_VALUES,)),
            ModeInfo("advanced", MODE_WORDS["advanced"], 2, 6, options=(NEGATIVE_VALUES,)),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (Finish,)
    state_type: ClassVar[Any] = ZooState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = ZooView
    event_type: ClassVar[Any] = Event
    # The game's words (labels, event and prompt text, and the rules printed on what a view shows).
    text: ZooText

    def __init__(self, data: ZooData | None = None) -> None:
        self.data = data or load_data()
        self.cards = {c.id: c for c in self.data.cards}
        self.secret_goals = {g.id: g for g in self.data.secret_goals}
        self.open_goals = {g.id: g for g in self.data.open_goals}
        self.text = ZooText(self.data)
        super().__init__()

    def rulebook(self) -> dict[type, Rule[ZooState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed."""
        construction = Rule[ZooState, Any, Event](
            "Construction",
            self._construction_options,
            self._construction_problem,
            self._construct,
            not_now=lambda s, seat, d: "cards are played only in the construction phase",
            exact=True,
        )
        return {
            Pick: Rule(
                "Drafting",
                lambda s, seat: [Pick(c) for c in s.players[seat].hand],
                self._pick_problem,
                self._pick,
                not_now=lambda s, seat, d: "cards are picked only while drafting",
            ),
            **dict.fromkeys((Build, Place, Keep, Finish), construction),
            ChooseReward: Rule(
                "Open goals",
                self._reward_options,
                self._reward_problem,
                self._choose_reward,
                not_now=lambda s, seat, d: "you have no open-goal reward to choose now",
            ),
            ChooseSecretGoal: Rule(
                "Secret goals",
                lambda s, seat: [ChooseSecretGoal(g) for g in s.players[seat].secret_goal_choices],
                self._secret_goal_problem,
                self._choose_secret_goal,
                not_now=lambda s, seat, d: "you have no secret goal to choose now",
            ),
        }

    def out_of_turn(self, state: ZooState, seat: int, decision: Decision) -> Refusal:
        """A seat that has decided waits for the others."""
        if isinstance(decision, Drafting):
            return Refusal("Drafting", "you have picked this pass already; wait until the others have")
        if isinstance(decision, Construction):
            return Refusal("Construction", "you have finished this round's construction")
        if isinstance(decision, Rewards):
            return Refusal("Open goals", "you have no open-goal reward to choose")
        return Refusal("Secret goals", "you have no secret goal to choose now")

    def _decide(self, state: ZooState, decision: ZooDecision) -> None:
        """The next phase replaces the one everyone has decided."""
        self.restart(state, decision)

    def _decided(self, state: ZooState, seat: int) -> bool:
        """`seat` has decided this phase; True once everyone has (the phase's decision is then settled)."""
        return self.decided(state, seat)

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[ZooState, list[Event]]:
        """Shuffle the pile; in advanced mode deal 2 secret goals each and reveal 6 open goals."""
        options = self.info.validate(setup)
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
            negative_values=cast("NegativeValues", options[NEGATIVE_VALUES.name]),
        )
        events: list[Event] = []
        if state.mode == "advanced":
            secret = [g.id for g in self.data.secret_goals]
            rng.shuffle(secret)
            for seat, player in enumerate(players):
                player.secret_goals = [secret.pop() for _ in range(SECRET_GOALS_EACH)]
                goals = [self.secret_goals[g] for g in player.secret_goals]
                events.append(SecretGoalsDealt(seat=seat, goals=goals))
            state.secret_goal_box = secret
            shown = [g.id for g in self.data.open_goals]
            rng.shuffle(shown)
            state.open_goals = shown[:OPEN_GOALS_SHOWN]
            state.open_in_play = list(state.open_goals)
            events.append(OpenGoalsRevealed(goals=[self.open_goals[g] for g in state.open_goals]))
        return state, events + self._start_round(state)

    # ---------------------------------------------------------------- drafting

    def _start_round(self, state: ZooState) -> list[Event]:
        state.round += 1
        state.pick = 1
        seats = list(range(len(state.players)))
        self._decide(state, Drafting(must=seats))
        events: list[Event] = [RoundStarted(round=state.round, rounds=state.rounds)]
        for seat, player in enumerate(state.players):
            player.picks = [player.kept] if player.kept is not None else []
            player.kept = None
            player.passed = []
            player.hand = [state.draw_pile.pop() for _ in range(HAND_SIZE)]
            events.append(CardsDealt(seat=seat, count=HAND_SIZE, cards=[self.cards[c] for c in player.hand]))
        return events

    def _pick_problem(self, state: ZooState, seat: int, action: Pick) -> str | None:
        if action.card not in state.players[seat].hand:
            return f"card {action.card} is not in the hand in front of you"
        return None

    def _pick(self, state: ZooState, seat: int, action: Pick) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(action.card)
        player.picks.append(action.card)
        events: list[Event] = [CardPicked(seat=seat, card=self.cards[action.card])]
        if self._decided(state, seat):
            events += self._pass_hands(state)
        return events

    def _pass_hands(self, state: ZooState) -> list[Event]:
        """Every hand moves to the next seat (to the left); a last card is taken by itself."""
        players = state.players
        hands = [p.hand for p in players]
        for seat, player in enumerate(players):
            player.passed += hands[seat]
            player.hand = hands[seat - 1]
        state.pick += 1
        if all(len(p.hand) == 0 for p in players):
            return self._start_construction(state)
        self._decide(state, Drafting(must=list(range(len(players)))))
        events: list[Event] = [HandsPassed(pick=state.pick)]
        events += [HandReceived(seat=s, cards=[self.cards[c] for c in p.hand]) for s, p in enumerate(players)]
        if all(len(p.hand) == 1 for p in players):
            for seat, player in enumerate(players):
                card = player.hand.pop()
                player.picks.append(card)
                events.append(CardPicked(seat=seat, card=self.cards[card]))
            events += self._pass_hands(state)
        return events

    # ------------------------------------------------------------ construction

    def _start_construction(self, state: ZooState) -> list[Event]:
        self._decide(state, Construction(must=list(range(len(state.players)))))
        for player in state.players:
            player.passed = []
        return [ConstructionStarted(round=state.round)]

    def _connects(self, state: ZooState, player: Player, card: Card, end: End) -> bool:
        """The card may be built at `end`: always in beginner mode, else its path must meet the row's."""
        if not zoo.paths_connect(state.mode):
            return True
        return zoo.meets(card.enclosures, end, zoo.end_connector(player, end, self.cards))

    def choices(self, card: Card) -> list[tuple[ValueName | None, ValueName | None]]:
        """The (increase, decrease) choices a placement of the card's animal names."""
        effect = card.animal.effect
        if isinstance(effect, Exchange):
            return [(up, down) for up in VALUES for down in VALUES if up != down]
        if isinstance(effect, ChooseOne):
            return [(option, None) for option in effect.options]
        return [(None, None)]

    def _construction_options(self, state: ZooState, seat: int) -> Iterator[Action]:
        """Exactly the legal plays, per picked card: builds at open ends its paths fit, placements in the
        animal's slots with each choice its effect names; then keeping a card (if none is kept), and finishing.

        The same helpers decide `_construction_problem` (open_ends, _connects, animal_slots, choices).
        """
        player = state.players[seat]
        for card_id in player.picks:
            card = self.cards[card_id]
            for end in zoo.open_ends(player):
                if self._connects(state, player, card, end):
                    yield Build(card_id, end)
            for position, level in zoo.animal_slots(player, card, self.cards):
                for increase, decrease in self.choices(card):
                    yield Place(card_id, position, level, increase, decrease)
        if player.kept is None:
            yield from (Keep(c) for c in player.picks)
        yield Finish()

    def _construction_problem(
        self, state: ZooState, seat: int, action: Build | Place | Keep | Finish
    ) -> str | Refusal | None:
        if isinstance(action, Finish):
            return None
        player = state.players[seat]
        if action.card not in player.picks:
            return f"card {action.card} is not among the cards you picked"
        card = self.cards[action.card]
        if isinstance(action, Keep):
            if player.kept is not None:
                return Refusal("Keeping a card", "you may keep only one card for the next round")
            return None
        if isinstance(action, Build):
            if action.end not in zoo.open_ends(player):
                side = player.side
                return Refusal(
                    "Building enclosures",
                    f"your zoo grows from the {side} edge of your character sheet: "
                    f"new enclosure cards go only at its open {side} end",
                )
            if not self._connects(state, player, card, action.end):
                needed = zoo.end_connector(player, action.end, self.cards)
                edge = zoo.edge(card.enclosures, zoo.opposite(action.end))
                return Refusal(
                    "Paths",
                    f"the {action.end} end needs a path at the {needed}; this card's edge has it at the {edge}",
                )
            return None
        return self._place_problem(player, card, action)

    def _place_problem(self, player: Player, card: Card, action: Place) -> Refusal | None:
        animal = card.animal
        slot = (action.position, action.level)
        if slot not in set(zoo.animal_slots(player, card, self.cards)):
            placed = zoo.card_at(player, action.position)
            if placed is None:
                return Refusal("Placing animals", f"there is no enclosure card at position {action.position}")
            here = placed.level(action.level)
            if not zoo.fits(animal.habitat, here.type):
                return Refusal(
                    "Placing animals",
                    f"the {animal.name} lives in the {animal.habitat}, not in a {here.type} enclosure",
                )
            if animal.size == "large":
                return Refusal(
                    "Large animals",
                    f"the {animal.name} needs two neighbouring free {animal.habitat} (or mystic) enclosures "
                    "on the same level, this one and the next to the right",
                )
            return Refusal("Placing animals", "different animals never share an enclosure")
        if (action.increase, action.decrease) not in self.choices(card):
            effect = card.animal.effect
            if isinstance(effect, Exchange):
                detail = "name two different values: one to increase and one to decrease"
            elif isinstance(effect, ChooseOne):
                detail = f"choose to increase {effect.options[0]} or {effect.options[1]}"
            else:
                detail = "this animal's effect has no choice to make"
            return Refusal("Animal effects", detail)
        return None

    def _construct(self, state: ZooState, seat: int, action: Build | Place | Keep | Finish) -> list[Event]:
        if isinstance(action, Build):
            return self._build(state, seat, action)
        if isinstance(action, Place):
            return self._place(state, seat, action)
        if isinstance(action, Keep):
            return self._keep(state, seat, action.card)
        return self._finish(state, seat)

    def _build(self, state: ZooState, seat: int, action: Build) -> list[Event]:
        player = state.players[seat]
        card = self.cards[action.card]
        position = zoo.end_position(player, action.end)
        player.picks.remove(action.card)
        if player.side is None:
            player.side = action.end  # the first enclosure card chooses the edge the zoo grows from
        player.row.append(
            Placed(position, action.card, Enclosure(card.enclosures.top), Enclosure(card.enclosures.bottom))
        )
        player.row.sort(key=lambda p: p.position)
        return [EnclosureBuilt(seat=seat, card=card, position=position)]

    def _place(self, state: ZooState, seat: int, action: Place) -> list[Event]:
        """Houses the animal, then applies its effect (counts include the animal just placed)."""
        player = state.players[seat]
        card = self.cards[action.card]
        change = zoo.effect_change(
            card, zoo.Counts.of(player, self.cards), player.values, action.increase, action.decrease
        )
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
        zoo.apply_change(player, change)
        return [
            AnimalPlaced(
                seat=seat, card=card, position=action.position, level=action.level, values=Values(**player.values)
            )
        ]

    def _keep(self, state: ZooState, seat: int, card: int) -> list[Event]:
        player = state.players[seat]
        player.picks.remove(card)
        player.kept = card
        return [CardKept(seat=seat, card=self.cards[card])]

    def _finish(self, state: ZooState, seat: int) -> list[Event]:
        player = state.players[seat]
        discarded = player.picks
        player.picks = []
        state.discards += discarded
        events: list[Event] = [ConstructionFinished(seat=seat, discarded=[self.cards[c] for c in discarded])]
        if self._decided(state, seat):
            events += self._end_construction(state)
        return events

    # ------------------------------------------------------------------- goals

    def _end_construction(self, state: ZooState) -> list[Event]:
        """In advanced mode the open goals are checked once everyone has built; then the round ends."""
        if state.mode != "advanced":
            return self._end_round(state)
        return self._check_open_goals(state, after=None)

    def _check_open_goals(self, state: ZooState, after: int | None) -> list[Event]:
        """The open goals are checked one by one, in the order they were revealed, on the zoos as they are now.

        The first goal met is discarded and its achievers choose their rewards (one
        decision); the check goes on with the goals after it once they have. A goal
        nobody meets stays in play. When none is left to check, the round ends.
        """
        for goal in goals_to_check(state.open_goals, state.open_in_play, after):
            seats = self._achievers(state, goal)
            if seats:
                state.open_in_play.remove(goal)
                self._decide(state, Rewards(must=seats, goal=goal))
                return [GoalMet(goal=goal, seats=seats)]
        return self._end_round(state)

    def _achievers(self, state: ZooState, goal: int) -> list[int]:
        """Seats whose zoo meets an open goal now."""
        card = self.open_goals[goal]
        return [s for s, p in enumerate(state.players) if zoo.measure(p, card.metric, self.cards) >= card.at_least]

    def _reward(self, state: ZooState, seat: int, goal: int, reward: Gain) -> list[Event]:
        player = state.players[seat]
        zoo.gain(player, reward)
        return [RewardTaken(seat=seat, goal=goal, gain=reward, values=Values(**player.values))]

    def _reward_options(self, state: ZooState, seat: int) -> list[ChooseReward]:
        """Either reward of the goal being rewarded."""
        top = self.top(state)
        return [ChooseReward(top.goal, option) for option in (0, 1)] if isinstance(top, Rewards) else []

    def _reward_problem(self, state: ZooState, seat: int, action: ChooseReward) -> str | None:
        top = self.top(state)
        assert isinstance(top, Rewards)
        if action.goal != top.goal:
            return f"the reward chosen now is one of goal {top.goal}'s, not of goal {action.goal}"
        if action.option not in (0, 1):
            return "choose reward 0 or 1"
        return None

    def _choose_reward(self, state: ZooState, seat: int, action: ChooseReward) -> list[Event]:
        events = self._reward(state, seat, action.goal, self.open_goals[action.goal].rewards[action.option])
        if self._decided(state, seat):
            events += self._check_open_goals(state, after=action.goal)
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
                player.goals_revealed = True
                goals = [self.secret_goals[g] for g in player.secret_goals]
                events.append(SecretGoalsRevealed(seat=seat, goals=goals, met=met))
                if len(met) == 1:
                    events += self._score_secret(state, seat, met[0])
                elif len(met) > 1:
                    player.secret_goal_choices = met
            choosing = [s for s, p in enumerate(state.players) if p.secret_goal_choices]
            if choosing:
                self._decide(state, SecretGoals(must=choosing))
                return events
        return events + self._finish_game(state)

    def _score_secret(self, state: ZooState, seat: int, goal: int) -> list[Event]:
        player = state.players[seat]
        player.scored_secret_goal = goal
        reward = self.secret_goals[goal].reward
        zoo.gain(player, reward)
        return [SecretGoalScored(seat=seat, goal=goal, gain=reward, values=Values(**player.values))]

    def _secret_goal_problem(self, state: ZooState, seat: int, action: ChooseSecretGoal) -> str | None:
        if action.goal not in state.players[seat].secret_goal_choices:
            return f"goal {action.goal} is not one of the secret goals you met"
        return None

    def _choose_secret_goal(self, state: ZooState, seat: int, action: ChooseSecretGoal) -> list[Event]:
        state.players[seat].secret_goal_choices = []
        events = self._score_secret(state, seat, action.goal)
        if self._decided(state, seat):
            events += self._finish_game(state)
        return events

    def _finish_game(self, state: ZooState) -> list[Event]:
        """The most points wins; a tie goes to more animals housed; a tie on both is shared."""
        keys = [(zoo.score(p.values, state.negative_values), len(zoo.animals(p))) for p in state.players]
        best = max(keys)
        winners = [s for s, k in enumerate(keys) if k == best]
        everyone = len(winners) == len(keys)
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "draw" if everyone else ("win" if seat in winners else "loss")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(key[0]), rank=rank))
        names = listing([seat_name(w) for w in winners])
        reason = f"{names} {'win' if len(winners) > 1 else 'wins'} with {best[0]} points and {best[1]} animals"
        if everyone:
            reason = f"everyone ties with {best[0]} points and {best[1]} animals"
        state.outcome = Outcome(seats=results, reason=reason)
        self.clear(state)
        return [MatchFinished(outcome=state.outcome)]

    # -------------------------------------------------------------------- view

    def preview(self, player: Player, card: Card) -> Preview:
        """What placing the card's animal would do now (the same anywhere it fits): the engine's own counting."""
        counts = zoo.Counts.of(player, self.cards)
        choice = (None, None) not in self.choices(card)
        change = None if choice else Values(*zoo.effect_change(card, counts, player.values))
        return Preview(
            card=card.id,
            count=zoo.effect_count(card, counts),
            applies=zoo.effect_applies(card, counts, player.values),
            change=change,
        )

    def view(self, state: ZooState, seat: int | None) -> ZooView:
        """What `seat` (None: a spectator) may know: never another hand, pick, kept card or unrevealed goal."""
        mine = state.players[seat] if seat is not None else None
        top = self.cards[state.draw_pile[-1]].enclosures if state.draw_pile else None
        hand = [self.cards[c] for c in mine.hand] if mine else []
        picks = [self.cards[c] for c in mine.picks] if mine else []
        kept = self.cards[mine.kept] if mine and mine.kept is not None else None
        zoos = [self._zoo_view(state, s, seat) for s in range(len(state.players))]
        open_goals = [OpenGoalState(self.open_goals[g], g in state.open_in_play) for g in state.open_goals]
        held = [*hand, *picks] if kept is None else [*hand, *picks, kept]
        decision = self.top(state)
        return ZooView(
            mode=state.mode,
            viewer=seat,
            round=state.round,
            rounds=state.rounds,
            pick=state.pick,
            zoos=zoos,
            hand=hand,
            picks=picks,
            kept=kept,
            passed=[self.cards[c] for c in mine.passed] if mine else [],
            open_goals=open_goals,
            draw_pile_size=len(state.draw_pile),
            draw_pile_top=top,
            discards=[self.cards[c] for c in state.discards],
            prompt=self.prompt(state),
            texts=self.text.texts(
                state.mode,
                state.negative_values,
                held,
                [g.goal for g in open_goals],
                [g for z in zoos for g in z.secret_goals],
            ),
            negative_values=state.negative_values,
            reward_goal=decision.goal if isinstance(decision, Rewards) else None,
            previews=[self.preview(mine, self.cards[c]) for c in mine.picks] if mine else [],
            sheet_connector=zoo.SHEET_CONNECTOR if zoo.paths_connect(state.mode) else None,
            outcome=state.outcome,
        )

    def _zoo_view(self, state: ZooState, seat: int, viewer: int | None) -> PlayerZoo:
        def enclosure(e: Enclosure) -> EnclosureView:
            return EnclosureView(e.type, [self.cards[a] for a in e.animals], e.large)

        def open_end(end: End) -> OpenEnd:
            position = zoo.end_position(player, end)
            if not zoo.paths_connect(state.mode):
                return OpenEnd(end=end, position=position)
            connector = zoo.end_connector(player, end, self.cards)
            return OpenEnd(end=end, position=position, connector=connector, text=end_words(end, connector))

        player = state.players[seat]
        top = self.top(state)
        building = isinstance(top, Drafting) or (isinstance(top, Construction) and seat in top.must)
        return PlayerZoo(
            seat=seat,
            row=[PlacedCard(p.position, self.cards[p.card], enclosure(p.top), enclosure(p.bottom)) for p in player.row],
            values=Values(**player.values),
            score=zoo.score(player.values, state.negative_values),
            score_factors=list(zoo.score_factors(player.values, state.negative_values)),
            animals=len(zoo.animals(player)),
            hand_size=len(player.hand),
            picked=len(player.picks),
            finished=not building,
            secret_goals=[self.secret_goals[g] for g in player.secret_goals]
            if seat == viewer or player.goals_revealed
            else [],
            scored_secret_goal=player.scored_secret_goal,
            keeps_a_card=player.kept is not None,
            reward_choices=[top.goal] if isinstance(top, Rewards) and seat in top.must else [],
            secret_goal_choices=list(player.secret_goal_choices),
            ends=[open_end(end) for end in zoo.open_ends(player)],
            side=player.side,
        )

    def state_from_view(self, view: ZooView, seat: int | None) -> ZooState:
        """A state consistent with `view`: unseen cards and goals dealt in catalogue order.

        The others' hands, picks and kept cards and the face-down pile take the cards the
        seat has not seen where they lie (the pile's top: one with the enclosure side it
        shows); the others' unrevealed secret goals and the box take the unseen goals.
        """
        unknown = [c.id for c in self.data.cards if c.id not in _seen_cards(view)]
        pile: list[int] = []
        if view.draw_pile_top is not None:
            top = next(c for c in unknown if self.cards[c].enclosures == view.draw_pile_top)
            unknown.remove(top)
            pile = [top]
        shown = {g.id for z in view.zoos for g in z.secret_goals}
        unseen_goals = [g.id for g in self.data.secret_goals if g.id not in shown]
        players = [self._player_from_view(view, seat, z, unknown, unseen_goals) for z in view.zoos]
        return ZooState(
            mode=view.mode,
            rng=Rng(0),
            rounds=view.rounds,
            players=players,
            draw_pile=unknown[: view.draw_pile_size - len(pile)] + pile,
            decisions=_decisions_from_view(view),
            round=view.round,
            pick=view.pick,
            discards=[c.id for c in view.discards],
            open_goals=[g.goal.id for g in view.open_goals],
            open_in_play=[g.goal.id for g in view.open_goals if g.open],
            secret_goal_box=unseen_goals,
            negative_values=view.negative_values,
            outcome=view.outcome,
        )

    def _player_from_view(
        self, view: ZooView, seat: int | None, z: PlayerZoo, unknown: list[int], unseen_goals: list[int]
    ) -> Player:
        """One player's part of a state from `seat`'s view: the unseen cards and goals are taken from the lists."""
        own = z.seat == seat
        if own:
            hand, picks = [c.id for c in view.hand], [c.id for c in view.picks]
            kept = view.kept.id if view.kept is not None else None
        else:
            hand = [unknown.pop() for _ in range(z.hand_size)]
            picks = [unknown.pop() for _ in range(z.picked)]
            kept = unknown.pop() if z.keeps_a_card else None
        goals = [g.id for g in z.secret_goals]
        if view.mode == "advanced" and not goals:
            goals = [unseen_goals.pop() for _ in range(SECRET_GOALS_EACH)]
        return Player(
            values={"dangerous": z.values.dangerous, "cute": z.values.cute, "rare": z.values.rare},
            side=z.side,
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
            passed=[c.id for c in view.passed] if own else [],
            secret_goals=goals,
            goals_revealed=any(other.secret_goals for other in view.zoos if other.seat != seat),
            secret_goal_choices=list(z.secret_goal_choices),
            scored_secret_goal=z.scored_secret_goal,
        )

    # ------------------------------------------------------------------ words


def _seen_cards(view: ZooView) -> set[int]:
    """Every card `view` shows: the own hand, picks and kept card, the discards, every zoo's row."""
    known = {c.id for c in (*view.hand, *view.picks, *view.discards)}
    if view.kept is not None:
        known.add(view.kept.id)
    for player_zoo in view.zoos:
        for placed in player_zoo.row:
            known.add(placed.card.id)
            known.update(a.id for a in (*placed.top.animals, *placed.bottom.animals))
    return known


def _decisions_from_view(view: ZooView) -> list[ZooDecision]:
    """The pending decision the prompt shows."""
    decision = DECISIONS.get(view.prompt.kind)
    if decision is Rewards:
        assert view.reward_goal is not None
        return [Rewards(must=list(view.prompt.must), goal=view.reward_goal)]
    return [decision(must=list(view.prompt.must))] if decision is not None else []


def _strictly_most(measures: list[int], seat: int) -> bool:
    """The seat has more than every other seat (a tie is not "the most")."""
    mine = measures[seat]
    return all(mine > other for s, other in enumerate(measures) if s != seat)
