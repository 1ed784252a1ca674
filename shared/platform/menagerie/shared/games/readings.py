"""A game's RULES.md in readings: how its authors read the rulebook, each section under stable anchors.

The game ships its RULES.md beside its package (`menagerie.<game>`, a link to the file at the
game's root). Each `##` or `###` section is preceded by a line of anchors,
`<a id="rule-the-board"></a><a id="rule-movement"></a>`: the first is the section's own, written
once and kept when the heading changes; each other one is the anchor of a rule the section
reads (`menagerie.rules.errors.rule_anchor`: "Movement" -> "rule-movement"). A refusal names
its rule, so it can point to the reading of that rule. A section's text runs to the next line
of anchors (a `####` part stays in its section).
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from menagerie.rules.errors import rule_anchor

_ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>')
_ANCHORS_LINE = re.compile(r'^(?:<a id="[a-z0-9-]+"></a>)+$')
_HEADING = re.compile(r"^#{2,3} (.+?)\s*$")
FILE_NAME = "RULES.md"


@dataclass(frozen=True)
class Reading:
    """One section of RULES.md: its anchors (its own first), heading and markdown text."""

    anchors: tuple[str, ...]
    heading: str
    text: str

    @property
    def anchor(self) -> str:
        """The section's own anchor."""
        return self.anchors[0]

    def reads(self, rules: Iterable[str]) -> list[str]:
        """Those of `rules` (rule names) this section reads."""
        return [rule for rule in rules if rule_anchor(rule) in self.anchors]


def parse(markdown: str) -> tuple[Reading, ...]:
    """The readings of a RULES.md: each line of anchors, the heading after it and the text up to the next."""
    readings: list[Reading] = []
    anchors: tuple[str, ...] = ()
    heading = ""
    body: list[str] = []
    for line in markdown.splitlines():
        if _ANCHORS_LINE.match(line.strip()):
            if anchors:
                readings.append(Reading(anchors, heading, "\n".join(body).strip("\n")))
            anchors, heading, body = tuple(_ANCHOR.findall(line)), "", []
        elif anchors and not heading and (found := _HEADING.match(line)):
            heading = found.group(1).replace("`", "")
        elif anchors and heading:
            body.append(line)
    if anchors:
        readings.append(Reading(anchors, heading, "\n".join(body).strip("\n")))
    return tuple(readings)


def load(game: str) -> tuple[Reading, ...]:
    """The readings of the RULES.md `menagerie.<game>` ships (none for a game that ships none)."""
    path = _shipped(game)
    return parse(path.read_text(encoding="utf-8")) if path else ()


def _shipped(game: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(f"menagerie.{game}")
    except ModuleNotFoundError:
        return None
    # A namespace package (an editable install) may have several folders: each is looked in.
    folders: Sequence[str] = (spec.submodule_search_locations or []) if spec else []
    return next((Path(f) / FILE_NAME for f in folders if (Path(f) / FILE_NAME).is_file()), None)
