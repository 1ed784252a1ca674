"""The Fantasy Zoo data files load, keep the balance they were designed with, and are validated."""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any, get_args

import msgspec
import pytest

from menagerie.zoo.engine.data import (
    CARD_COUNT,
    HABITATS,
    OPEN_GOAL_COUNT,
    SECRET_GOAL_COUNT,
    VALUES,
    Card,
    ChooseOne,
    Count,
    Effect,
    EnclosureType,
    Exchange,
    Gain,
    IfCountAtLeast,
    IfValueAtMost,
    MetricKind,
    PerCount,
    Plain,
    ValueName,
    ZooData,
    _read,
    load_data,
)

DATA = load_data()
CARDS = DATA.cards
EFFECT_KINDS: set[type] = set(Effect.__args__)
METRIC_KINDS: set[str] = set(MetricKind.__args__)  # type: ignore[attr-defined]

# What a count of one habitat / type is worth when the animal is placed, on average, and of "any".
TYPICAL_COUNT = {True: 3, False: 10}


def by_name() -> dict[str, list[Card]]:
    names: dict[str, list[Card]] = defaultdict(list)
    for card in CARDS:
        names[card.animal.name].append(card)
    return names


def positive_gains(effect: Effect) -> dict[ValueName, float]:
    """The nominal increase an effect gives each value (conditions assumed met, typical counts)."""
    if isinstance(effect, Plain | IfValueAtMost | IfCountAtLeast):
        return {v: float(max(0, effect.gain.get(v))) for v in VALUES}
    if isinstance(effect, PerCount):
        typical = TYPICAL_COUNT[effect.count.type is not None] / effect.per
        return {v: typical if v == effect.value else 0.0 for v in VALUES}
    if isinstance(effect, ChooseOne):
        return {v: 0.5 if v in effect.options else 0.0 for v in VALUES}
    return dict.fromkeys(VALUES, 0.0)  # exchange moves a point, it adds none


def losses_of(effect: Effect) -> dict[ValueName, int]:
    """How much an effect lowers each value (a trade-off printed on the card)."""
    if isinstance(effect, Plain | IfValueAtMost | IfCountAtLeast):
        return {v: max(0, -effect.gain.get(v)) for v in VALUES}
    return dict.fromkeys(VALUES, 0)


def net_gain(effect: Effect) -> float:
    """The nominal sum of all value changes of an effect."""
    return sum(positive_gains(effect).values()) - sum(losses_of(effect).values())


def enclosure_types() -> Counter[str]:
    return Counter(t for c in CARDS for t in (c.enclosures.top, c.enclosures.bottom))


# --------------------------------------------------------------------------- loading


def test_the_shipped_data_loads_with_every_component_of_the_box() -> None:
    assert len(CARDS) == CARD_COUNT == 106
    assert len(DATA.secret_goals) == SECRET_GOAL_COUNT == 14
    assert len(DATA.open_goals) == OPEN_GOAL_COUNT == 18
    assert [c.id for c in CARDS] == list(range(1, 107))
    assert {type(c.animal.effect) for c in CARDS} == EFFECT_KINDS, "every effect kind is on some card"
    metrics = {g.metric.kind for g in DATA.secret_goals} | {g.metric.kind for g in DATA.open_goals}
    assert metrics == METRIC_KINDS, f"every metric kind is on some goal, missing {METRIC_KINDS - metrics}"


# --------------------------------------------------------------------- animal names


def test_names_come_in_stacks_of_three_to_six_with_one_habitat_and_size() -> None:
    names = by_name()
    assert 22 <= len(names) <= 26, f"about 24 distinct animal names, got {len(names)}"
    for name, cards in names.items():
        assert 3 <= len(cards) <= 6, f"{name}: 3-6 copies so stacking matters, got {len(cards)}"
        assert len({c.animal.habitat for c in cards}) == 1, f"{name}: every copy lives in one habitat"
        assert len({c.animal.size for c in cards}) == 1, f"{name}: every copy has one size"
        assert len({type(c.animal.effect) for c in cards}) == 1, f"{name}: copies share their effect kind"
        assert len({c.animal.effect for c in cards}) <= 2, f"{name}: copies vary their effect only mildly"


