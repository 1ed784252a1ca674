"""Fantasy Zoo's rules, one test each (see services/zoo/RULES.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import GameEvent, seats_affected
from menagerie.zoo.engine import ZooState, zoo
from menagerie.zoo.engine.data import (
    ChooseOne,
    Exchange,
    Gain,
    IfCountAtLeast,
    IfValueAtMost,
    PerCount,
    Plain,
    ValueName,
)
from menagerie.zoo.engine.model import (
    Build,
    ChooseReward,
    ChooseSecretGoal,
    ConstructionFinished,
    Finish,
    GoalMet,
    Keep,
    Pick,
    Place,
    RewardTaken,
    SecretGoalsRevealed,
)
from menagerie.zoo.tests.scenarios import CARDS, ENGINE, built, card_where, cards_where, constructing, new_match


def small(habitat: str, effect: type | None = None, name: str | None = None) -> int:
    return card_where(
        lambda c: (
            c.animal.size == "small"
            and c.animal.habitat == habitat
            and (effect is None or isinstance(c.animal.effect, effect))
            and (name is None or c.animal.name == name)
        )
    )


def enclosure_card(top: str, avoid: tuple[int, ...] = ()) -> int:
    return card_where(lambda c: c.enclosures.top == top, avoid)


def kinds(events: Sequence[GameEvent]) -> list[str]:
    return [e.kind for e in events]


# ----------------------------------------------------------------------------- setup


def test_beginner_setup_deals_four_cards_each_and_no_goals() -> None:
    state = new_match("beginner", seats=3)
    assert [len(p.hand) for p in state.players] == [4, 4, 4]
    assert len(state.draw_pile) == 106 - 12
    assert state.open_goals == [] and all(p.secret_goals == [] for p in state.players)
    assert (ENGINE.prompt(state).kind, state.round, state.rounds) == ("drafting", 1, 5)
    assert all(p.values == {"dangerous": 0, "cute": 0, "rare": 0} for p in state.players)


def test_advanced_setup_deals_two_secret_goals_each_and_reveals_six_open_goals() -> None:
    state = new_match("advanced", seats=4)
    assert [len(p.secret_goals) for p in state.players] == [2, 2, 2, 2]
    assert len({g for p in state.players for g in p.secret_goals}) == 8
    assert len(state.open_goals) == 6 == len(state.open_in_play)


def test_six_players_play_four_rounds() -> None:
    assert new_match(seats=6).rounds == 4
    assert new_match(seats=5).rounds == 5


def test_the_draw_piles_top_enclosure_side_is_public_and_nothing_else() -> None:
    state = new_match(seats=2)
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        assert view.draw_pile_top == CARDS[state.draw_pile[-1]].enclosures
        assert view.draw_pile_size == len(state.draw_pile)


# -------------------------------------------------------------------------- drafting


def test_everyone_picks_at_once_then_the_hands_pass_left() -> None:
    state = new_match(seats=3)
    hands = [list(p.hand) for p in state.players]
    events = ENGINE.apply(state, 1, Pick(hands[1][0]))
    assert seats_affected(events, 3) == {1}  # the others' decisions are untouched
    assert ENGINE.to_act(state).must == (0, 2)
    with pytest.raises(IllegalAction, match="picked this pass already"):
        ENGINE.check(state, 1, Pick(hands[1][1]))
    with pytest.raises(IllegalAction, match="not in the hand in front of you"):
        ENGINE.check(state, 0, Pick(hands[1][1]))
    ENGINE.apply(state, 2, Pick(hands[2][0]))
    events = ENGINE.apply(state, 0, Pick(hands[0][0]))
    assert kinds(events) == ["card_picked", "hands_passed", "hand_received", "hand_received", "hand_received"]
    assert seats_affected(events, 3) == {0, 1, 2}
    for seat in range(3):
        assert sorted(state.players[seat].hand) == sorted(hands[seat - 1][1:])
        assert state.players[seat].passed == hands[seat][1:]
    assert state.pick == 2


def test_the_last_card_of_a_hand_is_taken_by_itself_then_construction_starts() -> None:
    state = new_match(seats=2)
    for _ in range(3):
        for seat in (0, 1):
            ENGINE.apply(state, seat, Pick(state.players[seat].hand[0]))
    assert ENGINE.prompt(state).kind == "construction"
    assert [len(p.picks) for p in state.players] == [4, 4]
    assert all(p.hand == [] for p in state.players)
    assert ENGINE.to_act(state).must == (0, 1)


def test_a_player_sees_only_the_hand_in_front_of_them_and_their_own_picks() -> None:
    state = new_match(seats=3)
    for seat in range(3):
        ENGINE.apply(state, seat, Pick(state.players[seat].hand[0]))
    view = ENGINE.view(state, 0)
    assert [c.id for c in view.hand] == state.players[0].hand
    assert [c.id for c in view.picks] == state.players[0].picks
    assert [c.id for c in view.passed] == state.players[0].passed
    assert [z.hand_size for z in view.zoos] == [3, 3, 3] and [z.picked for z in view.zoos] == [1, 1, 1]
    spectator = ENGINE.view(state, None)
    assert spectator.hand == [] and spectator.picks == [] and spectator.passed == []


# ---------------------------------------------------------------------- construction


def test_the_first_enclosure_card_goes_beside_the_sheet_on_either_side() -> None:
    a, b = cards_where(lambda c: True)[:2]
    state = constructing(new_match(seats=2), {0: [a, b], 1: []})
    assert {x for x in ENGINE.legal_actions(state, 0) if isinstance(x, Build) and x.card == a} == {
        Build(a, "left"),
        Build(a, "right"),
    }
    assert [(e.end, e.position) for e in ENGINE.view(state, 1).zoos[0].ends] == [("left", -1), ("right", 1)]
    ENGINE.apply(state, 0, Build(a, "left"))
    ENGINE.apply(state, 0, Build(b, "left"))
    assert [(p.position, p.card) for p in state.players[0].row] == [(-2, b), (-1, a)]


def test_the_zoo_grows_from_the_one_edge_of_the_sheet_its_first_card_chose() -> None:
    """Rulebook, Building Enclosures: "Start building your zoo from one edge of your Character Sheet." and
    "New Enclosure Cards can only be added to an open end of your zoo." The first card chooses the edge;
    the zoo then has one open end (it used to grow on both sides of the sheet)."""
    cards = cards_where(lambda c: True)[:4]
    state = constructing(new_match(seats=2), {0: cards})
    assert zoo.open_ends(state.players[0]) == ("left", "right") and ENGINE.view(state, 1).zoos[0].side is None
    ENGINE.apply(state, 0, Build(cards[0], "right"))
    ENGINE.apply(state, 0, Build(cards[1], "right"))
    assert state.players[0].side == "right"
    with pytest.raises(IllegalAction, match="Building enclosures: your zoo grows from the right edge"):
        ENGINE.check(state, 0, Build(cards[2], "left"))
    builds = {a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Build)}
    assert builds == {Build(cards[2], "right"), Build(cards[3], "right")}
    view = ENGINE.view(state, 1)  # everyone sees the edge chosen and the one open end
    assert view.zoos[0].side == "right"
    assert [(e.end, e.position) for e in view.zoos[0].ends] == [("right", 3)]
    ENGINE.apply(state, 0, Build(cards[2], "right"))
    assert [p.position for p in state.players[0].row] == [1, 2, 3]
    assert zoo.open_ends(state.players[0]) == ("right",) and zoo.end_position(state.players[0], "right") == 4


def test_advanced_mode_paths_must_connect_exactly() -> None:
    crooked = card_where(lambda c: c.enclosures.left != "middle" and c.enclosures.right != "middle")
    straight = card_where(lambda c: c.enclosures.left == "middle")
    state = constructing(new_match("advanced", seats=2), {0: [crooked, straight]})
    with pytest.raises(IllegalAction, match="Paths: the right end needs a path at the middle"):
        ENGINE.check(state, 0, Build(crooked, "right"))
    ENGINE.apply(state, 0, Build(straight, "right"))
    beginner = constructing(new_match("beginner", seats=2), {0: [crooked]})
    ENGINE.apply(beginner, 0, Build(crooked, "right"))


def test_an_animal_lives_only_in_its_habitat_or_a_mystic_enclosure() -> None:
    troll = small("forest")
    desert_top = enclosure_card("desert", avoid=(troll,))
    mystic_top = enclosure_card("mystic", avoid=(troll, desert_top))
    state = constructing(new_match(seats=2), {0: [troll]})
    built(state, 0, [desert_top, mystic_top])
    with pytest.raises(IllegalAction, match=f"the {CARDS[troll].animal.name} lives in the forest, not in a desert"):
        ENGINE.check(state, 0, Place(troll, 1, "top"))
    assert Place(troll, 2, "top", *_choice(troll)) in ENGINE.legal_actions(state, 0)  # mystic: any animal


def test_same_name_animals_stack_and_different_animals_never_share() -> None:
    name = CARDS[small("forest", Plain)].animal.name
    first, second = cards_where(lambda c: c.animal.name == name)[:2]
    stranger = card_where(lambda c: c.animal.habitat == "forest" and c.animal.size == "small" and c.animal.name != name)
    home = enclosure_card("forest", avoid=(first, second, stranger))
    state = constructing(new_match(seats=2), {0: [first, second, stranger]})
    built(state, 0, [home])
    ENGINE.apply(state, 0, Place(first, 1, "top"))
    ENGINE.apply(state, 0, Place(second, 1, "top"))
    assert state.players[0].row[0].top.animals == [first, second]
    assert zoo.Counts.of(state.players[0], CARDS).largest_stack == 2
    with pytest.raises(IllegalAction, match="different animals never share an enclosure"):
        ENGINE.check(state, 0, Place(stranger, 1, "top", *_choice(stranger)))


def _choice(card: int) -> tuple[ValueName | None, ValueName | None]:
    effect = CARDS[card].animal.effect
    if isinstance(effect, Exchange):
        return "cute", "rare"
    if isinstance(effect, ChooseOne):
        return effect.options[0], None
    return None, None


def test_a_large_animal_needs_two_neighbouring_enclosures_on_one_level() -> None:
    """Two neighbouring cards of the row, named by the left one; a zoo growing left works the same.

    (The row no longer spans both sides of the sheet — "Start building your zoo from one
    edge of your Character Sheet" — so the sheet never lies between two cards.)
    """
    large = card_where(lambda c: c.animal.size == "large")
    name, habitat = CARDS[large].animal.name, CARDS[large].animal.habitat
    other = card_where(lambda c: c.animal.name == name and c.id != large)
    homes = cards_where(lambda c: c.enclosures.top == habitat and c.id not in (large, other))[:4]
    state = constructing(new_match(seats=2), {0: [large], 1: [other]})
    built(state, 0, [homes[0]], start=1)
    with pytest.raises(IllegalAction, match="Large animals"):
        ENGINE.check(state, 0, Place(large, 1, "top"))  # one enclosure, no neighbour
    built(state, 0, [homes[1]], start=2)
    ENGINE.apply(state, 0, Place(large, 1, "top"))
    player = state.players[0]
    assert player.row[0].top.animals == [large] == player.row[1].top.animals
    assert player.row[0].top.large and player.row[1].top.large
    assert zoo.Counts.of(player, CARDS).count("animals", None) == 1
    again = card_where(lambda c: c.animal.name == name and c.id not in (large, other))
    state.players[0].picks.append(again)
    assert Place(again, 1, "top") in ENGINE.legal_actions(state, 0)  # the same large animal stacks on the pair
    built(state, 1, homes[2:4], start=-1)  # seat 1's zoo grows left: cards at -1 and -2
    assert [a for a in ENGINE.legal_actions(state, 1) if isinstance(a, Place)] == [Place(other, -2, "top")]


# --------------------------------------------------------------------------- effects


def placed_with(effect: type, setup_values: dict[str, int] | None = None) -> tuple[int, dict[str, int]]:
    """Places the first card with `effect` into a fitting enclosure; returns (card, values after)."""
    card = card_where(lambda c: isinstance(c.animal.effect, effect) and c.animal.size == "small")
    home = card_where(lambda c: c.enclosures.top == CARDS[card].animal.habitat and c.id != card)
    state = constructing(new_match(seats=2), {0: [card]})
    if setup_values:
        state.players[0].values.update(setup_values)
    built(state, 0, [home])
    ENGINE.apply(state, 0, Place(card, 1, "top", *_choice(card)))
    return card, state.players[0].values


def test_plain_effects_change_values_at_once() -> None:
    card, values = placed_with(Plain)
    gain = CARDS[card].animal.effect.gain  # type: ignore[union-attr]
    assert values == {"dangerous": max(-3, gain.dangerous), "cute": max(-3, gain.cute), "rare": max(-3, gain.rare)}


def test_if_value_at_most_applies_only_below_the_threshold() -> None:
    card = card_where(lambda c: isinstance(c.animal.effect, IfValueAtMost) and c.animal.size == "small")
    effect = CARDS[card].animal.effect
    assert isinstance(effect, IfValueAtMost)
    _, low = placed_with(IfValueAtMost, {effect.value: effect.at_most})
    _, high = placed_with(IfValueAtMost, {effect.value: effect.at_most + 1})
    assert low[effect.value] == effect.at_most + effect.gain.get(effect.value)
    assert high[effect.value] == effect.at_most + 1


def test_if_count_at_least_counts_the_animal_just_placed() -> None:
    card = card_where(lambda c: isinstance(c.animal.effect, IfCountAtLeast) and c.animal.effect.count.of == "animals")
    effect = CARDS[card].animal.effect
    assert isinstance(effect, IfCountAtLeast)
    habitat = CARDS[card].animal.habitat
    others = cards_where(
        lambda c: c.id != card and c.animal.size == "small" and (effect.count.type in (None, c.animal.habitat))
    )
    homes = cards_where(lambda c: c.enclosures.top == "mystic" and c.enclosures.bottom == "mystic")
    homes += cards_where(lambda c: c.enclosures.top == "mystic" and c.id not in homes)
    state = constructing(new_match(seats=2), {0: [card]})
    built(state, 0, homes[: effect.at_least])
    for position, animal in zip(range(1, effect.at_least), others, strict=False):
        state.players[0].row[position - 1].top.animals.append(animal)
    before = dict(state.players[0].values)
    assert zoo.Counts.of(state.players[0], CARDS).count("animals", effect.count.type) == effect.at_least - 1
    ENGINE.apply(state, 0, Place(card, effect.at_least, "top", *_choice(card)))
    assert state.players[0].values != before, f"{habitat} animal number {effect.at_least} triggers the effect"


def test_per_count_effects_count_what_the_zoo_holds() -> None:
    card = card_where(lambda c: isinstance(c.animal.effect, PerCount) and c.animal.effect.count.of == "enclosures")
    effect = CARDS[card].animal.effect
    assert isinstance(effect, PerCount)
    home = card_where(lambda c: c.enclosures.top in (CARDS[card].animal.habitat, "mystic") and c.id != card)
    state = constructing(new_match(seats=2), {0: [card]})
    built(state, 0, [home])
    expected = effect.per * zoo.Counts.of(state.players[0], CARDS).count("enclosures", effect.count.type)
    ENGINE.apply(state, 0, Place(card, 1, "top"))
    assert state.players[0].values[effect.value] == expected


def test_exchange_moves_one_point_between_values_of_the_players_choosing() -> None:
    card = card_where(lambda c: isinstance(c.animal.effect, Exchange))
    home = card_where(lambda c: c.enclosures.top in (CARDS[card].animal.habitat, "mystic") and c.id != card)
    state = constructing(new_match(seats=2), {0: [card]})
    built(state, 0, [home])
    choices = {
        (a.increase, a.decrease) for a in ENGINE.legal_actions(state, 0) if isinstance(a, Place) and a.card == card
    }
    assert len(choices) == 6 and all(up != down for up, down in choices)
    with pytest.raises(IllegalAction, match="two different values"):
        ENGINE.check(state, 0, Place(card, 1, "top", "cute", "cute"))
    ENGINE.apply(state, 0, Place(card, 1, "top", "rare", "dangerous"))
    assert state.players[0].values == {"dangerous": -1, "cute": 0, "rare": 1}


def test_choose_one_raises_the_chosen_value() -> None:
    card = card_where(lambda c: isinstance(c.animal.effect, ChooseOne))
    effect = CARDS[card].animal.effect
    assert isinstance(effect, ChooseOne)
    home = card_where(lambda c: c.enclosures.top in (CARDS[card].animal.habitat, "mystic") and c.id != card)
    state = constructing(new_match(seats=2), {0: [card]})
    built(state, 0, [home])
    with pytest.raises(IllegalAction, match="choose to increase"):
        ENGINE.check(state, 0, Place(card, 1, "top"))
    ENGINE.apply(state, 0, Place(card, 1, "top", effect.options[1]))
    assert state.players[0].values[effect.options[1]] == 1


def test_a_value_never_drops_below_minus_three() -> None:
    player = new_match().players[0]
    zoo.add(player, "cute", -2)
    zoo.add(player, "cute", -5)
    assert player.values["cute"] == -3
    zoo.add(player, "cute", 1)
    assert player.values["cute"] == -2


# ------------------------------------------------------------------ keeping a card


def test_keep_at_most_one_card_and_discard_the_rest_face_up() -> None:
    a, b, c = cards_where(lambda card: True)[:3]
    state = constructing(new_match(seats=2), {0: [a, b, c], 1: []})
    ENGINE.apply(state, 0, Keep(a))
    with pytest.raises(IllegalAction, match="you may keep only one card"):
        ENGINE.check(state, 0, Keep(b))
    assert ENGINE.view(state, 1).zoos[0].keeps_a_card is True
    assert ENGINE.view(state, 1).kept is None
    ENGINE.apply(state, 1, Finish())
    events = ENGINE.apply(state, 0, Finish())
    assert isinstance(events[0], ConstructionFinished) and events[0].discarded == [CARDS[b], CARDS[c]]
    assert state.discards == [b, c]
    assert state.round == 2 and a in state.players[0].picks  # the kept card comes back


# ---------------------------------------------------------------------------- goals


def goal_where(kind: str) -> int:
    return next(g.id for g in ENGINE.data.open_goals if g.metric.kind == kind and g.metric.type is None)


def advanced_round_end(enclosure_cards: dict[int, int], *goals: int) -> ZooState:
    """An advanced match at the end of round 1's construction; seat s has enclosure_cards[s] cards built.

    `goals` are the open goals, in the order they were revealed; seats 1 and 2 have finished.
    """
    state = constructing(new_match("advanced", seats=3), {})
    state.open_in_play = list(goals)
    state.open_goals = list(goals)
    pool = iter(cards_where(lambda c: True))
    for seat, count in enclosure_cards.items():
        built(state, seat, [next(pool) for _ in range(count)])
    for seat in (1, 2):
        ENGINE.apply(state, seat, Finish())
    return state


def _gain(gain: Gain) -> tuple[int, int, int]:
    return (gain.dangerous, gain.cute, gain.rare)


def _values(gain: Gain) -> dict[str, int]:
    return dict(zip(("dangerous", "cute", "rare"), _gain(gain), strict=True))


def test_a_lone_achiever_of_an_open_goal_chooses_one_of_its_two_rewards() -> None:
    """Rulebook, Checking Open Goal Cards: "If a player meets the condition on a goal card, they immediately
    receive the points indicated by the arrow on the card. Example: If a player has at least 4 forest animals
    in their zoo, they instantly gain the reward shown on the card, such as two dangerous points." — one
    reward, chosen as "each may choose one of the two rewards shown on the card" (a lone achiever used to
    take both)."""
    goal = goal_where("enclosures")
    threshold = ENGINE.open_goals[goal].at_least
    state = advanced_round_end({0: (threshold + 1) // 2, 1: 1, 2: 0}, goal)
    events = ENGINE.apply(state, 0, Finish())
    assert [e for e in events if isinstance(e, GoalMet)] == [GoalMet(goal=goal, seats=[0])]
    assert not any(isinstance(e, RewardTaken) for e in events)
    assert state.open_in_play == []  # a met card is discarded
    assert (ENGINE.prompt(state).kind, ENGINE.to_act(state).must) == ("rewards", (0,))
    assert ENGINE.legal_actions(state, 0) == [ChooseReward(goal, 0), ChooseReward(goal, 1)]
    view = ENGINE.view(state, 1)
    assert view.reward_goal == goal and [z.reward_choices for z in view.zoos] == [[goal], [], []]
    ENGINE.apply(state, 0, ChooseReward(goal, 1))
    assert state.players[0].values == _values(ENGINE.open_goals[goal].rewards[1])
    assert state.round == 2


def test_several_achievers_each_choose_one_reward_and_the_card_is_discarded() -> None:
    """Rulebook: "If multiple players meet the condition on a goal card simultaneously, each may choose one of
    the two rewards shown on the card." and "The goal card is then discarded." """
    goal = goal_where("enclosures")
    cards = (ENGINE.open_goals[goal].at_least + 1) // 2
    state = advanced_round_end({0: cards, 1: cards, 2: 0}, goal)
    ENGINE.apply(state, 0, Finish())
    assert ENGINE.prompt(state).kind == "rewards"
    assert ENGINE.to_act(state).must == (0, 1)
    assert ENGINE.legal_actions(state, 0) == [ChooseReward(goal, 0), ChooseReward(goal, 1)]
    with pytest.raises(IllegalAction, match="Open goals: you have no open-goal reward to choose"):
        ENGINE.check(state, 2, ChooseReward(goal, 0))
    ENGINE.apply(state, 0, ChooseReward(goal, 0))
    ENGINE.apply(state, 1, ChooseReward(goal, 1))
    assert state.round == 2 and state.open_in_play == []
    assert state.players[0].values == _values(ENGINE.open_goals[goal].rewards[0])
    assert state.players[1].values == _values(ENGINE.open_goals[goal].rewards[1])


def dangerous_goals() -> tuple[int, int]:
    """(a goal met with 10 enclosures that may pay +2 Dangerous, the goal "Dangerous ≥ 6")."""
    enclosures = goal_where("enclosures")
    dangerous = next(g.id for g in ENGINE.data.open_goals if g.metric.value == "dangerous")
    assert ENGINE.open_goals[enclosures].rewards[0].dangerous == 2 and ENGINE.open_goals[dangerous].at_least == 6
    return enclosures, dangerous


def test_open_goals_are_checked_one_by_one_each_reward_before_the_next_check() -> None:
    """Rulebook: "The six Open Goal Cards placed at the start of the game are checked one by one." and "they
    immediately receive the points": one Rewards decision per met goal, in the order the goals were revealed,
    the next goal checked on the zoos with the reward taken (all used to be checked first, rewards after)."""
    enclosures, dangerous = dangerous_goals()
    state = advanced_round_end({0: 5, 1: 0, 2: 0}, enclosures, dangerous)
    state.players[0].values["dangerous"] = 4
    events = ENGINE.apply(state, 0, Finish())
    assert [e.goal for e in events if isinstance(e, GoalMet)] == [enclosures]  # the second waits for the reward
    assert ENGINE.view(state, 0).reward_goal == enclosures
    with pytest.raises(IllegalAction, match=f"the reward chosen now is one of goal {enclosures}'s"):
        ENGINE.check(state, 0, ChooseReward(dangerous, 0))
    events = ENGINE.apply(state, 0, ChooseReward(enclosures, 0))  # +2 Dangerous: 6
    assert [type(e) for e in events] == [RewardTaken, GoalMet]
    assert events[1] == GoalMet(goal=dangerous, seats=[0])
    assert (ENGINE.prompt(state).kind, ENGINE.view(state, 0).reward_goal) == ("rewards", dangerous)
    ENGINE.apply(state, 0, ChooseReward(dangerous, 0))
    assert state.round == 2 and state.open_in_play == []


def test_a_goal_checked_before_a_reward_that_meets_it_waits_for_the_next_round() -> None:
    """Rulebook: "The six Open Goal Cards placed at the start of the game are checked one by one." and "If no
    player meets the condition on a goal card, it remains in play and will be checked again during the third
    phase of the next round." A goal already checked is not checked again after a later goal's reward."""
    enclosures, dangerous = dangerous_goals()
    state = advanced_round_end({0: 5, 1: 0, 2: 0}, dangerous, enclosures)
    state.players[0].values["dangerous"] = 4
    ENGINE.apply(state, 0, Finish())
    ENGINE.apply(state, 0, ChooseReward(enclosures, 0))
    assert state.players[0].values["dangerous"] == 6
    assert state.round == 2 and state.open_in_play == [dangerous]


def test_an_unmet_open_goal_stays_in_play() -> None:
    goal = goal_where("enclosures")
    state = advanced_round_end({0: 1, 1: 1, 2: 1}, goal)
    ENGINE.apply(state, 0, Finish())
    assert state.open_in_play == [goal] and state.round == 2


# --------------------------------------------------------------------- secret goals


def final_construction(seats: int = 3) -> ZooState:
    """An advanced match in the last round's construction."""
    state = constructing(new_match("advanced", seats=seats), {})
    state.round = state.rounds
    state.open_in_play = []
    return state


def secret(kind: str, type_: str | None = None) -> int:
    return next(g.id for g in ENGINE.data.secret_goals if g.metric.kind == kind and g.metric.type == type_)


def test_a_secret_goal_needs_strictly_the_most_and_a_tie_fails() -> None:
    most_enclosures = secret("enclosures")
    state = final_construction()
    state.players[0].secret_goals = [most_enclosures, secret("large_animals")]
    pool = iter(cards_where(lambda c: True))
    built(state, 0, [next(pool), next(pool)])
    built(state, 1, [next(pool), next(pool)])
    events = [e for seat in (0, 1, 2) for e in ENGINE.apply(state, seat, Finish())]
    revealed = next(e for e in events if isinstance(e, SecretGoalsRevealed) and e.seat == 0)
    assert revealed.met == []
    assert zoo.measure(state.players[0], ENGINE.secret_goals[most_enclosures].metric, CARDS) == 4
    assert zoo.measure(state.players[1], ENGINE.secret_goals[most_enclosures].metric, CARDS) == 4  # a tie
    assert state.players[0].scored_secret_goal is None


def test_with_both_secret_goals_met_the_player_chooses_which_scores() -> None:
    most_enclosures = secret("enclosures")
    most_animals = secret("animals")
    state = final_construction()
    state.players[0].secret_goals = [most_enclosures, most_animals]
    animal = small("forest", Plain)
    home = card_where(lambda c: c.enclosures.top in ("forest", "mystic") and c.id != animal)
    built(state, 0, [home])
    state.players[0].row[0].top.animals.append(animal)
    for seat in (0, 1, 2):
        ENGINE.apply(state, seat, Finish())
    assert ENGINE.prompt(state).kind == "secret_goals"
    assert ENGINE.legal_actions(state, 0) == [ChooseSecretGoal(most_enclosures), ChooseSecretGoal(most_animals)]
    ENGINE.apply(state, 0, ChooseSecretGoal(most_animals))
    assert state.players[0].scored_secret_goal == most_animals
    assert ENGINE.outcome(state) is not None


# -------------------------------------------------------------------------- scoring


def test_the_score_multiplies_the_two_lower_values() -> None:
    """Rulebook, Zoo Values: "The final score is determined by multiplying the two lower values; the highest
    value is disregarded." (4 × 9 = 36), whatever the option on negative values."""
    for negatives in ("multiply", "count_as_zero"):
        assert zoo.score({"dangerous": 4, "cute": 9, "rare": 12}, negatives) == 36  # the rulebook's 4 × 9 = 36
        assert zoo.score({"dangerous": 12, "cute": 4, "rare": 9}, negatives) == 36
        assert zoo.score_factors({"dangerous": 12, "cute": 4, "rare": 9}, negatives) == (9, 4)


def test_a_negative_value_is_multiplied_as_it_is_by_default() -> None:
    """Rulebook: "The final score is determined by multiplying the two lower values; the highest value is
    disregarded." with "Some values can decrease below 0 but cannot go lower than -3 points": Dangerous 2,
    Cute 1, Rare −1 scores 1 × −1 = −1 (negative values used to count as 0)."""
    assert zoo.score({"dangerous": 2, "cute": 1, "rare": -1}, "multiply") == -1
    assert zoo.score_factors({"dangerous": 2, "cute": 1, "rare": -1}, "multiply") == (1, -1)
    assert zoo.score({"dangerous": -1, "cute": 5, "rare": 8}, "multiply") == -5
    assert zoo.score({"dangerous": -3, "cute": -2, "rare": 8}, "multiply") == 6  # the literal rule


def test_the_option_count_as_zero_counts_a_negative_value_as_0() -> None:
    """The match option negative_values=count_as_zero (RULES.md): −3 × −2 would otherwise reward failing twice."""
    assert zoo.score({"dangerous": 2, "cute": 1, "rare": -1}, "count_as_zero") == 0
    assert zoo.score({"dangerous": -3, "cute": -2, "rare": 8}, "count_as_zero") == 0  # not −3 × −2 = 6
    assert zoo.score({"dangerous": -1, "cute": 5, "rare": 8}, "count_as_zero") == 0
    assert zoo.score_factors({"dangerous": -1, "cute": 5, "rare": 8}, "count_as_zero") == (5, 0)


@pytest.mark.parametrize(("negatives", "winner", "scores"), [("multiply", 0, [6, 4]), ("count_as_zero", 1, [0, 4])])
def test_the_negative_values_option_decides_every_score_of_the_match(
    negatives: str, winner: int, scores: list[int]
) -> None:
    """The option is offered in both modes (default: the rulebook's product); the view carries it and
    counts every score with it, and so does the final result."""
    for mode in ENGINE.info.modes:
        (option,) = mode.options
        assert (option.name, option.allowed_values, option.default_value) == (
            "negative_values",
            ("multiply", "count_as_zero"),
            "multiply",
        )
    state, _ = ENGINE.setup(MatchSetup("beginner", 2, {"negative_values": negatives}), 1)
    assert state.negative_values == negatives
    constructing(state, {})
    state.round = state.rounds
    state.players[0].values = {"dangerous": -3, "cute": -2, "rare": 9}
    state.players[1].values = {"dangerous": 2, "cute": 2, "rare": 2}
    view = ENGINE.view(state, None)
    assert view.negative_values == negatives and [z.score for z in view.zoos] == scores
    for seat in (0, 1):
        ENGINE.apply(state, seat, Finish())
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners() == [winner]
    assert [s.score for s in outcome.seats] == scores


def test_the_default_match_multiplies_negative_values() -> None:
    assert new_match().negative_values == "multiply"


def test_the_most_points_win_and_a_tie_goes_to_more_animals() -> None:
    state = constructing(new_match("beginner", seats=3), {})
    state.round = state.rounds
    for player, values in zip(
        state.players,
        (
            {"dangerous": 3, "cute": 3, "rare": 5},
            {"dangerous": 3, "cute": 5, "rare": 3},
            {"dangerous": 1, "cute": 1, "rare": 1},
        ),
        strict=True,
    ):
        player.values = values
    animal = small("forest", Plain)
    home = card_where(lambda c: c.enclosures.top in ("forest", "mystic") and c.id != animal)
    built(state, 1, [home])
    state.players[1].row[0].top.animals.append(animal)
    for seat in (0, 1, 2):
        ENGINE.apply(state, seat, Finish())
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [s.result for s in outcome.seats] == ["loss", "win", "loss"]  # 9 points each; seat 1 houses an animal
    assert [s.rank for s in outcome.seats] == [2, 1, 3]


def test_setup_validates_mode_and_seats() -> None:
    from menagerie.rules.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="2–6 seats"):
        ENGINE.setup(MatchSetup("advanced", 7), 1)
    with pytest.raises(InvalidArgument, match="no mode"):
        ENGINE.setup(MatchSetup("expert", 3), 1)
    with pytest.raises(InvalidArgument, match="option negative_values must be one of multiply, count_as_zero"):
        ENGINE.setup(MatchSetup("advanced", 3, {"negative_values": "ignore"}), 1)
