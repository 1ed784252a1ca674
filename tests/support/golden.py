"""Golden playthroughs: a seeded match of every game and mode, printed in the engine's own words.

Each file, tests/golden/<game>-<mode>-seed<N>.txt, holds one match from its setup to its
end: at every version the prompt (its kind, seats and sentence for a spectator), the
events as a spectator reads them (and as each seat reads them where that differs), a
digest of every seat's view, the labelled choices of the seat to act and the one it
took (chosen by a seeded random generator). A change to a rule, a label, an event's
text or a view shows up as a diff of these files: `make golden` writes them again, and
tests/unit/test_golden.py fails while the committed ones differ.

Usage: python -m tests.support.golden [OUTPUT_DIR]   (default: tests/golden)
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.rules.events import project
from menagerie.rules.text import Narrator

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
SEED = 1
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
MAX_STEPS = 2_000


def golden_matches() -> Iterator[tuple[str, Any, MatchSetup]]:
    """(file name, engine, setup) for every installed game and mode, at its fewest seats (and 3)."""
    for game in registry.game_ids():
        engine = registry.engine(game)
        for mode in engine.info.modes:
            seats = max(mode.min_seats, min(3, mode.max_seats))
            variants: list[dict[str, str]] = [{}]
            for option in mode.options:
                variants += [{option.name: value} for value in option.allowed_values if value != option.default_value]
            for options in variants:
                suffix = "".join(f"-{name}={value}" for name, value in options.items())
                yield f"{game}-{mode.mode}{suffix}-seed{SEED}.txt", engine, MatchSetup(mode.mode, seats, options)


def _digest(view: Any) -> str:
    return hashlib.blake2b(msgspec.msgpack.encode(view), digest_size=4).hexdigest()


def _events(engine: Any, events: list[Any], seats: int) -> list[str]:
    lines = []
    for event in events:
        spectator = engine.describe_event(project(event, None), Narrator(None, NAMES[:seats]))
        lines.append(f"  · {spectator or f'({event.kind})'}")
        for seat in range(seats):
            shown = project(event, seat)
            if shown != project(event, None):  # what this seat alone may see
                lines.append(
                    f"      {NAMES[seat]} reads: {engine.describe_event(shown, Narrator(seat, NAMES[:seats]))}"
                )
    return lines


def playthrough(engine: Any, setup: MatchSetup, seed: int = SEED) -> str:
    """The whole match, one block per version, as text."""
    rng = random.Random(seed)
    names = NAMES[: setup.seats]
    state, events = engine.setup(setup, seed)
    options = ", ".join(f"{k}={v}" for k, v in sorted(setup.options.items())) or "defaults"
    out = [f"# {engine.info.game} {setup.mode}, {setup.seats} seats ({options}), seed {seed}: written by `make golden`"]
    version = 1
    while True:
        spectator = engine.view(state, None)
        prompt = engine.prompt(state)
        out.append(f"v{version}")
        out += _events(engine, events, setup.seats)
        out.append(
            f"  prompt {prompt.kind or '-'} must={prompt.must} may={prompt.may}: "
            f"{engine.describe_prompt(spectator, Narrator(None, names))}"
        )
        views = " ".join(f"{n}={_digest(engine.view(state, s))}" for s, n in enumerate(names))
        out.append(f"  views spectator={_digest(spectator)} {views}")
        if engine.outcome(state) is not None or version > MAX_STEPS:
            break
        seat = rng.choice(engine.to_act(state).seats())
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        labels = [engine.describe_action(view, action, Narrator(seat, names)) for action in legal]
        choice = rng.randrange(len(legal))
        out.append(f"  {names[seat]} chooses {labels[choice].code}: {labels[choice].text}")
        others = [label.code for i, label in enumerate(labels) if i != choice]
        if others:
            out.append(f"    (also: {' '.join(others)})")
        events = engine.apply(state, seat, legal[choice])
        version += 1
    return "\n".join(out) + "\n"


def write(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Writes every golden playthrough into `directory`; returns the files."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, engine, setup in golden_matches():
        path = directory / name
        path.write_text(playthrough(engine, setup))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN_DIR):
        print(path)
