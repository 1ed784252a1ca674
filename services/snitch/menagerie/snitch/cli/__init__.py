"""Catch the Golden Snitch in the terminal: the pitch, the Snitch race, the Coaches, the cards and the roll.

Everything comes from menagerie.snitch.v1 views. Every sentence — events, the prompt, the
labels of the legal actions, the words of each card (its Action Blocks, its Intrepid Move,
each Impulse of a Snitch card) and the extra words on the pending decision — comes from
the engine through the service; this package only lays out names, numbers and marks. It
never words a rule and never imports the engine.

The pitch is drawn as the view's Zones at their row and column (rows 0–2, columns 0–6),
each Zone with the Players in it (Team, Position code, Stunned tokens, the Quaffle; ✷ a
Player with a Trait, ⊘ its Locked token), the Bludgers and a Loose Quaffle. Below it: the
Snitch race track, the Coaches (with their Flag colour), the Traits of the Teams' unique
Players, the Spectator Stand and each Coach's Spectator cards, the face-up row of Snitch
cards, the viewer's hand and Snitch card in play, and the roll under way.

While the Teams are built (mode "advanced", Build Your Team) the screen is the viewer's
own Team under construction instead: House, Funding spent and left, the Players picked
(Position, cost, Trait), the Tactical deck's size and cost, the Spectators, and what the
engine says is still missing; the rival's progress shows only as built or not. The legal
picks are listed by the session with the engine's labels, as every decision's are.

The modules, each importing only those above it:

- words: the shared presentation helpers — a seat's name (or "you"), the Teams' one-letter
  marks and styles, a capital, a title, a Zone's name fitted to its column ("W Deploy"), a
  rolled die ("o:S");
- lookups: finding things in the view — whether the Teams are being built, a Position's
  rank, a Coach's card codes, a Player's Trait mark, a Spectator card, a Player, a Tactical card;
- toggles: which parts of a set choice the player toggles — the dice of a re-roll, the Dice
  tokens of a spend;
- pitch: PitchGrid, the view's Zones as a grid, each with its Players, Bludgers and Quaffle;
- board: SnitchUI, the plugin the `menagerie` CLI loads (entry point menagerie.cli: snitch) —
  the stub, the how-to-play, the menu and every other part of the drawing.
"""

from menagerie.snitch.cli.board import SnitchUI as SnitchUI
