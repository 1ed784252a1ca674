"""Narration: the reader is "you", others are named, verbs agree; plurals and lists."""

from __future__ import annotations

from menagerie.rules.text import Narrator, article, listing, plural, third_person_of


def test_the_reader_is_you_and_others_are_named() -> None:
    n = Narrator(1, ["Ann", "Bob"])
    assert n.does(1, "roll") == "You roll"
    assert n.does(0, "roll") == "Ann rolls"
    assert n.does(0, "pass", start=False) == "Ann passes"
    assert n.who(1, start=False) == "you"
    assert n.whose(0) == "Ann's" and n.whose(1) == "your"
    assert n.name(5) == "Seat 5"
    assert Narrator(None, ["Ann"]).does(0, "are") == "Ann is"
    assert n.seats([0, 1]) == "Ann and you"


def test_words() -> None:
    assert third_person_of("carry") == "carries"
    assert third_person_of("play a card") == "plays a card"
    assert plural(1, "die") == "1 die" and plural(3, "black die") == "3 black dice" and plural(2, "space") == "2 spaces"
    assert article("insight") == "an insight" and article("capture") == "a capture"
    assert listing(["a"]) == "a" and listing(["a", "b", "c"]) == "a, b and c"
