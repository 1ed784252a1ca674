"""Determinization (issue 16): a full state consistent with one seat's view, for search.

`state_from_view` rebuilds the state from the view: the public parts from what the table
shows and from the view's `procedure` (the pending decisions and flow steps, the roll
under way, the Game Sequence's bookkeeping; copied, as a search changes the state it
plays on in place), the seat's own secrets from its own parts
(hand, draw pile, chosen cards, draft), and what the seat cannot see dealt from the
cards not accounted for, the first legal way. `determinize` then draws what a shuffle of
the hidden zones cannot, each being a single place — the rival's Goal Hoop card, their
Snitch card in play, their draft, and in mode "advanced" which cards their secretly
built deck holds — and shuffles the hidden zones (`menagerie.rules.hidden`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import cast

import msgspec

from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.snitch.data import FERVENT_FAN, HOUSES, Colour, House
from menagerie.snitch.data.cards import GoldenSnitchCard, load_snitch_deck
from menagerie.snitch.engine import pitch
from menagerie.snitch.engine.model import Coach, PitchPlayer, Procedure, SnitchState, SnitchView, StandSpot
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import Layout, PlayerRef
from menagerie.snitch.engine.race import HeldDice, Token
from menagerie.snitch.engine.roster import Draft
from menagerie.snitch.engine.sampling import TacticsDeal, ViewSampler

# A state rebuilt from a view gets its own copy of the view's procedure: play changes the state in place.
_ENCODER = msgspec.msgpack.Encoder()
_PROCEDURE = msgspec.msgpack.Decoder(Procedure)
_CHASER = pitch.PITCH_LINEUP.index("chaser")
# The Snitch race deck's card ids (race.card reads the same deck), and its Golden Snitch cards.
_SNITCH_DECK = tuple(c.id for c in load_snitch_deck().cards)
_GOLDEN = frozenset(c.id for c in load_snitch_deck().cards if isinstance(c, GoldenSnitchCard))


class Determinization(EngineParts):
    """Rebuilding a state from a seat's view (a part of SnitchEngine)."""

    # The last view determinized, its seat and its sampler (a search determinizes one view many times).
    _sampled: tuple[SnitchView, int, Callable[[int], SnitchState]] | None = None

    def state_from_view(self, view: SnitchView, seat: int | None) -> SnitchState:
        """A state consistent with `view`: what `seat` (None: a spectator) cannot see dealt in card order (the
        cheapest legal deck)."""
        return self._rebuild(view, seat, None)

    def determinize(self, view: SnitchView, seat: int, seed: int) -> SnitchState:
        """A random state consistent with `view`: the rival's secrets drawn, the hidden zones shuffled, a fresh Rng.

        A search asks again and again for the same view: the last view's sampler is kept (by
        identity: a view is never changed once built) so that only the draws are made anew.
        """
        last = self._sampled
        if last is None or last[0] is not view or last[1] != seat:
            last = self._sampled = (view, seat, self._sampler(view, seat))
        return last[2](seed)

    def _sampler(self, view: SnitchView, seat: int) -> Callable[[int], SnitchState]:
        """Determinizations of `view`: a ViewSampler once the Teams are formed, else the generic path."""
        if view.draft is not None or not all(coach.cards for coach in view.coaches):
            return partial(self._determinize_generic, view, seat)
        rival = view.coaches[1 - seat]
        _, pile, keepable = self._snitch_pile(view, seat)
        aims = self.data.hoops.numbers if rival.aim_chosen else None
        deal = self._tactics_deal(view, 1 - seat)
        return ViewSampler(self._rebuild(view, seat, None), seat, deal, pile, keepable, aims).sample

    def _determinize_generic(self, view: SnitchView, seat: int, seed: int) -> SnitchState:
        """The rebuilt state, its single-place secrets drawn, then every hidden pool shuffled (rules.hidden)."""
        rng = Rng(seed)
        return permute_hidden(self._rebuild(view, seat, rng), seat, rng)

    # ------------------------------------------------------------------ the parts

    def _rebuild(self, view: SnitchView, seat: int | None, rng: Rng | None) -> SnitchState:
        """The state; `rng` draws the single-place secrets (None: the first legal choice)."""
        if view.procedure is None:
            raise ValueError("the view carries no procedure (an evaluation's view cannot be rebuilt)")
        procedure = _PROCEDURE.decode(_ENCODER.encode(view.procedure))
        snitch_in_play, snitch_deck = self._snitch_cards(view, seat, rng)
        players = [self._coach(view, procedure, team, seat, snitch_in_play[team], rng) for team in (0, 1)]
        the_race = view.race
        held: list[list[HeldDice]] = [[], []]
        for token, entries in (("bonus", the_race.held_bonus), ("penalty", the_race.held_penalty)):
            for entry in entries:
                owner, colour = entry.split(":", 1)
                held[int(owner)].append(HeldDice(token=token, colour=cast("Colour", colour)))  # type: ignore[arg-type]
        return SnitchState(
            mode=view.mode,
            rng=Rng(0),
            players=players,
            layout=self._layout(view),
            attacking=view.attacking,
            seekers=list(the_race.seekers),
            snitch=the_race.snitch,
            snitch_deck=snitch_deck,
            snitch_row=[c.id for c in the_race.row],
            snitch_discard=list(the_race.discard),
            race_tokens=[
                Token(space=t.space, kind=t.kind, owner=t.owner, colour=t.colour, turn=turn)  # type: ignore[arg-type]
                for t, turn in zip(the_race.tokens, procedure.token_turns, strict=True)
            ],
            held=held,
            race_turn=procedure.race_turn,
            decisions=procedure.decisions,
            flow=procedure.flow,
            exchange=procedure.exchange,
            block_seat=view.block_seat,
            block_index=view.block_index,
            block_remaining=list(view.block_remaining),  # type: ignore[arg-type]
            block_performed=procedure.block_performed,
            sequence=view.sequence,
            block_turns=[[t.seat, t.index, int(t.optional)] for t in procedure.block_turns],
            last_block_seat=procedure.last_block_seat,
            intrepid_plays=[[p.seat, p.card] for p in procedure.intrepid_plays],
            deployed=[[p.team, p.index] for p in procedure.deployed],
            last_actor=procedure.last_actor,
            offer_last=procedure.offer_last,
            moved_bludger=procedure.moved_bludger,
            block_optional=procedure.block_optional,
            funding=view.funding,
            spectators_on=view.spectators_on,
            stand=[StandSpot(zone=s.zone, seat=s.seat, card=s.card) for s in view.stand],
            outcome=view.outcome,
        )

    def _layout(self, view: SnitchView) -> Layout:
        """Where the Players, the Quaffle and the Bludgers are (before the Teams are formed: Setup's placeholder)."""
        the_pitch = self.pitch
        halves = (the_pitch.halves[0].id, the_pitch.halves[1].id)  # as Setup picks them (rules.py)
        if not view.players:
            return pitch.setup_layout(the_pitch, halves, PlayerRef(0, _CHASER))
        zones: tuple[list[str], list[str]] = ([], [])
        quaffle: PlayerRef | str = view.quaffle_zone
        for player in view.players:  # each Team's Players in lineup order
            zones[player.team].append(player.zone)
            if player.has_quaffle:
                quaffle = PlayerRef(player.team, player.index)
        placed = {b: z.id for z in view.zones for b in z.bludgers}
        return Layout(
            halves=halves,
            players=(tuple(zones[0]), tuple(zones[1])),
            quaffle=quaffle,
            bludgers=tuple(placed[b] for b in range(len(placed))),
        )

    def _coach(
        self,
        view: SnitchView,
        procedure: Procedure,
        team: int,
        seat: int | None,
        snitch_card: int | None,
        rng: Rng | None,
    ) -> Coach:
        """One Coach: the seat's own secrets as it sees them, the rival's dealt from what it has not seen."""
        shown = view.coaches[team]
        own = team == seat
        if own:
            hand, deck, pitch_card = [c.id for c in view.hand], list(view.my_deck), view.my_pitch_card
        else:
            chosen = shown.pitch_card_chosen and shown.pitch_card is None
            unseen = self._unseen_tactics(view, team, rng)
            if len(unseen) != shown.hand_size + shown.deck_size + chosen:
                raise ValueError("the view's Tactical card counts do not add up")
            hand, deck = unseen[: shown.hand_size], unseen[shown.hand_size + chosen :]
            pitch_card = unseen[shown.hand_size] if chosen else shown.pitch_card
        aim = view.my_aim if own else (self._any_hoop(rng) if shown.aim_chosen else None)
        # Each Coach holds a draft until both Teams are formed; the seat's own is in its view.
        draft = None
        if view.draft is not None:
            draft = (
                Draft(picks=list(view.draft.picks), ready=view.draft.ready)
                if own
                else self._any_draft(shown.team_confirmed, rng)
            )
        mine = [p for p in view.players if p.team == team]
        return Coach(
            house=cast("House", shown.house or "gryffindor"),  # Setup's placeholder until the Teams are formed
            team=[PitchPlayer(stunned=p.stunned, bonus=list(p.bonus), penalty=list(p.penalty)) for p in mine],  # type: ignore[arg-type]
            hand=hand,
            deck=deck,
            discard=list(shown.discard),
            pitch_card=pitch_card,
            pitch_revealed=shown.pitch_card is not None,
            intrepids=list(shown.intrepids),
            declined_intrepid=shown.declined_intrepid,
            effects=procedure.effects[team].effects if procedure.effects else [],
            next_block=shown.next_block,
            tempo=shown.tempo,
            goals=shown.goals,
            celebrated=shown.celebrated,
            aim=aim,
            snitch_in_play=snitch_card,
            draft=draft,
            lineup=[c.id for c in shown.cards],
            locked=list(shown.locked),
            spectators=[s.id for s in shown.spectators],
            spectators_played=list(shown.spectators_played),
            flag=shown.flag,
        )

    def _unseen_tactics(self, view: SnitchView, team: int, rng: Rng | None) -> list[int]:
        """The rival's Tactical cards `view` does not show (hand, draw pile, a chosen Pitch Actions card)."""
        return self._tactics_deal(view, team).deal(rng)

    def _tactics_deal(self, view: SnitchView, team: int) -> TacticsDeal:
        """How the cards of `team` that `view` does not show are dealt.

        Basic Teams play their House's basic deck. A deck built under a Funding (l.693) is
        secret: its unseen cards are drawn from the library, within what the Funding leaves
        after the Team's known cards (the cheapest first without an Rng; there are always
        enough free ones, l.697).
        """
        shown = view.coaches[team]
        if not shown.cards:
            return TacticsDeal(fixed=())  # the Teams are not formed yet: no Tactical cards anywhere
        house = cast("House", shown.house)
        known = {*shown.discard, *shown.intrepids, *([shown.pitch_card] if shown.pitch_card is not None else [])}
        if view.mode == "basic":
            return TacticsDeal(fixed=tuple(c.id for c in self.decks.deck(house) if c.id not in known))
        library = self.catalogue.library[house]
        spent = sum(self.players_by_id[c.id].cost for c in shown.cards)
        spent += sum(self.spectator_cards[s.id].cost for s in shown.spectators if s.id != FERVENT_FAN)
        spent += sum(library[c].cost for c in known)
        candidates = tuple(c for c in library if c not in known)
        return TacticsDeal(
            fixed=None,
            candidates=candidates,
            costs=tuple(library[c].cost for c in candidates),
            budget=view.funding - spent,
            need=shown.hand_size + shown.deck_size + (shown.pitch_card_chosen and shown.pitch_card is None),
        )

    def _snitch_cards(self, view: SnitchView, seat: int | None, rng: Rng | None) -> tuple[list[int | None], list[int]]:
        """Each Coach's Snitch card in play and the Snitch deck: the cards not in the row, the discard or in sight.

        A card in play that `seat` does not see (l.664: the rival's; a spectator sees neither) is one of them
        that is not a Golden Snitch card.
        """
        in_play: list[int | None] = [None, None]
        if not view.coaches[0 if seat is None else seat].cards:
            return in_play, []  # the Teams are not formed yet: the race deck is dealt at Setup (l.243)
        if seat is None:
            seen = {*(c.id for c in view.race.row), *view.race.discard}
            unseen = [c for c in _SNITCH_DECK if c not in seen]
        else:
            in_play[seat], unseen, _ = self._snitch_pile(view, seat)
        for team in (0, 1):
            if team != seat and view.coaches[team].has_snitch_card:
                keepable = [c for c in unseen if c not in _GOLDEN]
                card = keepable[0] if rng is None else rng.choice(keepable)
                unseen.remove(card)
                in_play[team] = card
        if len(unseen) != view.race.deck_size:
            raise ValueError("the view's Snitch card counts do not add up")
        return in_play, unseen

    @staticmethod
    def _snitch_pile(view: SnitchView, seat: int) -> tuple[int | None, list[int], list[int] | None]:
        """The seat's Snitch card in play, the cards it has not seen, those the rival may hold (None: it holds none)."""
        mine = view.my_snitch_card.id if view.my_snitch_card is not None else None
        seen = {*(c.id for c in view.race.row), *view.race.discard, mine}
        unseen = [c for c in _SNITCH_DECK if c not in seen]
        keepable = [c for c in unseen if c not in _GOLDEN] if view.coaches[1 - seat].has_snitch_card else None
        return mine, unseen, keepable

    def _any_hoop(self, rng: Rng | None) -> int:
        """A Goal Hoop card the rival may have chosen face down."""
        numbers: Sequence[int] = self.data.hoops.numbers
        return numbers[0] if rng is None else rng.choice(numbers)

    def _any_draft(self, ready: bool, rng: Rng | None) -> Draft:
        """A Team the rival may be building in secret: a House's basic Team and deck (legal under any Funding)."""
        house: House = HOUSES[0] if rng is None else rng.choice(HOUSES)
        picks = [f"house:{house}"]
        picks += [f"player:{p.id}" for p in self.data.players.lineup(house)]
        picks += [f"tactic:{c.id}" for c in self.decks.deck(house)]
        return Draft(picks=picks, ready=ready)
