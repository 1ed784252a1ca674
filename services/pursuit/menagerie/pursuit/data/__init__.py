"""Authored data of the beast-capture dice game: dice, characters, beasts, insight cards (see RULES.md)."""
