"""The bot levels of Catch the Golden Snitch: `random`, and `greedy`, which scores every legal action.

The package: `values` (the currency and the chances), `team` (Build Your Team), `table` (one
decision's reading of the view), `greedy` (the levels), `evaluation` (the mcts level's hooks).

A bot sees what a human in its seat sees (the engine's `SnitchView`) and the legal
actions; it never reads the state. Everything it weighs is read from the view into the
engine's own rule helpers, which it never re-derives:

- where Players may go, who is at a Disadvantage, who may Pass, Shoot, Steal or Beat, and
  where a Loose Quaffle may land are `pitch.py`'s, on a `Layout` read from the view;
- every chance is exact, from `rolls.py` (`success_chance`, `net_outcomes`, `modifier`,
  `aim_outcomes`) and the dice the view's Player cards list;
- the Snitch race is `race.py`'s: a `Race` read from the view, each Impulse resolved with
  `resolve_step` over `race_roll_chances`, the Impulse a combination gives from
  `combined_level`, Ahead and Lagged from `ahead`/`lagged`.

`greedy` values a position in one currency ("units"): the Snitch race decides the match,
so a Snitch card is worth about 10, a Tempo Point a quarter of one, a Goal a card, a Tempo
Point and a Goal token. The race is worth the gap between the Seekers scaled by how little
is left to run (`race_units`): a Glimpse helps the Seeker Ahead, Accelerate and Obstruct
widen the gap, and a card kept in play is worth part of the Fast Impulse it may give. On
the Pitch a position is worth Possession, the holder's progress towards the rival Scoring
Area, Disadvantage, support, the Keeper at home and Beaters beside Bludgers
(`Judge.pitch_value`). Each action is scored by the expected value of what it leads to
(rolled Actions: their chance of success times the success, plus the failure); ties go to
the `rng`.

Mode "advanced" (Build Your Team): `random` picks any legal card until the engine lets it
confirm, then confirms (it never takes a pick back); `greedy` builds by value per Galleon
(menagerie.snitch.bots.team), flies its House's Flag when it is free, places a Spectator
whenever one is offered (onto a rival's first), and uses a Locked Trait when the expected
stake it saves on the roll under way is worth more than keeping the Trait (TRAIT_COST).
"""

from menagerie.rules.bots import PolicyFactory
from menagerie.snitch.bots.evaluation import evaluate, evaluate_seats, searchable
from menagerie.snitch.bots.greedy import SnitchGreedy, SnitchRandom
from menagerie.snitch.bots.table import Table, layout_of, race_of, tactical_card
from menagerie.snitch.bots.team import planned_team, player_worth

# The bot levels of this game (entry point group menagerie.bots); `evaluate`, `evaluate_seats` and
# `searchable` are the hooks the mcts level looks for beside them.
POLICIES: dict[str, PolicyFactory] = {"random": SnitchRandom, "greedy": SnitchGreedy}

__all__ = [
    "POLICIES",
    "SnitchGreedy",
    "SnitchRandom",
    "Table",
    "evaluate",
    "evaluate_seats",
    "layout_of",
    "planned_team",
    "player_worth",
    "race_of",
    "searchable",
    "tactical_card",
]
