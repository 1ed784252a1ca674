"""Whether a Move, Pass, Shoot, Steal, Beat or Recover may be performed now, and if not, which rule forbids it.

One function per Action decides it from the rulebook's conditions in order and says why it
refuses (l.342–388, l.418); `ActionBlocks._instances` lists the same Actions from the same
pitch helpers, and a test checks over random positions that the two agree on every
candidate (tests/test_pitch_refusals.py). `unknown_zone` and `zone_problem` say why a Zone
is refused, for these and for the rules that put a Bludger or the Quaffle somewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from menagerie.snitch.data import Pitch
from menagerie.snitch.engine import pitch
from menagerie.snitch.engine.model import (
    PITCH_ACTION_TYPES,
    Action,
    Beat,
    BlockAction,
    FreeAction,
    KickOffPass,
    Move,
    PassQuaffle,
    Recover,
    Shoot,
    SnitchState,
    Steal,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.wording import player_name

Problem = str | None


class PitchRules(EngineParts):
    """The refusals of the Pitch Actions (a part of SnitchEngine)."""

    def pitch_problem(self, state: SnitchState, seat: int, action: Action) -> Problem:
        """Why `seat` may not perform this Pitch Action now (None: it may)."""
        top = self.top(state)
        kind = next(k for k, t in PITCH_ACTION_TYPES.items() if isinstance(action, t))
        if isinstance(top, KickOffPass):
            return self._kick_off_pass_problem(state, seat, action)
        if isinstance(top, BlockAction) and kind not in state.block_remaining:
            left = ", ".join(a.capitalize() for a in state.block_remaining) or "nothing"
            return f"this Action Block has no {kind.capitalize()} left (remaining: {left})"
        if isinstance(top, FreeAction) and top.action is not None and top.action != kind:
            return f"this free Action is a {top.action.capitalize()}"
        player = getattr(action, "player", None)
        if not isinstance(player, int) or not 0 <= player < len(state.layout.players[seat]):
            return f"there is no Player {player!r}: Players are 0 (Keeper), 1–2 (Beaters), 3–5 (Chasers)"
        checks: dict[type, Callable[[SnitchState, PlayerRef, Action], Problem]] = {
            Move: self._move_problem,
            PassQuaffle: self._pass_problem,
            Shoot: self._shoot_problem,
            Steal: self._steal_problem,
            Beat: self._beat_problem,
            Recover: self._recover_problem,
        }
        return checks[type(action)](state, PlayerRef(seat, player), action)

    def _zone_name(self, zone: str) -> str:
        return self.pitch.zone(zone).name

    def _kick_off_pass_problem(self, state: SnitchState, seat: int, action: Action) -> Problem:
        if not isinstance(action, PassQuaffle) or action.player != 0:
            return "the Keeper's Kick-Off allows only the Keeper's Pass (l.520)"
        targets = pitch.pass_targets(self.pitch, state.layout, PlayerRef(seat, 0))
        if action.target not in {t.index for t in targets}:
            return f"{_named(action.target)} is not a friendly Player up to 2 Zones from the Keeper (l.520)"
        return None

    def _move_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        assert isinstance(action, Move)
        layout, name = state.layout, player_name(player.index)
        if problem := unknown_zone(self.pitch, action.zone):
            return problem
        here = layout.zone_of(player)
        if action.zone not in pitch.adjacent(self.pitch, here):
            return f"{self._zone_name(action.zone)} is not next to {name}'s Zone, {self._zone_name(here)}"
        if pitch.disadvantage(layout, player):
            return f"{name} is at a Disadvantage and cannot Move out of its Zone (l.418)"
        if action.zone not in pitch.move_destinations(self.pitch, layout, player):
            return (
                f"{name} may not enter {self._zone_name(action.zone)}: only the defending Keeper and one attacking "
                "Chaser with the Quaffle (l.123)"
            )
        return None

    def _pass_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        assert isinstance(action, PassQuaffle)
        if state.layout.holder != player:
            return f"{player_name(player.index)} does not have the Quaffle"
        targets = pitch.pass_targets(self.pitch, state.layout, player)
        if action.target not in {t.index for t in targets}:
            return f"{_named(action.target)} is not a friendly Player up to 2 Zones away (l.356)"
        return None

    def _shoot_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        if state.layout.holder != player:
            return f"{player_name(player.index)} does not have the Quaffle"
        if not pitch.may_shoot(self.pitch, state.layout, player):
            return "only a Chaser with the Quaffle in the rival's Scoring Area may Shoot (l.364)"
        return None

    def _steal_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        if state.attacking == player.team:
            return "only a Player of the Defending Team may Steal (l.374)"
        if player not in pitch.stealers(state.layout):
            return f"{player_name(player.index)} is not in the Zone of the Player with the Quaffle (l.374)"
        return None

    def _beat_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        assert isinstance(action, Beat)
        layout, name = state.layout, player_name(player.index)
        if player.position != "beater":
            return f"{name} is not a Beater (l.380)"
        if action.bludger not in pitch.bludgers_in(layout, layout.zone_of(player)):
            which = action.bludger + 1 if isinstance(action.bludger, int) else action.bludger
            return f"Bludger {which} is not in {name}'s Zone (l.380)"
        if action.target not in {t.index for t in pitch.beat_targets(self.pitch, layout, player)}:
            return "the target is not a rival Player up to 2 Zones away (l.380)"
        return None

    def _recover_problem(self, state: SnitchState, player: PlayerRef, action: Action) -> Problem:
        if not state.players[player.team].team[player.index].stunned:
            return f"{player_name(player.index)} has no Stunned token to remove (l.388)"
        return None


def unknown_zone(board: Pitch, zone: object) -> Problem:
    """Why `zone` names no Zone of the Pitch, listing the Zones (None: it names one)."""
    ids = [z.id for z in board.zones]
    if zone not in ids:
        return f"there is no Zone {zone!r}; Zones: {', '.join(ids)}"
    return None


def zone_problem(board: Pitch, zone: object, allowed: Collection[str]) -> Problem:
    """Why a Bludger or the Quaffle may not be put in `zone` now: no such Zone, or not one of `allowed`."""
    if problem := unknown_zone(board, zone):
        return problem
    if zone not in allowed:
        return f"{board.zone(str(zone)).name} is not one of the Zones allowed now"
    return None


def _named(index: object) -> str:
    """A Player's name, or the index as sent when it names no Pitch Player."""
    if isinstance(index, int) and 0 <= index < len(pitch.PITCH_LINEUP):
        return player_name(index)
    return f"Player {index!r}"
