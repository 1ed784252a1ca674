"""Screens that fit a terminal of 80×24: the choice with the last events, and the board on demand.

The choice screen is printed as one block of at most `height - 1` lines (the last row
is the input line), so on a 24-row terminal everything the player needs to decide is
visible at once: a short status of the position, the last few events, the prompt and
the menu. The full board is drawn only when asked for (`b`), a page of `height - 2` rows
at a time (`b` again: the next page), each page with a footer above the input line.
Each function returns lines (rich Text, one per row, none wider than the width) so tests
can measure them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.text import Text

WIDTH = 80
HEIGHT = 24
MAX_EVENT_LINES = 5
MAX_STATUS_LINES = 4
MAX_PROMPT_LINES = 3
MAX_CODE_WIDTH = 10


def render(renderable: RenderableType, width: int = WIDTH, console: Console | None = None) -> list[Text]:
    """`renderable` as rows of at most `width` columns (styles kept)."""
    console = console or Console(width=width, color_system=None, file=io.StringIO(), legacy_windows=False)
    options = console.options.update(width=width)
    lines = console.render_lines(renderable, options, pad=False)
    out = []
    for line in lines:
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
        text.rstrip()
        out.append(text)
    while out and not out[-1].plain:
        out.pop()
    return out


def pages(lines: Sequence[Text], height: int = HEIGHT) -> list[list[Text]]:
    """`lines` (a board) cut into pages of `height - 2` rows: each page, its footer and the input line fit."""
    size = max(1, height - 2)
    return [list(lines[start : start + size]) for start in range(0, len(lines), size)] or [[]]


def wrapped(text: str, width: int, style: str = "") -> list[Text]:
    """`text` wrapped to `width` columns."""
    return render(Text(text, style=style), width)


def clipped(line: Text, width: int) -> Text:
    """One row: `line` cut to `width` columns with an ellipsis."""
    if line.cell_len <= width:
        return line
    cut = line.copy()
    cut.truncate(width - 1)
    cut.append("…")
    return cut


def menu_rows(rows: Sequence[tuple[str, str, str]], width: int) -> list[Text]:
    """The menu's rows: the key, the code (dim), the label; a label that does not fit takes a second row."""
    out: list[Text] = []
    code_width = max((len(code) for _, code, _ in rows), default=0)
    if code_width > MAX_CODE_WIDTH:
        code_width = 0  # codes that long would crowd out the labels: the numbers do
    for key, code, label in rows:
        head = Text(f"{key:>3} ")
        if code_width:
            head.append(f"{code:<{code_width}} ", style="dim")
        room = width - head.cell_len
        parts = wrapped(label, room)
        first = head.copy()
        first.append_text(parts[0] if parts else Text())
        out.append(clipped(first, width))
        if len(parts) > 1:
            rest = Text(" " * head.cell_len)
            rest.append_text(parts[1])
            if len(parts) > 2:
                rest = clipped(Text(rest.plain + " " + " ".join(p.plain for p in parts[2:])), width)
            out.append(clipped(rest, width))
    return out


def choice_screen(
    status: Sequence[Text],
    events: Sequence[str],
    prompt: str,
    title: str,
    rows: Sequence[tuple[str, str, str]],
    footer: str = "",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> list[Text]:
    """The lines of the choice screen, at most `height - 1` of them (the input line is the last row).

    The menu always shows whole; the status, the events and the prompt give up rows
    (oldest events first) when the menu is long.
    """
    menu = [Text(title, style="bold"), *menu_rows(rows, width)]
    tail = [clipped(Text(footer, style="dim"), width)] if footer else []
    room = height - 1 - len(menu) - len(tail)
    asked = wrapped(prompt, width, "bold")[:MAX_PROMPT_LINES] if prompt else []
    asked = asked[: max(0, room)]
    room -= len(asked)
    head = [clipped(line, width) for line in status[:MAX_STATUS_LINES]][: max(0, room)]
    room -= len(head)
    recent: list[Text] = []
    budget = min(MAX_EVENT_LINES, max(0, room - 1))  # one row for the rule above the events
    for event in reversed(events):
        lines = wrapped(event, width)
        if len(lines) > budget - len(recent):
            break
        recent = lines + recent
    shown = head
    if recent:
        shown = [*shown, Text("─" * min(width, 20), style="dim"), *recent]
    return (shown + asked + menu + tail)[: height - 1]
