"""Authored data of Fantasy Zoo: the 106 animal/enclosure cards and the goal cards (see RULES.md)."""
