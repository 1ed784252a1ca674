"""What a seat sees, and a state consistent with it for search (determinization).

The view shows everyone every zoo, the open goals, the discards and the draw pile's size
and top enclosure side, and the seat alone its hand, picks, kept card and passed cards, and
its secret goals until they are revealed at the end. `state_from_view` deals the cards and
goals the seat has not seen in catalogue order and rebuilds the pending decision the view's
prompt shows. `preview` (what placing a picked card's animal would do now) is shown with it.
"""

from __future__ import annotations

from menagerie.rules.rng import Rng
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import Card
from menagerie.zoo.engine.ending import SECRET_GOALS_EACH
from menagerie.zoo.engine.model import (
    Construction,
    Drafting,
    Enclosure,
    EnclosureView,
    End,
    OpenEnd,
    OpenGoalState,
    Placed,
    PlacedCard,
    Player,
    PlayerZoo,
    Preview,
    Rewards,
    SecretGoals,
    Values,
    ZooDecision,
    ZooState,
    ZooView,
)
from menagerie.zoo.engine.parts import EngineParts
from menagerie.zoo.engine.text import end_words

DECISIONS: dict[str, type[ZooDecision]] = {d.kind(): d for d in (Drafting, Construction, Rewards, SecretGoals)}


class ViewsAndDeterminization(EngineParts):
    """A seat's view of the state, and a state rebuilt from a view."""

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
        seen = _seen_cards(view)
        unknown = [c.id for c in self.data.cards if c.id not in seen]
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
