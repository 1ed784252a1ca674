"""The choice as steps: the server's legal actions arranged into a menu a terminal can show.

A long list becomes groups (one entry per kind of action, opened with its number), and a
compound choice (Pursuit's dice to keep) becomes toggles: the player marks items, then
confirms. Nothing here knows a rule: every leaf is the index of one action of the
server's ListLegalActions, and a set of toggles may only be confirmed when it matches
one of those actions (`Toggles.combos`, which the game's renderer builds from the list).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Commands the player may type at every menu (they win over an action's code).
QUIT = "q"
BOARD = "b"
BACK = "0"
NEXT_PAGE = "n"
PREVIOUS_PAGE = "p"
CONFIRM = "c"


@dataclass(frozen=True)
class Pick:
    """One legal action: `index` into ListLegalActions' actions (and labels)."""

    label: str
    code: str
    index: int


@dataclass(frozen=True)
class Group:
    """Several legal actions of one kind, behind one entry."""

    label: str
    entries: tuple[Entry, ...]
    code: str = ""


@dataclass(frozen=True)
class Toggles:
    """Mark items, then confirm: `combos` maps each set of marked items the server allows to its action."""

    label: str
    items: tuple[str, ...]
    combos: Mapping[frozenset[int], int]
    labels: Mapping[int, str] = field(default_factory=dict)  # action index -> the engine's label
    code: str = ""
    marked: frozenset[int] = frozenset()  # marked when the toggles open


Entry = Pick | Group | Toggles


def picks(legal: Any, indexes: Sequence[int] | None = None) -> list[Pick]:
    """The plain entries of ListLegalActions (all, or those at `indexes`), with the engine's labels and codes."""
    chosen = range(len(legal.actions)) if indexes is None else indexes
    return [Pick(legal.labels[i].text, legal.labels[i].code, i) for i in chosen]


def grouped(legal: Any, key: Callable[[Any], str | None], room: int) -> list[Entry]:
    """The actions as they are when they fit in `room` rows; else grouped, in the list's order.

    First by `key(action)` (None: left as is), then, inside a group still too long, by
    what the label says before its last " to " ("Deploy Beater 1 to West Centre" goes
    under "Deploy Beater 1"): words of the engine's labels, never a rule.
    """
    entries = picks(legal)

    def by_kind(pick: Pick) -> str | None:
        return key(legal.actions[pick.index])

    return arrange(entries, [by_kind, label_subject], room)


def label_subject(pick: Pick) -> str | None:
    """What the label says before its last " to " (None when it has none)."""
    head, to, _ = pick.label.rpartition(" to ")
    return head if to and head else None


def arrange(entries: Sequence[Pick], keys: Sequence[Callable[[Pick], str | None]], room: int) -> list[Entry]:
    """`entries` as they are when they fit in `room`; else one Group per key value (the first key that splits them)."""
    if len(entries) <= room or not keys:
        return list(entries)
    key, rest = keys[0], keys[1:]
    buckets: dict[str, list[Pick]] = {}
    order: list[Pick | str] = []
    for entry in entries:
        name = key(entry)
        if name is None:
            order.append(entry)
        elif name in buckets:
            buckets[name].append(entry)
        else:
            buckets[name] = [entry]
            order.append(name)  # the group takes the place of its first action
    if len(order) <= 1:
        return arrange(entries, rest, room)  # one bucket: this key does not split the list
    result: list[Entry] = []
    for item in order:
        if isinstance(item, Pick):
            result.append(item)
            continue
        members = buckets[item]
        if len(members) == 1:
            result.append(members[0])
        else:
            result.append(Group(f"{item} ({len(members)})", tuple(arrange(members, rest, room))))
    return result


def action_kind(action: Any) -> str | None:
    """The action's oneof member, in words ("pick for team"): the default grouping of a long list."""
    kind = action.WhichOneof("kind")
    return kind.replace("_", " ").capitalize() if kind else None


def default_menu(legal: Any, room: int) -> list[Entry]:
    """The actions as they come when they fit in `room` rows, else grouped by the action's kind."""
    return grouped(legal, action_kind, room)


@dataclass
class Answer:
    """What one line typed at the menu means."""

    chosen: int | None = None  # the action index to submit
    board: bool = False
    message: str = ""  # why the line was refused (shown under the menu)


class Quit(Exception):
    """The player asked to leave."""


