"""Authored data of the Beasts game: board, creatures, tokens, spells (see RULES.md)."""
