"""What the parts of the Snitch rules share: the engine's helpers each part may call.

`SnitchEngine` (rules.py) is built from parts, each a mixin in its own module with one
job: `building.BuildYourTeam` (mode "advanced"'s first phase), `stand.SpectatorStand`
(the Spectators optional rule), `determinize.Determinization` (a state from a seat's view,
for search). A part calls the flow helpers and reads the data that rules.py provides;
`EngineParts` declares them for the type checker only, so at run time nothing here
shadows the engine's own methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from menagerie.rules.decisions import Decision
    from menagerie.rules.procedure import Step
    from menagerie.snitch.data import BoardData, Pitch, PlayerCard, SpectatorCard
    from menagerie.snitch.data.cards import TacticalDecks
    from menagerie.snitch.engine import roster
    from menagerie.snitch.engine.model import Event, SnitchState


class EngineParts:
    """The engine as its parts see it (declared for type checking; SnitchEngine provides it all)."""

    if TYPE_CHECKING:
        data: BoardData
        pitch: Pitch
        decks: TacticalDecks
        catalogue: roster.Catalogue
        spectator_cards: dict[str, SpectatorCard]
        players_by_id: dict[str, PlayerCard]

        def top(self, state: Any) -> Decision | None: ...
        def advance(self, state: SnitchState, events: list[Event]) -> None: ...
        def ask(self, state: SnitchState, decision: Decision, *then: Step) -> None: ...
        def then(self, state: SnitchState, *steps: Step) -> None: ...
        def settle(self, state: SnitchState) -> Any: ...
        def decided(self, state: SnitchState, seat: int) -> bool: ...
        def _start_match(self, state: SnitchState, events: list[Event]) -> None: ...
        def _apply_effect(
            self, state: SnitchState, seat: int, card_id: int, effect: Any, events: list[Event]
        ) -> None: ...