def test_names_and_cards_are_spread_evenly_over_the_habitats() -> None:
    names = by_name()
    per_habitat = Counter(c.animal.habitat for c in CARDS)
    names_per_habitat = Counter(cards[0].animal.habitat for cards in names.values())
    for habitat in HABITATS:
        assert 24 <= per_habitat[habitat] <= 29, f"{habitat}: 24-29 animal cards, got {per_habitat[habitat]}"
        assert 5 <= names_per_habitat[habitat] <= 7, f"{habitat}: 5-7 names, got {names_per_habitat[habitat]}"


def test_two_or_three_large_names_with_stronger_effects() -> None:
    names = by_name()
    large = {n: cards for n, cards in names.items() if cards[0].animal.size == "large"}
    assert 2 <= len(large) <= 3, f"2-3 large animal names, got {sorted(large)}"
    large_cards = sum(len(cards) for cards in large.values())
    assert 6 <= large_cards <= 10, f"6-10 large animal cards, got {large_cards}"
    best_small = max(net_gain(c.animal.effect) for c in CARDS if c.animal.size == "small")
    for name, cards in large.items():
        for card in cards:
            gain = net_gain(card.animal.effect)
            assert gain > best_small, f"{name}: a large animal (+{gain}) beats every small one (+{best_small})"


# ------------------------------------------------------------------------- effects


def test_the_effect_mix_is_mostly_plain_with_a_handful_of_choices() -> None:
    kinds = Counter(type(c.animal.effect) for c in CARDS)
    assert kinds[Plain] >= 45, f"most cards are plain gains, got {kinds[Plain]}"
    conditional: tuple[type, ...] = (IfValueAtMost, IfCountAtLeast, PerCount)
    for kind in conditional:
        assert 8 <= kinds[kind] <= 20, f"{kind.__name__}: 8-20 cards, got {kinds[kind]}"
    for kind in (Exchange, ChooseOne):
        assert 2 <= kinds[kind] <= 8, f"{kind.__name__}: a handful of cards, got {kinds[kind]}"


def test_gains_are_small_and_trade_offs_cost_at_most_one() -> None:
    for card in CARDS:
        effect = card.animal.effect
        if isinstance(effect, Plain | IfValueAtMost | IfCountAtLeast):
            changes = [effect.gain.get(v) for v in VALUES]
            assert all(-1 <= x <= 3 for x in changes), f"card {card.id}: value changes -1..+3, got {changes}"
            assert sum(x for x in changes if x > 0) <= 5, f"card {card.id}: at most +5 in all"
            assert sum(changes) >= 1, f"card {card.id}: a gain is worth at least +1 net"


def test_conditions_and_counts_have_sensible_thresholds() -> None:
    for card in CARDS:
        effect = card.animal.effect
        if isinstance(effect, IfValueAtMost):
            assert 1 <= effect.at_most <= 3, f"card {card.id}: a catch-up effect for values up to 1-3"
        if isinstance(effect, IfCountAtLeast):
            band = (2, 5) if effect.count.type is not None else (5, 12)
            assert band[0] <= effect.at_least <= band[1], f"card {card.id}: threshold {effect.at_least} not in {band}"
        if isinstance(effect, PerCount):
            if effect.count.type is None:
                assert effect.per >= 3, f"card {card.id}: per_count of everything is a win-button unless per >= 3"
            assert 1 <= effect.per <= 3, f"card {card.id}: per 1-3"


def test_positive_gains_are_balanced_over_the_three_values() -> None:
    totals = dict.fromkeys(VALUES, 0.0)
    losses = dict.fromkeys(VALUES, 0)
    for card in CARDS:
        effect = card.animal.effect
        for value, gain in positive_gains(effect).items():
            totals[value] += gain
        for value, loss in losses_of(effect).items():
            losses[value] += loss
    low, high = min(totals.values()), max(totals.values())
    assert high <= 1.2 * low, f"positive gains per value within 20% of each other: {dict(totals)}"
    assert max(losses.values()) - min(losses.values()) <= 4, f"trade-offs hit every value alike: {dict(losses)}"


# ---------------------------------------------------------------------- enclosures


def test_enclosure_types_are_balanced_and_mystic_is_rarer() -> None:
    types = enclosure_types()
    assert sum(types.values()) == 2 * CARD_COUNT
    assert set(types) == set(get_args(EnclosureType))
    for habitat in HABITATS:
        assert 44 <= types[habitat] <= 52, f"{habitat}: 44-52 enclosures, got {types[habitat]}"
    share = types["mystic"] / (2 * CARD_COUNT)
    assert 0.08 <= share <= 0.12, f"mystic enclosures are 8-12% of all, got {share:.1%}"
    same = sum(c.enclosures.top == c.enclosures.bottom for c in CARDS)
    assert 10 <= same <= 30, f"some cards show one type twice: 10-30, got {same}"
    assert not any(c.enclosures.top == c.enclosures.bottom == "mystic" for c in CARDS), "no all-mystic card"


