"""Hidden zones declared in a state type: found per viewer, shuffled within their pool."""

from __future__ import annotations

from typing import Annotated

import msgspec

from menagerie.rules.hidden import BySeat, Hidden, hidden_places, permute_hidden
from menagerie.rules.rng import Rng


class Hand(msgspec.Struct):
    cards: Annotated[list[int], Hidden("cards", owner_sees=True)]
    goals: Annotated[list[int], Hidden("goals", owner_sees=True, revealed="shown")] = []
    shown: bool = False


class Table(msgspec.Struct):
    rng: Rng
    hands: Annotated[list[Hand], BySeat()]
    deck: Annotated[list[int], Hidden("cards", except_last=1)]
    board: Annotated[list[int | None], Hidden("cards", face_up="up")]
    up: list[bool]
    discard: list[int]


def table() -> Table:
    return Table(
        rng=Rng(5),
        hands=[Hand([1, 2], [90]), Hand([3], [91], shown=True)],
        deck=[4, 5, 6],
        board=[7, None, 8],
        up=[False, False, True],
        discard=[9],
    )


def values(state: Table, viewer: int | None) -> dict[str, list[object]]:
    return {
        pool: sorted(container[key] if isinstance(key, int) else getattr(container, key) for container, key in places)
        for pool, places in hidden_places(state, viewer).items()
        if pool != "rng"
    }


def test_each_viewer_is_hidden_what_it_may_not_see() -> None:
    state = table()
    # The last card of the deck shows; an empty place and a face-up card are visible.
    assert values(state, None) == {"cards": [1, 2, 3, 4, 5, 7], "goals": [90]}
    assert values(state, 0) == {"cards": [3, 4, 5, 7]}
    assert values(state, 1) == {"cards": [1, 2, 4, 5, 7], "goals": [90]}


def test_permuting_keeps_what_the_viewer_sees_and_reseeds_the_rng() -> None:
    seen = set()
    for seed in range(30):
        state = permute_hidden(table(), 0, Rng(seed))
        assert state.hands[0].cards == [1, 2] and state.hands[0].goals == [90]
        assert state.deck[-1] == 6 and state.board[1:] == [None, 8] and state.discard == [9]
        assert sorted([*state.hands[1].cards, *state.deck[:2], state.board[0]]) == [3, 4, 5, 7]  # type: ignore[type-var]
        assert state.rng != Rng(5)
        seen.add((tuple(state.hands[1].cards), state.board[0]))
    assert len(seen) > 1, "the hidden cards really move"


class Deeper(msgspec.Struct):
    """Hidden things below unions and lists of structs, plain fields beside them."""

    plain: Table | None
    nested: list[Hand] | None
    label: str = ""


def test_hidden_things_are_found_however_deep_their_type_nests_them() -> None:
    state = Deeper(plain=table(), nested=[Hand([11]), Hand([12], [92])])
    found = {pool: len(places) for pool, places in hidden_places(state, None).items()}
    # Table's six hidden cards and one goal, the two nested hands' cards and goal, the Rng.
    assert found == {"cards": 8, "goals": 2, "rng": 1}


def test_fields_that_cannot_hide_anything_are_not_walked() -> None:
    from menagerie.rules.hidden import _plan

    assert [field.name for field in _plan(Table)] == ["rng", "hands", "deck", "board"]
    assert [field.name for field in _plan(Deeper)] == ["plain", "nested"]
