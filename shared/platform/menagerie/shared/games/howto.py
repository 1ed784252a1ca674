"""A game's how-to-play in sections: the text `menagerie rules GAME` prints, for the web's rules page.

One source: the game ships `howto.toml` beside its package (`menagerie.<game>`), whose `text`
the terminal prints as it is. Here that text is cut into sections: a block between blank
lines whose first lines are not indented is a section, those lines its heading and the
indented lines its body; a block with no indented line (the closing pointer to RULES.md) is
a paragraph of its own. The first line is the title. The file's `[refusals]` table names,
for a section (by the start of its heading), the rules a refusal may name that it explains;
`[modes]` restricts a section to some modes (by the start of its heading too).
"""

from __future__ import annotations

import importlib.util
import re
import textwrap
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Section:
    """One section of the how-to: a heading (empty for a closing paragraph) and its text."""

    anchor: str
    heading: str
    text: str
    rules: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()  # empty: every mode


@dataclass(frozen=True)
class HowTo:
    """A game's how-to-play: its title line and its sections."""

    title: str
    sections: tuple[Section, ...]

    def for_mode(self, mode: str) -> list[Section]:
        """The sections that concern `mode` (every section for an empty mode)."""
        return [s for s in self.sections if not mode or not s.modes or mode in s.modes]


NONE = HowTo("", ())


def anchor_of(heading: str) -> str:
    """A section's anchor: the heading's words before any bracket or colon, lowercase, hyphenated."""
    words = re.split(r"[(:]", heading, maxsplit=1)[0].lower()
    return _NOT_WORD.sub("-", words).strip("-") or "section"


def _blocks(lines: Sequence[str]) -> list[list[str]]:
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _matching(table: Mapping[str, Sequence[str]], heading: str) -> tuple[str, ...]:
    """The values of the table's entry whose key starts the heading (none: empty)."""
    for start, values in table.items():
        if heading.startswith(start):
            return tuple(values)
    return ()


def parse(data: Mapping[str, object]) -> HowTo:
    """The how-to of a howto.toml's contents."""
    text = str(data.get("text", ""))
    refusals: Mapping[str, Sequence[str]] = data.get("refusals", {})  # type: ignore[assignment]
    modes: Mapping[str, Sequence[str]] = data.get("modes", {})  # type: ignore[assignment]
    lines = text.strip("\n").splitlines()
    if not lines:
        return NONE
    sections: list[Section] = []
    for block in _blocks(lines[1:]):
        indented = next((i for i, line in enumerate(block) if line.startswith(" ")), None)
        if indented is None:  # a paragraph of its own (the pointer to RULES.md)
            sections.append(Section(f"note-{len(sections) + 1}", "", "\n".join(block)))
            continue
        heading = " ".join(line.strip() for line in block[:indented])
        body = textwrap.dedent("\n".join(block[indented:]))
        rules, only = _matching(refusals, heading), _matching(modes, heading)
        sections.append(Section(anchor_of(heading), heading, body, rules, only))
    return HowTo(lines[0].strip(), tuple(sections))


def load(game: str) -> HowTo:
    """The how-to `menagerie.<game>` ships (howto.toml), or NONE for a game that ships none."""
    try:
        spec = importlib.util.find_spec(f"menagerie.{game}")
    except ModuleNotFoundError:
        return NONE
    # A namespace package (an editable install) may have several folders: importlib.resources
    # refuses those on Python 3.11, so each is looked in.
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "howto.toml"
        if path.is_file():
            return parse(tomllib.loads(path.read_text(encoding="utf-8")))
    return NONE
