"""The Snitch race, in one place: the engine resolves the race and the Snitch race deck with these.

- the race state (`Race`): each Seeker's space, the Golden Snitch's space, the race tokens
  on the track, the dice tokens each Seeker holds, and the Snitch race deck (deck, face-up
  row, discard pile, each Coach's Snitch card in play);
- who is Ahead and who is Lagged (`ahead`, `lagged`), and what that changes: where a token
  may go (`token_spaces`), whether an Obstruct may be performed (`can_obstruct`), the
  Slipstreaming card's Obstruct 1;
- each race Action given its Successes (`accelerate`, `dodge`, `glimpse`, `obstruct`,
  `resolve_step`), the dice tokens a Seeker spends on a roll (`spend_held`), and the exact
  chances of a race roll (`race_roll_chances`; the engine rolls it as an exchange);
- taking a Snitch card: the legal choices (`snitch_choices`), the Impulse a combination
  gives (`combined_level`), taking it (`take_snitch_card`), refilling the face-up row with
  its reshuffle and Golden Snitch cards (`refill_row`);
- the catch (`catcher`).

Pure: small frozen values in, new values out; randomness only through the Rng passed in.
Seats are 0 and 1. Rulebook line numbers (l.) are of `catch-the-golden-snitch.txt`; every
reading is recorded in RULES.md, "Race rules".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

import msgspec

from menagerie.rules.chance import Distribution
from menagerie.rules.rng import Rng
from menagerie.rules.text import seat_name
from menagerie.snitch.data import Colour, Dice, DicePool, Track
from menagerie.snitch.data.cards import (
    Accelerate,
    DiceToken,
    Dodge,
    Glimpse,
    GoldenSnitchCard,
    Impulse,
    Obstruct,
    RaceDiceToken,
    SlipstreamingCard,
    SnitchCard,
    SnitchDeck,
    SnitchDeckCard,
    Step,
    UpwindToken,
    load_snitch_deck,
)
from menagerie.snitch.engine.rolls import count_outcomes

Seat = int  # 0 or 1: the two Coaches
Level = Literal["rushed", "fast", "perfect"]
Option = Literal["rushed", "keep", "combine"]

ROW_SIZE = 3  # l.243 "Turn over the top 3 cards, placing them face-up in a line"
# l.654 Slipstreaming: "If your Seeker is Lagged, before resolving the effects of the Fast
# Impulse, perform Obstruct 1" (the data holds the card to exactly this).
SLIPSTREAM_OBSTRUCT = Obstruct(successes=1)


class RaceError(ValueError):
    """A race move the rules do not allow (the engine checks legality before applying)."""


class Token(msgspec.Struct, frozen=True):
    """A Snitch Race token on the track: an Upwind (a Coach's Flag) or an unowned Bonus/Penalty Dice token."""

    space: int
    kind: Literal["upwind", "bonus", "penalty"]
    owner: Seat | None = None  # the Coach whose Flag an Upwind is
    colour: Colour | None = None  # a Dice token's colour
    turn: int = 0  # the race turn it was placed in (not spent in that turn, l.594)


class HeldDice(msgspec.Struct, frozen=True, order=True):
    """A Dice token a Seeker picked up from the track, now on the Seeker's card (l.624, l.454–456)."""

    token: DiceToken
    colour: Colour


class Race(msgspec.Struct, frozen=True):
    """The Snitch Race: the pieces, the tokens, and the Snitch race deck (card ids; deck top first)."""

    seekers: tuple[int, int]
    snitch: int
    tokens: tuple[Token, ...] = ()
    held: tuple[tuple[HeldDice, ...], tuple[HeldDice, ...]] = ((), ())
    deck: tuple[int, ...] = ()
    row: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    in_play: tuple[int | None, int | None] = (None, None)
    turn: int = 0  # counts race turns: each Snitch card taken, each Golden Snitch card revealed


class SnitchChoice(msgspec.Struct, frozen=True):
    """A Coach's choice on taking a Snitch card: which card of the row, and option a, b or c (l.660–673)."""

    card: int
    option: Option


class Play(msgspec.Struct, frozen=True):
    """What taking a Snitch card does: the Impulse level (None when kept) and the steps to resolve, in order."""

    card: int
    option: Option
    level: Level | None
    steps: Impulse


class Refill(msgspec.Struct, frozen=True):
    """The race after drawing into the row; `golden` is a Golden Snitch card revealed (already discarded), if any."""

    race: Race
    golden: int | None = None


# --------------------------------------------------------------------------- setup


def rival(seat: Seat) -> Seat:
    """The other Coach."""
    return 1 - seat


def new_race(track: Track, rng: Rng, deck: SnitchDeck | None = None) -> Race:
    """The race at Setup: the Snitch in the last space, both Seekers in the first, the 16 cards shuffled, no row yet.

    The engine then calls `refill_row` until the row holds 3 cards, resolving any Golden
    Snitch card with the Attacking Team (l.243).
    """
    cards = [c.id for c in (deck or load_snitch_deck()).cards]
    rng.shuffle(cards)
    return Race(seekers=(track.seekers_start, track.seekers_start), snitch=track.snitch_start, deck=tuple(cards))


def card(card_id: int) -> SnitchDeckCard:
    """The Snitch race deck card with this id."""
    return load_snitch_deck().cards[card_id - 1]


def new_turn(race: Race) -> Race:
    """Start a new race turn: tokens placed before it may now be spent (e.g. after an Intrepid Move's Upwind)."""
    return msgspec.structs.replace(race, turn=race.turn + 1)


# ------------------------------------------------------------------ Ahead and Lagged


def distance(race: Race, seat: Seat) -> int:
    """How many spaces a Seeker is from the Golden Snitch."""
    return race.snitch - race.seekers[seat]


def ahead(race: Race) -> Seat | None:
    """The Seeker Ahead (l.604 "the least number of spaces away"), None when both share a space (l.608)."""
    a, b = distance(race, 0), distance(race, 1)
    return None if a == b else (0 if a < b else 1)


def lagged(race: Race) -> Seat | None:
    """The Lagged Seeker (l.606 "more spaces away ... and also behind the rival"), None when level."""
    leader = ahead(race)
    # On one line towards the Snitch, "more spaces away" is always "behind the rival".
    return None if leader is None else rival(leader)


def can_obstruct(race: Race, seat: Seat) -> bool:
    """Whether `seat`'s Seeker may Obstruct (l.600 "cannot be performed if the rival Seeker is Lagged")."""
    return lagged(race) != rival(seat)


def catcher(race: Race, attacking: Seat) -> Seat | None:
    """The Seeker who caught the Snitch, if any (l.685); both on its space → the Attacking Team's Seeker."""
    on = [seat for seat in (0, 1) if race.seekers[seat] == race.snitch]
    if not on:
        return None
    return attacking if len(on) == 2 else on[0]


# ------------------------------------------------------------------------ tokens


def token_at(race: Race, space: int) -> Token | None:
    """The token in a space (there is at most one, l.616)."""
    return next((t for t in race.tokens if t.space == space), None)


def token_spaces(race: Race, seat: Seat) -> tuple[int, ...]:
    """The free spaces where `seat`'s Coach may place a token (l.616); empty: the token is discarded.

    Between the Seeker Ahead (or both, when level) and the Golden Snitch, neither included;
    a Lagged Coach may also use the spaces between the two Seekers.
    """
    low, high = sorted(race.seekers)
    spaces = set(range(high + 1, race.snitch))
    if lagged(race) == seat:
        spaces |= set(range(low + 1, high))
    return tuple(sorted(s for s in spaces if token_at(race, s) is None))


def _with_token(race: Race, token: Token) -> Race:
    return msgspec.structs.replace(race, tokens=tuple(sorted((*race.tokens, token), key=lambda t: t.space)))


def place_token(race: Race, seat: Seat, step: UpwindToken | RaceDiceToken, space: int | None) -> Race:
    """Place an Impulse's Upwind (the Coach's Flag) or Dice token; `space` None only when no space is free (l.618)."""
    legal = token_spaces(race, seat)
    if space is None:
        if legal:
            raise RaceError(f"a token must be placed: free spaces {legal}")
        return race  # l.618 "they cannot be placed and will be discarded directly"
    if space not in legal:
        raise RaceError(f"space {space} is not free for a token of {seat_name(seat)}: {legal}")
    if isinstance(step, UpwindToken):
        return _with_token(race, Token(space=space, kind="upwind", owner=seat, turn=race.turn))
    return _with_token(race, Token(space=space, kind=step.token, colour=step.colour, turn=race.turn))


def _tidy(race: Race) -> Race:
    # l.618: tokens go once both Seekers have passed through them, and when in (or behind)
    # the Golden Snitch's space (l.598 "All tokens behind and in the same space as the
    # Golden Snitch are discarded").
    last = min(race.seekers)
    kept = tuple(t for t in race.tokens if last <= t.space < race.snitch)
    return race if kept == race.tokens else msgspec.structs.replace(race, tokens=kept)


def _move(race: Race, seat: Seat, space: int) -> Race:
    seekers = (space, race.seekers[1]) if seat == 0 else (race.seekers[0], space)
    return msgspec.structs.replace(race, seekers=seekers)


def _land(race: Race, seat: Seat, ignore: bool = False) -> Race:
    """Spend the token where `seat`'s Seeker ends (l.594, l.600), following Upwinds (l.622)."""
    used: set[Seat] = set()  # Flag colours already used in this advance (l.622 "once per Flag of each colour")
    first = True
    while True:
        space = race.seekers[seat]
        token = token_at(race, space)
        if token is None or token.turn == race.turn or (ignore and first):
            return race
        first = False
        if token.kind == "upwind":
            assert token.owner is not None
            if token.owner in used:
                return race  # a second Flag of a colour is not used: it stays
            used.add(token.owner)
            race = msgspec.structs.replace(race, tokens=tuple(t for t in race.tokens if t is not token))
            # Own colour: on to the next space; the rival's: back to the previous one.
            step = 1 if token.owner == seat else -1
            race = _move(race, seat, max(1, min(race.snitch, space + step)))
            continue
        assert token.colour is not None
        kind: DiceToken = "bonus" if token.kind == "bonus" else "penalty"
        held = tuple(sorted((*race.held[seat], HeldDice(kind, token.colour))))
        race = msgspec.structs.replace(
            race,
            tokens=tuple(t for t in race.tokens if t is not token),
            held=(held, race.held[1]) if seat == 0 else (race.held[0], held),
        )
        return race


# ------------------------------------------------------------------- race Actions


def landing(race: Race, seat: Seat, successes: int) -> int:
    """Where an advance of `successes` spaces ends: never past the Golden Snitch (reaching it catches it)."""
    return min(race.snitch, race.seekers[seat] + successes)


def may_ignore(race: Race, seat: Seat, successes: int) -> bool:
    """Whether a Dodge of `successes` ends on a token its Coach may choose to ignore (l.596)."""
    if successes <= 0:
        return False
    token = token_at(race, landing(race, seat, successes))
    return token is not None and token.turn != race.turn


def accelerate(race: Race, seat: Seat, successes: int) -> Race:
    """Accelerate (l.594): the Seeker advances one space per Success and spends the token where it ends."""
    return _advance(race, seat, successes, ignore=False)


def dodge(race: Race, seat: Seat, successes: int, ignore_token: bool) -> Race:
    """Dodge (l.596): an Accelerate whose Coach may ignore the token where the Seeker ends."""
    return _advance(race, seat, successes, ignore=ignore_token)


def _advance(race: Race, seat: Seat, successes: int, ignore: bool) -> Race:
    if successes <= 0:
        return race  # no Success: the Action fails (l.171), the Seeker stays put
    race = _move(race, seat, landing(race, seat, successes))
    if race.seekers[seat] == race.snitch:
        return race  # caught (l.685): the match ends at once
    return _tidy(_land(race, seat, ignore))


def glimpse(race: Race, successes: int) -> Race:
    """Glimpse (l.598): the Snitch comes one space per Success towards the Seekers, stopping on the first it reaches."""
    if successes <= 0:
        return race
    snitch = max(max(race.seekers), race.snitch - successes)
    return _tidy(msgspec.structs.replace(race, snitch=snitch))


def obstruct(race: Race, seat: Seat, successes: int) -> Race:
    """Obstruct (l.600): the rival Seeker goes back one space per Success (not past the first) and spends its token."""
    if not can_obstruct(race, seat):
        raise RaceError("the rival Seeker is Lagged: Obstruct cannot be performed")
    if successes <= 0:
        return race
    other = rival(seat)
    race = _move(race, other, max(1, race.seekers[other] - successes))
    return _tidy(_land(race, other))


def resolve_step(
    race: Race,
    seat: Seat,
    step: Step,
    successes: int = 0,
    *,
    ignore_token: bool = False,
    space: int | None = None,
) -> Race:
    """One step of an Impulse for `seat`: a race Action with its Successes, or a token placed in `space`."""
    match step:
        case Accelerate():
            return accelerate(race, seat, successes)
        case Dodge():
            return dodge(race, seat, successes, ignore_token)
        case Glimpse():
            return glimpse(race, successes)
        case Obstruct():
            # An Obstruct against a Lagged rival is not performed (l.600); the Impulse goes on.
            return obstruct(race, seat, successes) if can_obstruct(race, seat) else race
        case UpwindToken() | RaceDiceToken():
            return place_token(race, seat, step, space)
    raise AssertionError(step)  # pragma: no cover


# ------------------------------------------------------------------ the race roll


def spend_held(race: Race, seat: Seat, bonus: Sequence[Colour] = (), penalty: Sequence[Colour] = ()) -> Race:
    """The race once the dice tokens used on a roll are discarded from the Seeker's card."""
    left = Counter(race.held[seat])
    left.subtract([HeldDice("bonus", c) for c in bonus] + [HeldDice("penalty", c) for c in penalty])
    if any(n < 0 for n in left.values()):
        raise RaceError(f"{seat_name(seat)}'s Seeker does not hold those tokens")
    held = tuple(sorted(left.elements()))
    return msgspec.structs.replace(race, held=(held, race.held[1]) if seat == 0 else (race.held[0], held))


def race_roll_chances(dice: Dice, pool: DicePool, modifier: int = 0) -> Distribution[int]:
    """The exact chances of each number of Successes a race roll applies (with the modifier, never below 0)."""
    totals: dict[int, Fraction] = {}
    for successes, chance in count_outcomes(dice, pool, "action"):
        applied = max(0, successes + modifier)
        totals[applied] = totals.get(applied, Fraction(0)) + chance
    return sorted(totals.items())


# -------------------------------------------------------------- Snitch cards


def combined_level(in_play: SnitchDeckCard, drawn: SnitchCard) -> Level:
    """The Impulse of the card in play a drawn card's Type gives (l.668–671; Fast Types as RULES.md reads them)."""
    if isinstance(in_play, SlipstreamingCard):
        return "fast"  # l.671: the drawn card's Fast Impulse, regardless of its Type
    if not isinstance(in_play, SnitchCard):
        raise RaceError("a Golden Snitch card is never in play")
    if drawn.type == in_play.type:
        return "perfect"
    if drawn.type in in_play.fast_types:
        return "fast"
    return "rushed"


def _impulse(snitch: SnitchCard, level: Level) -> Impulse:
    return {"rushed": snitch.rushed, "fast": snitch.fast, "perfect": snitch.perfect}[level]


def snitch_choices(race: Race, seat: Seat) -> list[SnitchChoice]:
    """Every legal way for `seat`'s Coach to take a Snitch card from the row (l.660–673, l.652)."""
    held = race.in_play[seat]
    choices = []
    for card_id in race.row:
        taken = card(card_id)
        if isinstance(taken, SlipstreamingCard):
            # l.652: not if another card is in play; l.662: never for its (absent) Rushed Impulse.
            if held is None:
                choices.append(SnitchChoice(card_id, "keep"))
        elif isinstance(taken, SnitchCard):
            choices.append(SnitchChoice(card_id, "rushed"))
            choices.append(SnitchChoice(card_id, "keep" if held is None else "combine"))
    return choices


def take_snitch_card(race: Race, seat: Seat, choice: SnitchChoice) -> tuple[Race, Play]:
    """Take a card from the row as chosen: the race (card out of the row, new turn) and the Impulse to resolve.

    The engine resolves `Play.steps` in order with `resolve_step` (rolling where a step
    rolls), stops at once if `catcher` finds a catch, then calls `refill_row`.
    """
    if choice not in snitch_choices(race, seat):
        raise RaceError(f"{seat_name(seat)} cannot take {choice}")
    row = tuple(c for c in race.row if c != choice.card)
    race = msgspec.structs.replace(race, row=row, turn=race.turn + 1)
    taken = card(choice.card)
    if choice.option == "keep":
        kept: tuple[int | None, int | None] = (
            (choice.card, race.in_play[1]) if seat == 0 else (race.in_play[0], choice.card)
        )
        return msgspec.structs.replace(race, in_play=kept), Play(choice.card, "keep", None, ())
    assert isinstance(taken, SnitchCard)
    if choice.option == "rushed":
        # l.662: resolve the Rushed Impulse, then discard (nothing is drawn in between).
        race = msgspec.structs.replace(race, discard=(*race.discard, choice.card))
        return race, Play(choice.card, "rushed", "rushed", taken.rushed)
    held_id = race.in_play[seat]
    assert held_id is not None
    held = card(held_id)
    level = combined_level(held, taken)
    if isinstance(held, SlipstreamingCard):
        steps = taken.fast
        if lagged(race) == seat:
            steps = (SLIPSTREAM_OBSTRUCT, *steps)  # l.654: before the Fast Impulse, if Lagged now
    else:
        assert isinstance(held, SnitchCard)
        steps = _impulse(held, level)
    in_play: tuple[int | None, int | None] = (None, race.in_play[1]) if seat == 0 else (race.in_play[0], None)
    # l.673 "Then discard both Snitch card in play and the drawn one."
    race = msgspec.structs.replace(race, in_play=in_play, discard=(*race.discard, held_id, choice.card))
    return race, Play(choice.card, "combine", level, steps)


def _draw(race: Race, rng: Rng) -> tuple[Race, int | None]:
    deck, discard = race.deck, race.discard
    if not deck:
        # l.681: "take all the Snitch cards of the discard pile and shuffle them to create a new deck"
        shuffled = list(discard)
        rng.shuffle(shuffled)
        deck, discard = tuple(shuffled), ()
    if not deck:
        return race, None
    return msgspec.structs.replace(race, deck=deck[1:], discard=discard), deck[0]


def refill_row(race: Race, rng: Rng) -> Refill:
    """Draw into the face-up row until it holds 3 cards, stopping at a Golden Snitch card (l.243, l.677–681).

    A Golden Snitch card is discarded at once and returned: the engine resolves its
    Glimpse (a roll of the revealing Coach's Seeker; at Setup, the Attacking Team's),
    then calls `refill_row` again to replace it.
    """
    while len(race.row) < ROW_SIZE:
        race, drawn = _draw(race, rng)
        if drawn is None:
            break  # every card is in the row or in play: the row stays short
        if isinstance(card(drawn), GoldenSnitchCard):
            race = msgspec.structs.replace(race, discard=(*race.discard, drawn), turn=race.turn + 1)
            return Refill(race, drawn)
        race = msgspec.structs.replace(race, row=(*race.row, drawn))
    return Refill(race)


def golden_glimpse(card_id: int) -> Glimpse:
    """The Glimpse a Golden Snitch card makes the revealing Coach's Seeker perform (l.648: a roll, no modifier)."""
    revealed = card(card_id)
    if not isinstance(revealed, GoldenSnitchCard):
        raise RaceError(f"card {card_id} is not a Golden Snitch card")
    step = revealed.on_reveal[0]
    assert isinstance(step, Glimpse)
    return step
