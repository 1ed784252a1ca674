"""Narration: the reader is "you", others are named, verbs agree; plurals and lists."""

from __future__ import annotations

from menagerie.rules.text import Narrator, article, listing, name_mentions, plural, seat_name, third_person_of


def test_the_reader_is_you_and_others_are_named() -> None:
    n = Narrator(1, ["Ann", "Bob"])
    assert n.does(1, "roll") == "You roll"
    assert n.does(0, "roll") == "Ann rolls"
    assert n.does(0, "pass", start=False) == "Ann passes"
    assert n.who(1, start=False) == "you"
    assert n.whose(0) == "Ann's" and n.whose(1) == "your"
    assert n.name(5) == "Seat 6"  # counted from 1 for a person
    assert Narrator(None, ["Ann"]).does(0, "are") == "Ann is"
    assert n.seats([0, 1]) == "Ann and you"


def test_a_seat_is_its_name_else_a_bot_else_a_number_from_one() -> None:
    assert seat_name(0, "Ann") == "Ann"
    assert seat_name(1, bot_level="greedy") == "Bot 2 (greedy)"
    assert seat_name(0) == "Seat 1"
    assert seat_name(2, "Cat", "greedy") == "Cat"


def test_sentences_written_for_everyone_name_the_readers_seats() -> None:
    assert Narrator(1, ["Ann", "Bot 2 (greedy)"]).named("it is Seat 2's turn, not Seat 1's") == (
        "it is Bot 2 (greedy)'s turn, not Ann's"
    )
    assert Narrator(None).named("Seat 3 captured 2 creatures") == "Seat 3 captured 2 creatures"
    assert name_mentions("Seat 1 wins", {0: "Ann"}) == "Ann wins"
    assert name_mentions("Seat 12 wins", {}) == "Seat 12 wins"


def test_words() -> None:
    assert third_person_of("carry") == "carries"
    assert third_person_of("play a card") == "plays a card"
    assert plural(1, "die") == "1 die" and plural(3, "black die") == "3 black dice" and plural(2, "space") == "2 spaces"
    assert article("insight") == "an insight" and article("capture") == "a capture"
    assert listing(["a"]) == "a" and listing(["a", "b", "c"]) == "a, b and c"