class Menu:
    """Where the player is in the menu: the open groups, the page, the marked toggles."""

    def __init__(self, entries: Sequence[Entry], rows: int = 12, codes: Sequence[str] = ()) -> None:
        # Every action's code works at every level (an engine's code is unique within its list;
        # a code listed twice is left to the numbers).
        counts = Counter(code.lower() for code in codes if code)
        self.codes = {code.lower(): i for i, code in enumerate(codes) if code and counts[code.lower()] == 1}
        self.path: list[Group | Toggles] = []
        self.root = tuple(entries)
        self.rows = max(3, rows)
        self.page = 0
        self.marked: set[int] = set()

    # ------------------------------------------------------------- showing

    @property
    def level(self) -> Group | Toggles | None:
        """The open group or toggles (None: the top level)."""
        return self.path[-1] if self.path else None

    def entries(self) -> tuple[Entry, ...]:
        """The entries of the open level."""
        level = self.level
        return level.entries if isinstance(level, Group) else self.root

    def pages(self) -> int:
        """How many pages the open level takes."""
        level = self.level
        count = len(level.items) if isinstance(level, Toggles) else len(self.entries())
        return max(1, -(-count // self.rows))

    def title(self) -> str:
        """The open level's heading."""
        level = self.level
        if level is None:
            heading = "Your move"
        elif isinstance(level, Toggles):
            heading = f"{level.label}: toggle by number, then {CONFIRM} to confirm"
        else:
            heading = level.label
        if self.pages() > 1:
            heading += f" (page {self.page + 1}/{self.pages()})"
        return heading

    def lines(self) -> list[tuple[str, str, str]]:
        """The open page's rows: (key, code, text)."""
        level = self.level
        first = self.page * self.rows
        if isinstance(level, Toggles):
            rows = [
                (str(i + 1), "", f"[{'x' if i in self.marked else ' '}] {item}") for i, item in enumerate(level.items)
            ][first : first + self.rows]
            action = level.combos.get(frozenset(self.marked))
            if action is None:
                rows.append((CONFIRM, "", "(not a choice the rules allow: change the marks)"))
            else:
                rows.append((CONFIRM, "", f"confirm: {level.labels.get(action, 'this choice')}"))
            rows.append((BACK, "", "back"))
            return rows
        rows = []
        entries = self.entries()
        for number, entry in enumerate(entries[first : first + self.rows], first + 1):
            if isinstance(entry, Pick):
                rows.append((str(number), entry.code, entry.label))
            else:
                rows.append((str(number), entry.code, f"{entry.label} …"))
        if level is not None:
            rows.append((BACK, "", "back"))
        return rows

    def hint(self) -> str:
        """What may be typed now."""
        level = self.level
        count = len(level.items) if isinstance(level, Toggles) else len(self.entries())
        parts = [f"1–{count}" if count > 1 else "1"]
        if isinstance(level, Toggles):
            parts.append(f"{CONFIRM} confirm")
        elif level is None:
            parts.append("a code")
        if level is not None:
            parts.append(f"{BACK} back")
        if self.pages() > 1:
            parts.append(f"{NEXT_PAGE}/{PREVIOUS_PAGE} page")
        parts += [f"{BOARD} board", f"{QUIT} quit"]
        return ", ".join(parts)

    # ------------------------------------------------------------- answering

    def answer(self, line: str) -> Answer:
        """Applies one typed line (raises Quit for `q`)."""
        text = line.strip().lower()
        if text == QUIT:
            raise Quit()
        if text == BOARD:
            return Answer(board=True)
        if text == BACK and self.path:
            self.path.pop()
            self.page, self.marked = 0, set()
            return Answer()
        if text in (NEXT_PAGE, PREVIOUS_PAGE) and self.pages() > 1:
            step = 1 if text == NEXT_PAGE else -1
            self.page = (self.page + step) % self.pages()
            return Answer()
        level = self.level
        answer = self._toggle(level, text) if isinstance(level, Toggles) else self._pick(text)
        if answer.message and text in self.codes:
            return Answer(chosen=self.codes[text])
        return answer

    def _pick(self, text: str) -> Answer:
        entries = self.entries()
        if text.isdigit() and 1 <= int(text) <= len(entries):
            return self._enter(entries[int(text) - 1])
        for entry in entries:
            if entry.code and entry.code.lower() == text:
                return self._enter(entry)
        return Answer(message=f"Type {self.hint()}.")

    def _enter(self, entry: Entry) -> Answer:
        if isinstance(entry, Pick):
            return Answer(chosen=entry.index)
        self.path.append(entry)
        self.page, self.marked = 0, set(entry.marked) if isinstance(entry, Toggles) else set()
        return Answer()

    def _toggle(self, level: Toggles, text: str) -> Answer:
        if text == CONFIRM:
            action = level.combos.get(frozenset(self.marked))
            if action is None:
                return Answer(message="The rules do not allow that choice; change the marks.")
            return Answer(chosen=action)
        if text.isdigit() and 1 <= int(text) <= len(level.items):
            self.marked ^= {int(text) - 1}
            return Answer()
        return Answer(message=f"Type {self.hint()}.")
