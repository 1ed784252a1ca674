"""Construction: each seat plays the cards it picked, all at once (one `Construction` decision).

A picked card is built as an enclosure card at the row's open end (in advanced mode its
path must meet the row's), placed as an animal in an enclosure of its habitat (or mystic;
a large one across two neighbouring enclosures), its effect applied at once, or kept for
the next round (one at most). Finishing discards the rest face up; once everyone has
finished, the open goals are checked (advanced mode) or the round ends.
"""

from __future__ import annotations

from collections.abc import Iterator

from menagerie.rules.decisions import Refusal
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import VALUES, Card, ChooseOne, Exchange, ValueName
from menagerie.zoo.engine.model import (
    Action,
    AnimalPlaced,
    Build,
    CardKept,
    Construction,
    ConstructionFinished,
    ConstructionStarted,
    Enclosure,
    EnclosureBuilt,
    End,
    Event,
    Finish,
    Keep,
    Place,
    Placed,
    Player,
    Values,
    ZooState,
)
from menagerie.zoo.engine.parts import EngineParts


class BuildingTheZoo(EngineParts):
    """The construction phase: enclosure cards built, animals placed with their effects, a card kept, finishing."""

    def _start_construction(self, state: ZooState) -> list[Event]:
        self._decide(state, Construction(must=list(range(len(state.players)))))
        for player in state.players:
            player.passed = []
        return [ConstructionStarted(round=state.round)]

    def _connects(self, state: ZooState, player: Player, card: Card, end: End) -> bool:
        """The card may be built at `end`: always in beginner mode, else its path must meet the row's."""
        if not zoo.paths_connect(state.mode):
            return True
        return zoo.meets(card.enclosures, end, zoo.end_connector(player, end, self.cards))

    def choices(self, card: Card) -> list[tuple[ValueName | None, ValueName | None]]:
        """The (increase, decrease) choices a placement of the card's animal names."""
        effect = card.animal.effect
        if isinstance(effect, Exchange):
            return [(up, down) for up in VALUES for down in VALUES if up != down]
        if isinstance(effect, ChooseOne):
            return [(option, None) for option in effect.options]
        return [(None, None)]

    def _construction_options(self, state: ZooState, seat: int) -> Iterator[Action]:
        """Exactly the legal plays, per picked card: builds at open ends its paths fit, placements in the
        animal's slots with each choice its effect names; then keeping a card (if none is kept), and finishing.

        The same helpers decide `_construction_problem` (open_ends, _connects, animal_slots, choices).
        """
        player = state.players[seat]
        for card_id in player.picks:
            card = self.cards[card_id]
            for end in zoo.open_ends(player):
                if self._connects(state, player, card, end):
                    yield Build(card_id, end)
            for position, level in zoo.animal_slots(player, card, self.cards):
                for increase, decrease in self.choices(card):
                    yield Place(card_id, position, level, increase, decrease)
        if player.kept is None:
            yield from (Keep(c) for c in player.picks)
        yield Finish()

    def _construction_problem(
        self, state: ZooState, seat: int, action: Build | Place | Keep | Finish
    ) -> str | Refusal | None:
        if isinstance(action, Finish):
            return None
        player = state.players[seat]
        if action.card not in player.picks:
            return f"card {action.card} is not among the cards you picked"
        card = self.cards[action.card]
        if isinstance(action, Keep):
            if player.kept is not None:
                return Refusal("Keeping a card", "you may keep only one card for the next round")
            return None
        if isinstance(action, Build):
            if action.end not in zoo.open_ends(player):
                side = player.side
                return Refusal(
                    "Building enclosures",
                    f"your zoo grows from the {side} edge of your character sheet: "
                    f"new enclosure cards go only at its open {side} end",
                )
            if not self._connects(state, player, card, action.end):
                needed = zoo.end_connector(player, action.end, self.cards)
                edge = zoo.edge(card.enclosures, zoo.opposite(action.end))
                return Refusal(
                    "Paths",
                    f"the {action.end} end needs a path at the {needed}; this card's edge has it at the {edge}",
                )
            return None
        return self._place_problem(player, card, action)

    def _place_problem(self, player: Player, card: Card, action: Place) -> Refusal | None:
        animal = card.animal
        slot = (action.position, action.level)
        if slot not in set(zoo.animal_slots(player, card, self.cards)):
            placed = zoo.card_at(player, action.position)
            if placed is None:
                return Refusal("Placing animals", f"there is no enclosure card at position {action.position}")
            here = placed.level(action.level)
            if not zoo.fits(animal.habitat, here.type):
                return Refusal(
                    "Placing animals",
                    f"the {animal.name} lives in the {animal.habitat}, not in a {here.type} enclosure",
                )
            if animal.size == "large":
                return Refusal(
                    "Large animals",
                    f"the {animal.name} needs two neighbouring free {animal.habitat} (or mystic) enclosures "
                    "on the same level, this one and the next to the right",
                )
            return Refusal("Placing animals", "different animals never share an enclosure")
        if (action.increase, action.decrease) not in self.choices(card):
            effect = card.animal.effect
            if isinstance(effect, Exchange):
                detail = "name two different values: one to increase and one to decrease"
            elif isinstance(effect, ChooseOne):
                detail = f"choose to increase {effect.options[0]} or {effect.options[1]}"
            else:
                detail = "this animal's effect has no choice to make"
            return Refusal("Animal effects", detail)
        return None

    def _construct(self, state: ZooState, seat: int, action: Build | Place | Keep | Finish) -> list[Event]:
        if isinstance(action, Build):
            return self._build(state, seat, action)
        if isinstance(action, Place):
            return self._place(state, seat, action)
        if isinstance(action, Keep):
            return self._keep(state, seat, action.card)
        return self._finish(state, seat)

    def _build(self, state: ZooState, seat: int, action: Build) -> list[Event]:
        player = state.players[seat]
        card = self.cards[action.card]
        position = zoo.end_position(player, action.end)
        player.picks.remove(action.card)
        if player.side is None:
            player.side = action.end  # the first enclosure card chooses the edge the zoo grows from
        player.row.append(
            Placed(position, action.card, Enclosure(card.enclosures.top), Enclosure(card.enclosures.bottom))
        )
        player.row.sort(key=lambda p: p.position)
        return [EnclosureBuilt(seat=seat, card=card, position=position)]

    def _place(self, state: ZooState, seat: int, action: Place) -> list[Event]:
        """Houses the animal, then applies its effect (counts include the animal just placed)."""
        player = state.players[seat]
        card = self.cards[action.card]
        change = zoo.effect_change(
            card, zoo.Counts.of(player, self.cards), player.values, action.increase, action.decrease
        )
        player.picks.remove(action.card)
        placed = zoo.card_at(player, action.position)
        assert placed is not None
        large = card.animal.size == "large"
        placed.level(action.level).animals.append(action.card)
        placed.level(action.level).large = large
        if large:
            neighbour = zoo.card_at(player, action.position + 1)
            assert neighbour is not None
            neighbour.level(action.level).animals.append(action.card)
            neighbour.level(action.level).large = True
        zoo.apply_change(player, change)
        return [
            AnimalPlaced(
                seat=seat, card=card, position=action.position, level=action.level, values=Values(**player.values)
            )
        ]

    def _keep(self, state: ZooState, seat: int, card: int) -> list[Event]:
        player = state.players[seat]
        player.picks.remove(card)
        player.kept = card
        return [CardKept(seat=seat, card=self.cards[card])]

    def _finish(self, state: ZooState, seat: int) -> list[Event]:
        player = state.players[seat]
        discarded = player.picks
        player.picks = []
        state.discards += discarded
        events: list[Event] = [ConstructionFinished(seat=seat, discarded=[self.cards[c] for c in discarded])]
        if self._decided(state, seat):
            events += self._end_construction(state)
        return events