def test_connectors_are_mostly_middle() -> None:
    edges = Counter(e for c in CARDS for e in (c.enclosures.left, c.enclosures.right))
    middle = edges["middle"] / (2 * CARD_COUNT)
    assert 0.50 <= middle <= 0.60, f"50-60% of edges are middle paths, got {middle:.1%}"
    for side in ("upper", "lower"):
        share = edges[side] / (2 * CARD_COUNT)
        assert 0.15 <= share <= 0.30, f"{side}: 15-30% of edges, got {share:.1%}"
    starters = sum(c.enclosures.left == "middle" for c in CARDS)
    assert starters >= 45, f"plenty of cards fit against the character sheet's middle path, got {starters}"


def test_a_cards_animal_and_enclosures_are_not_strongly_correlated() -> None:
    own = sum(c.animal.habitat in (c.enclosures.top, c.enclosures.bottom) for c in CARDS)
    assert 0.25 <= own / CARD_COUNT <= 0.55, f"cards housing their own habitat: near chance (~40%), got {own}"
    for habitat in HABITATS:
        cards = [c for c in CARDS if c.animal.habitat == habitat]
        both = sum(c.enclosures.top == c.enclosures.bottom == habitat for c in cards)
        assert both <= 3, f"{habitat}: few {habitat} animals sit on a card of two {habitat} enclosures"


# --------------------------------------------------------------------------- goals


OPEN_THRESHOLDS: dict[tuple[str, bool], tuple[int, int]] = {
    # (metric kind, has a type) -> reachable but not trivial
    ("animals", False): (6, 10),
    ("animals", True): (3, 5),
    ("enclosures", False): (8, 12),
    ("enclosures", True): (3, 5),
    ("largest_stack", False): (2, 4),
    ("distinct_names", False): (4, 7),
    ("large_animals", False): (1, 2),
    ("each_habitat_animals", False): (1, 3),
    ("each_habitat_enclosures", False): (1, 3),
    ("value", False): (4, 8),
}


def test_open_goals_have_reachable_thresholds_and_two_small_different_rewards() -> None:
    for goal in DATA.open_goals:
        low, high = OPEN_THRESHOLDS[goal.metric.kind, goal.metric.type is not None]
        assert low <= goal.at_least <= high, f"open goal {goal.id}: threshold {goal.at_least} not in {low}-{high}"
        raised = []
        for reward in goal.rewards:
            changes = {v: reward.get(v) for v in VALUES if reward.get(v)}
            assert len(changes) == 1, f"open goal {goal.id}: each reward raises one value"
            ((value, amount),) = changes.items()
            assert 1 <= amount <= 3, f"open goal {goal.id}: rewards are +1..+3"
            raised.append(value)
        assert raised[0] != raised[1], f"open goal {goal.id}: the two rewards raise different values"
        if goal.metric.kind == "value":
            assert goal.metric.value not in raised, f"open goal {goal.id}: rewards raise another value"
    titles = [g.title for g in DATA.open_goals]
    assert len(set(titles)) == len(titles), "open goal titles are unique"


def test_open_goal_rewards_favour_no_value() -> None:
    raised: Counter[str] = Counter(v for g in DATA.open_goals for r in g.rewards for v in VALUES if r.get(v) > 0)
    assert max(raised.values()) - min(raised.values()) <= 2, f"rewards spread over the values: {dict(raised)}"


def test_secret_goals_are_distinct_most_goals_with_small_rewards() -> None:
    seen = set()
    raised: Counter[str] = Counter()
    for goal in DATA.secret_goals:
        key = (goal.metric.kind, goal.metric.type, goal.metric.value)
        assert key not in seen, f"secret goal {goal.id}: its metric is already on another secret goal"
        seen.add(key)
        assert goal.title.startswith(("Most", "Tallest", "Best")), f"secret goal {goal.id}: a 'most' title"
        amounts = [goal.reward.get(v) for v in VALUES]
        assert min(amounts) >= 0 and 2 <= sum(amounts) <= 4, f"secret goal {goal.id}: reward +2..+4, no losses"
        if goal.metric.kind == "value":
            measured = goal.metric.value
            assert measured is not None and goal.reward.get(measured) == 0, f"secret goal {goal.id}: rewards others"
        for value in VALUES:
            raised[value] += goal.reward.get(value)
    assert max(raised.values()) - min(raised.values()) <= 3, f"secret rewards spread over values: {dict(raised)}"


