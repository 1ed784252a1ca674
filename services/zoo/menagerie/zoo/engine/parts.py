"""What the parts of the Fantasy Zoo rules share: the engine's helpers each part may call.

`ZooEngine` (rules.py) is built from parts, each a mixin in its own module with one job,
in the order a round meets them (RULES.md's sections in brackets):

- `drafting.DraftingCards`: a round's start, the hands dealt, each seat's pick and the
  hands passed on, a last card taken by itself ("Turn structure and simultaneity");
- `construction.BuildingTheZoo`: the construction phase: each picked card built as an
  enclosure card, placed as an animal with its effect, or kept, and finishing ("The zoo";
  "Values, effects and score");
- `open_goals.OpenGoals`: once everyone has built (advanced mode), the open goals checked
  one by one and each achiever's reward ("Goals (advanced mode)");
- `ending.SecretGoalsAndTheEnd`: the end of a round and of the match: the secret goals
  revealed, judged on the final zoos and scored, and the winner ("Goals (advanced mode)";
  "Values, effects and score");
- `views.ViewsAndDeterminization`: a seat's view, and a state rebuilt from a view for
  search ("What each seat sees").

rules.py itself holds the engine's modes, its data, the table of rules, the phase's
decision asked and settled (`_decide`, `_decided`) and the set-up. The pure helpers beneath
the parts (the zoo's geometry, effects and score: `zoo`; the cards and goals: `data`; the
words: `text`) know nothing of the match's procedure. A part calls the other parts and the
contract's procedure (menagerie.rules.procedure); `EngineParts` declares what they call for
the type checker only, so at run time nothing here shadows the engine's own methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from menagerie.rules.contract import Prompt
    from menagerie.rules.decisions import Decision
    from menagerie.zoo.engine.data import Card, OpenGoal, SecretGoal, ValueName, ZooData
    from menagerie.zoo.engine.model import Event, ZooDecision, ZooState
    from menagerie.zoo.engine.text import ZooText


class EngineParts:
    """The engine as its parts see it (declared for type checking; ZooEngine provides it all)."""

    if TYPE_CHECKING:
        data: ZooData
        cards: dict[int, Card]
        secret_goals: dict[int, SecretGoal]
        open_goals: dict[int, OpenGoal]
        text: ZooText

        # The contract's procedure (menagerie.rules.procedure) and engine.
        def top(self, state: ZooState) -> Decision | None: ...
        def prompt(self, state: ZooState) -> Prompt: ...
        def clear(self, state: ZooState) -> None: ...

        # rules.py
        def _decide(self, state: ZooState, decision: ZooDecision) -> None: ...
        def _decided(self, state: ZooState, seat: int) -> bool: ...

        # drafting.py
        def _start_round(self, state: ZooState) -> list[Event]: ...

        # construction.py
        def _start_construction(self, state: ZooState) -> list[Event]: ...
        def choices(self, card: Card) -> list[tuple[ValueName | None, ValueName | None]]: ...

        # open_goals.py
        def _end_construction(self, state: ZooState) -> list[Event]: ...

        # ending.py
        def _end_round(self, state: ZooState) -> list[Event]: ...
