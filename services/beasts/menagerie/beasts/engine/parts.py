"""What the parts of the Fantastic Beasts rules share: the engine's helpers each part may call.

`BeastsEngine` (rules.py) is built from parts, each a mixin in its own module with one
job: mode III's, then those of modes I and II in the order a turn meets them:

- `salem.AdvancedMagizoology`: mode III, the cooperative game against the Second Salemers;
- `movement.DieAndMovement`: the roll, the die (the game's one chance node) and the move;
- `stops.StopsAndTokens`: the token where the seat stops, revealed and resolved, and the
  space refilled from the supply;
- `capture.Capturing`: mode II's capture of a creature paid for with resource tokens;
- `spells.SpellCards`: the Spell Card Variant, drawing and casting spells;
- `turns.TurnsAndTheEnd`: the turn's decisions, its start and end, and the end of the match;
- `views.ViewsAndDeterminization`: a seat's view, and a state rebuilt from a view for search.

rules.py itself holds the engine's modes, its data, the table of rules (an action kind
each: how it is listed, refused and performed), the table of the procedure (the die) and
the set-up. The pure helpers beneath the parts (the board's routes: `board`; costs:
`costs`; the data: `data`, `salem_data`; the words: `text`) know nothing of the match's
procedure. A part calls the other parts and the contract's procedure
(menagerie.rules.procedure); `EngineParts` declares what they call for the type checker
only, so at run time nothing here shadows the engine's own methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from menagerie.beasts.engine.board import Routes
    from menagerie.beasts.engine.data import GameData, Spell, SpellId
    from menagerie.beasts.engine.model import (
        BeastsState,
        BeastsView,
        DieRoll,
        Event,
        Move,
        ResourceCounts,
        SpellInfo,
        Step,
        TokenRevealed,
        TurnDecision,
    )
    from menagerie.beasts.engine.salem_data import SalemData
    from menagerie.rules.contract import Prompt
    from menagerie.rules.decisions import Decision
    from menagerie.rules.procedure import Step as FlowStep


class EngineParts:
    """The engine as its parts see it (declared for type checking; BeastsEngine provides it all)."""

    if TYPE_CHECKING:
        data: GameData
        salem: SalemData
        routes: Routes
        _moves: list[Move]
        _steps: list[Step]
        creatures: dict[str, Any]
        costs: dict[str, ResourceCounts]
        cost_tuples: dict[str, tuple[int, int, int, int]]
        spells: dict[SpellId, Spell]

        # The contract's procedure (menagerie.rules.procedure) and engine.
        def top(self, state: Any) -> Decision | None: ...
        def prompt(self, state: BeastsState) -> Prompt: ...
        def restart(self, state: BeastsState, *decisions: Decision) -> None: ...
        def settle(self, state: BeastsState) -> Decision: ...
        def draw(self, state: BeastsState, node: FlowStep, events: list[Event]) -> None: ...
        def clear(self, state: BeastsState) -> None: ...

        # movement.py
        def _roll_die(self, state: BeastsState, roll: DieRoll) -> list[Event]: ...

        # stops.py
        def _stop(self, state: BeastsState, seat: int) -> list[Event]: ...
        def _refill(self, state: BeastsState, space: int) -> list[Event]: ...
        @staticmethod
        def _revealed(space: int, token: str) -> TokenRevealed: ...

        # capture.py
        def _can_capture(self, state: BeastsState, seat: int) -> bool: ...

        # spells.py
        def _draw_spell(self, state: BeastsState, seat: int) -> list[Event]: ...
        def _spell_book(self) -> list[SpellInfo]: ...

        # turns.py
        def _decide(self, state: BeastsState, decision: TurnDecision) -> None: ...
        def _settle(self, state: BeastsState) -> list[Event]: ...
        def _end_turn(self, state: BeastsState) -> list[Event]: ...
        def _check_end(self, state: BeastsState, seat: int) -> list[Event]: ...
        def _finish(
            self, state: BeastsState, winners: list[int], reason: str, all_lose: bool = False
        ) -> list[Event]: ...

        # salem.py (mode III)
        def character(self, state: BeastsState, seat: int) -> Any: ...
        def _fought(self, state: BeastsState, seat: int, value: int) -> list[Event]: ...
        def _capture_advanced_problem(self, state: BeastsState, seat: int) -> str | None: ...
        def advanced_view(self, state: BeastsState) -> dict[str, Any]: ...
        def advanced_state_from_view(self, view: BeastsView) -> BeastsState: ...