# ------------------------------------------------------------------ broken data


def raw() -> dict[str, Any]:
    goals = _read("goals.toml")
    return {
        "cards": _read("cards.toml")["cards"],
        "secret_goals": goals["secret_goals"],
        "open_goals": goals["open_goals"],
    }


def broken(change: Callable[[dict[str, Any]], object]) -> str:
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(msgspec.ValidationError) as info:
        msgspec.convert(data, ZooData)
    return str(info.value)


def animal(data: dict[str, Any], card_id: int) -> dict[str, Any]:
    found: dict[str, Any] = data["cards"][card_id - 1]["animal"]
    return found


def first_with(data: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(c["animal"] for c in data["cards"] if c["animal"]["effect"]["kind"] == kind)


def test_the_raw_data_converts_as_it_is() -> None:
    assert msgspec.convert(raw(), ZooData) == DATA


def test_a_missing_card_is_refused() -> None:
    assert "exactly 106" in broken(lambda d: d["cards"].pop())


def test_cards_out_of_order_are_refused() -> None:
    assert "in order" in broken(lambda d: d["cards"][0].update(id=2))


def test_a_mystic_animal_is_refused() -> None:
    message = broken(lambda d: animal(d, 1).update(habitat="mystic"))
    assert "mystic" in message and "habitat" in message


def test_counting_mystic_animals_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        first_with(d, "per_count")["effect"]["count"] = {"of": "animals", "type": "mystic"}

    assert "no animal lives in the mystic habitat" in broken(change)


def test_an_unknown_effect_kind_is_refused() -> None:
    message = broken(lambda d: animal(d, 1)["effect"].update(kind="teleport"))
    assert "teleport" in message and "effect" in message


def test_an_unknown_field_is_refused() -> None:
    assert "gian" in broken(lambda d: animal(d, 1)["effect"].update(gian={"cute": 1}))


def test_a_name_in_two_habitats_or_sizes_is_refused() -> None:
    name = animal(raw(), 2)["name"]
    other = "water" if animal(raw(), 2)["habitat"] != "water" else "forest"
    assert f"every {name} lives in the same habitat" in broken(lambda d: animal(d, 2).update(habitat=other))
    assert f"every {name} has the same size" in broken(lambda d: animal(d, 2).update(size="large"))


def test_a_name_with_a_single_copy_is_refused() -> None:
    assert "at least twice" in broken(lambda d: animal(d, 1).update(name="Lonely Dragon"))


def test_an_empty_gain_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        first_with(d, "plain")["effect"]["gain"] = {}

    assert "at least one value" in broken(change)


def test_a_choice_between_one_value_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        first_with(d, "choose_one")["effect"]["options"] = ["cute", "cute"]

    assert "two different values" in broken(change)


def test_a_missing_effect_kind_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        for card in d["cards"]:
            if card["animal"]["effect"]["kind"] == "exchange":
                card["animal"]["effect"] = {"kind": "plain", "gain": {"cute": 1}}

    assert "every effect kind" in broken(change)


def test_a_missing_metric_kind_is_refused() -> None:
    def change(d: dict[str, Any]) -> None:
        for goal in (*d["secret_goals"], *d["open_goals"]):
            if goal["metric"]["kind"] == "large_animals":
                goal["metric"] = {"kind": "animals"}

    assert "every metric kind" in broken(change)


def test_malformed_goals_are_refused() -> None:
    assert "exactly 14" in broken(lambda d: d["secret_goals"].pop())
    assert "exactly 18" in broken(lambda d: d["open_goals"].pop())
    assert "exactly one value" in broken(lambda d: d["open_goals"][0]["metric"].update(value="cute"))
    assert "takes no type" in broken(lambda d: d["secret_goals"][7]["metric"].update(type="forest"))
    assert "rewards" in broken(lambda d: d["open_goals"][0]["rewards"].pop())


def test_gains_round_trip_through_the_struct() -> None:
    gain = msgspec.convert({"cute": 2, "dangerous": -1}, Gain)
    assert (gain.get("dangerous"), gain.get("cute"), gain.get("rare")) == (-1, 2, 0)
    assert msgspec.convert({"of": "enclosures"}, Count).type is None
