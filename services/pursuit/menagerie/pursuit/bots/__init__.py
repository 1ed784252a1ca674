"""The `greedy` level of Pursuit: a team player that plans the dice toward the team's needs.

The package: `values` (the currency, the tunable `Weights`, the dice a pool holds), `planner` (the
plans and the beast's roll, costed exactly), `rolling` (sampled rerolls), `greedy` (the level). The
mcts level's evaluation hook, `evaluate`, is menagerie.pursuit.evaluation's.

The bot reads only its seat's view (`PursuitView`) and the published components (the
dice faces, the boards, the beast cards): the other players' cards and the deck never
enter a decision. Every value is counted in "capture steps", one space of the beast's
track; losing the match costs `LOSS` of them.

One estimate does most of the work, `Planner.best(pool)`: the best the active player can
do with a pool of dice this turn. It tries every way of building the active board
(Ready an action with its pattern, Set it with one more die; both stay on the board for
good, so they are worth a share of what the action will bring in later turns: its
`asset`), then gives the remaining dice to the activations that pay most now:

- captures: a step is worth one, plus the chance of the beast escaping in its coming
  roll that it takes away; steps past the capture are wasted, the capture earns a bonus;
- a shield is worth what it saves its seat when the beast next rolls on that seat's turn
  (the exact distribution of the beast's dice, a stun costing the match), and a little
  for later: so shields go to whoever is low on health, the active player first;
- an insight card is worth a little, nothing once the hand is full;
- a distracted die is worth what the beast's roll costs with it, less what it costs without.

The beast's roll is costed exactly (`Planner.roll_cost`): every outcome of its dice, with
the steps it runs away, the health it takes and the shields it strips. The dice rules
themselves (how many dice the beast rolls, the distribution of its roll, what each face
does, how a Ready pattern is paid, which die an activation spends) are the engine's own
helpers (engine/dice.py): the bot never restates them.

Decisions:

- rolling: each choice of dice to keep is judged by the plan value of the same sampled
  rerolls (common random numbers), less the beast's reaction when the teal die is rolled
  again; it stops when no keep does better than the dice as they lie;
- Reroll card: played (by anyone) on the last roll when one more roll is worth more than
  holding the card;
- help window and the active player's own dice cards: a card is played when the plan
  gains more with its dice than the card is worth in hand;
- assigning: the first step of the best plan (cards, Ready, Set, Activate), then End;
- discard: the card worth least in hand;
- Muffliato and Protego: played when the expected (Muffliato) or certain (Protego) cost
  they avert is worth more than holding the card; Protego takes the most harmful face.
"""

from menagerie.pursuit.bots.greedy import PursuitGreedy
from menagerie.pursuit.bots.values import Weights
from menagerie.pursuit.evaluation import evaluate  # the mcts level's evaluation hook
from menagerie.rules.bots import PolicyFactory

# The bot levels of this game, beside `random` (entry point group menagerie.bots).
POLICIES: dict[str, PolicyFactory] = {"greedy": PursuitGreedy}

__all__ = ["POLICIES", "PursuitGreedy", "Weights", "evaluate"]
