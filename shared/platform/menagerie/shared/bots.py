"""What the platform knows of bots, shared by the game services, the lobby and the pool."""

from typing import Any, Generic, TypeVar

import msgspec

from menagerie.rules.bots import SEARCH_LEVELS
from menagerie.rules.errors import InvalidArgument

BOT_LEVELS = ("random", "greedy", "mcts")
# Wherever a level is left out: the strongest cheap one, so a first game is worth playing
# and no table pays for a search it did not ask for.
DEFAULT_BOT_LEVEL = "greedy"
# A searching level's time per decision (MatchConfig.bot_budget_seconds; 0 = the default).
DEFAULT_BOT_BUDGET_SECONDS = 1.0
# Beyond this a bot's decision holds a worker's slot too long whatever the turn timer
# (the task's soft time limit, 20 s, bounds the search and the decision's calls together).
MAX_BOT_BUDGET_SECONDS = 10.0


def searches(level: str) -> bool:
    """Whether `level` thinks for a time budget (and so plays from the pool's search queue)."""
    return level in SEARCH_LEVELS


def checked_budget(seconds: float, turn_timer_seconds: int) -> float:
    """`seconds` (0 = the default) once it fits: InvalidArgument naming the rule it breaks.

    A bot's decision fits the table's turn timer: a human is given `turn_timer_seconds` per
    decision, and a bot playing a seat (or a timed-out human's) must not take longer.
    `turn_timer_seconds` 0 means the game's default timer, which the game service checks.
    """
    if seconds != seconds or seconds < 0:  # NaN compares unequal to itself
        raise InvalidArgument(f"bot_budget_seconds must be a number of seconds ≥ 0, not {seconds!r}")
    budget = seconds or DEFAULT_BOT_BUDGET_SECONDS
    if budget > MAX_BOT_BUDGET_SECONDS:
        raise InvalidArgument(
            f"bot_budget_seconds must be at most {MAX_BOT_BUDGET_SECONDS:g} (a bot's decision may not hold a"
            f" worker longer), not {seconds:g}"
        )
    if turn_timer_seconds and budget > turn_timer_seconds:
        raise InvalidArgument(
            f"bot_budget_seconds ({budget:g} s) must fit the turn timer: at most turn_timer_seconds"
            f" ({turn_timer_seconds} s), since a bot's decision may take no longer than a player's"
        )
    return seconds


View = TypeVar("View")
Action = TypeVar("Action")


class BotTurn(msgspec.Struct, Generic[View, Action], array_like=True, frozen=True):
    """What a bot seat that must act needs to decide, kept by the game service beside the match (msgpack).

    Written with the move that made the seat's turn, from the same engine calls as GetView
    and ListLegalActions make for that seat (engine.view, engine.legal_actions): never more
    than the seat may see. The worker reads it with its decision's mark and submits at once.
    """

    view_version: int  # the seat's view version these were read at: the decision's expected_version
    actions: list[Action]  # the seat's legal actions
    view: View | None = None  # the seat's view; None when the bot's level decides without it


def bot_turn_decoder(view_type: Any, action_type: Any) -> msgspec.msgpack.Decoder[Any]:
    """Reads one game's BotTurn as the engine's own view and action types."""
    return msgspec.msgpack.Decoder(BotTurn[view_type, action_type])
