"""What a seat sees: the one function that builds a Snitch view from the state.

Every outbound path (replies, Watch, replays, spectators, bots) gets its view from
`SnitchEngine.view`, which is this. Hidden: the rival's hand, deck order, Pitch Actions
card before the reveal, Goal Hoop card before the reveal, and Snitch card in play; the
Snitch deck's order. What the view shows of a Coach is what the table shows. Its
`procedure` is the public rest of the state (pending decisions and steps, the roll under
way, typed like the rest), so that a search can rebuild a state from a view (determinize.py).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import msgspec

from menagerie.rules.contract import Prompt
from menagerie.snitch.data import DicePool, House, describe_trait
from menagerie.snitch.data.cards import (
    GoldenSnitchCard,
    SlipstreamingCard,
    SnitchCard,
    describe_blocks,
    describe_effect,
    describe_impulse,
    describe_intrepid,
)
from menagerie.snitch.engine import pitch, race, roster, traits
from menagerie.snitch.engine.model import (
    BeatenBludger,
    BludgerMove,
    BludgerTarget,
    CoachEffects,
    CoachView,
    DecisionView,
    Deployment,
    DicePoolView,
    DiceTokenPlacement,
    DodgeChoice,
    DraftView,
    ExchangeView,
    FreeAction,
    IntrepidPlay,
    LooseQuaffle,
    PlayerCardView,
    PlayerView,
    Procedure,
    RaceTokenPlacement,
    RaceTokenView,
    RaceView,
    RequirementView,
    RollWindow,
    ShiftPlayers,
    SnitchCardView,
    SnitchState,
    SnitchView,
    SpectatorCardView,
    SpectatorWindow,
    StandSpotView,
    TacticalCardView,
    TeamOfferView,
    TeamPlayer,
    TempoChoice,
    ZoneView,
)
from menagerie.snitch.engine.tactics import BlockTurn
from menagerie.snitch.engine.wording import bludger_name, player_code, player_name

if TYPE_CHECKING:
    from menagerie.snitch.engine.parts import EngineParts as SnitchEngine


def pool_view(name: str, pool: DicePool) -> DicePoolView:
    """A dice pool with its name."""
    return DicePoolView(name=name, orange=pool.orange, purple=pool.purple, black=pool.black)


def tactical_card_view(engine: SnitchEngine, state: SnitchState, seat: int, card_id: int) -> TacticalCardView:
    """A Tactical card of `seat`'s deck in the engine's words (the same for every view: built once)."""
    return library_card_view(engine, state.players[seat].house, seat, card_id)


def library_card_view(engine: SnitchEngine, house: House, seat: int, card_id: int) -> TacticalCardView:
    """A card of a House's Tactical library, held by `seat` (built once)."""
    key = (house, seat, card_id)
    cached = _CARD_VIEWS.get(key)
    if cached is None or cached[0] is not engine:
        cached = _CARD_VIEWS[key] = (engine, _tactical_card_view(engine, house, seat, card_id))
    return cached[1]


def player_card_view(engine: SnitchEngine, card_id: str) -> PlayerCardView:
    """A Player card in the engine's words (built once per card)."""
    cached = _PLAYER_VIEWS.get(card_id)
    if cached is None or cached[0] is not engine:
        card = engine.players_by_id[card_id]
        view = PlayerCardView(
            position=card.position,
            name=card.name,
            actions=[pool_view(n, p) for n, p in card.actions.items()],
            reactions=[pool_view(n, p) for n, p in card.reactions.items()],
            id=card.id,
            cost=card.cost,
            trait=describe_trait(card.trait) if card.trait is not None else "",
            locked_trait=card.trait is not None and traits.is_locked(card.trait),
        )
        cached = _PLAYER_VIEWS[card_id] = (engine, view)
    return cached[1]


def spectator_card_view(engine: SnitchEngine, card_id: str) -> SpectatorCardView:
    """A Spectator card in the engine's words."""
    card = engine.spectator_cards[card_id]
    return SpectatorCardView(
        id=card.id,
        name=card.name,
        cost=card.cost,
        zones=list(card.zones),
        first=describe_effect(card.first),
        second=describe_effect(card.second),
    )


def draft_view(engine: SnitchEngine, state: SnitchState, seat: int) -> DraftView | None:
    """The viewer's own Team under construction (None once the Teams are formed)."""
    draft = state.players[seat].draft
    if draft is None:
        return None
    limits = roster.Limits(funding=state.funding, spectators=state.spectators_on)
    return DraftView(
        house=draft.house,
        players=[player_card_view(engine, p) for p in draft.players],
        tactics=[library_card_view(engine, draft.house, seat, t) for t in draft.tactics] if draft.house else [],
        spectators=[spectator_card_view(engine, c) for c in draft.spectators],
        cost=roster.cost(engine.catalogue, draft),
        funding=state.funding,
        ready=draft.ready,
        missing=roster.complete_problem(engine.catalogue, draft, limits) or "",
        picks=list(draft.picks),
        galleons_left=max(0, state.funding - roster.cost(engine.catalogue, draft)),
        requirements=[
            RequirementView(text=r.text, have=r.have, need=r.need, met=r.met)
            for r in roster.requirements(engine.catalogue, draft, limits)
        ],
        offers=[
            offer_view(engine, draft.house, seat, part, card)
            for part, card in roster.options(engine.catalogue, draft, limits)
        ],
    )


HOUSE_OFFER = "Its Tactical library, and the Players and Spectators who may join, depend on it (l.701)"


def offer_view(engine: SnitchEngine, house: House | None, seat: int, part: roster.Part, card: str) -> TeamOfferView:
    """A card `seat` may add to their Team, in the engine's words: its name, cost, what it is and does."""
    if part == "player":
        player = player_card_view(engine, card)
        return TeamOfferView(
            part, card, player.name, player.cost, player.position.capitalize(), _player_details(player)
        )
    if part == "spectator":
        spectator = spectator_card_view(engine, card)
        zones = f"Goes in the {' or the '.join(f'{z.title()} Zone' for z in spectator.zones)} (l.715)"
        details = [zones, f"Empty Zone: {spectator.first}", f"On a rival's: {spectator.second}"]
        return TeamOfferView(part, card, spectator.name, spectator.cost, "Spectator", details)
    if part == "tactic" and house is not None:
        tactic = library_card_view(engine, house, seat, int(card))
        details = [*tactic.blocks, *([f"Intrepid: {tactic.intrepid}"] if tactic.intrepid else [])]
        return TeamOfferView(part, card, tactic.name, tactic.cost, f"Tactical card {card}", details)
    return TeamOfferView(part, card, card.title(), 0, "House", [HOUSE_OFFER])


def _dice_words(pool: DicePoolView) -> str:
    """A dice pool by colour: "2 orange, 1 black"."""
    counts = {"orange": pool.orange, "purple": pool.purple, "black": pool.black}
    return ", ".join(f"{n} {colour}" for colour, n in counts.items() if n) or "no dice"


def _player_details(player: PlayerCardView) -> list[str]:
    """A Player card's dice by Action and Reaction, then its Trait."""
    pools = [f"{p.name}: {_dice_words(p)}" for p in player.actions]
    pools += [f"{p.name} (Reaction): {_dice_words(p)}" for p in player.reactions]
    return [*pools, *([f"Trait: {player.trait}"] if player.trait else [])]


# A view's procedure is a copy: the state's decisions and steps change in place as play goes on.
_ENCODER = msgspec.msgpack.Encoder()
_PROCEDURE = msgspec.msgpack.Decoder(Procedure)


def procedure(engine: SnitchEngine, state: SnitchState) -> Procedure:
    """The public rest of the state (a copy): what `SnitchEngine.state_from_view` rebuilds from."""
    decisions, flow = engine.pending(state)
    return _PROCEDURE.decode(
        _ENCODER.encode(
            Procedure(
                decisions=decisions,  # type: ignore[arg-type]
                flow=flow,  # type: ignore[arg-type]
                exchange=state.exchange,
                block_performed=state.block_performed,
                block_optional=state.block_optional,
                block_turns=[BlockTurn(seat=s, index=i, optional=bool(o)) for s, i, o in state.block_turns],
                last_block_seat=state.last_block_seat,
                intrepid_plays=[IntrepidPlay(seat=s, card=c) for s, c in state.intrepid_plays],
                deployed=[TeamPlayer(team=t, index=i) for t, i in state.deployed],
                last_actor=state.last_actor,
                offer_last=state.offer_last,
                moved_bludger=state.moved_bludger,
                race_turn=state.race_turn,
                token_turns=[t.turn for t in state.race_tokens],
                effects=[CoachEffects(effects=coach.effects) for coach in state.players],
            )
        )
    )


# Views of fixed things, kept per engine (an engine may be built on other data in tests).
_CARD_VIEWS: dict[tuple[str, int, int], tuple[SnitchEngine, TacticalCardView]] = {}
_PLAYER_VIEWS: dict[str, tuple[SnitchEngine, PlayerCardView]] = {}


def _tactical_card_view(engine: SnitchEngine, house: House, seat: int, card_id: int) -> TacticalCardView:
    card = engine.decks.card(house, card_id)
    blocks = describe_blocks(card)
    move = card.intrepid
    return TacticalCardView(
        seat=seat,
        id=card.id,
        name=card.name,
        blocks=blocks,
        intrepid=describe_intrepid(move) if move else "",
        swift=bool(move and move.swift),
        cost=card.cost,
    )


@cache
def snitch_card_view(card_id: int) -> SnitchCardView:
    """A Snitch race deck card in the engine's words."""
    card = race.card(card_id)
    if isinstance(card, SnitchCard):
        return SnitchCardView(
            id=card.id,
            kind="snitch",
            name=card.name,
            type=card.type,
            fast_types=list(card.fast_types),
            rushed=describe_impulse(card.rushed),
            fast=describe_impulse(card.fast),
            perfect=describe_impulse(card.perfect),
        )
    if isinstance(card, SlipstreamingCard):
        return SnitchCardView(
            id=card.id,
            kind="slipstreaming",
            name="Slipstreaming",
            text="From the next card you choose you apply the Fast Impulse, regardless of the Type. "
            "If your Seeker is Lagged, before resolving the effects of the Fast Impulse, perform Obstruct 1.",
        )
    assert isinstance(card, GoldenSnitchCard)
    return SnitchCardView(
        id=card.id,
        kind="golden_snitch",
        name="Golden Snitch",
        text="Perform a Glimpse Action with the Seeker of the Coach who revealed this card.",
    )


def decision_view(engine: SnitchEngine, state: SnitchState) -> DecisionView | None:
    """The pending decision's public particulars."""
    top = engine.top(state)
    if top is None:
        return None
    match top:
        case Deployment(left=left):
            return DecisionView(left=left)
        case ShiftPlayers(left=left, reason=reason, team=team):
            return DecisionView(left=left, reason=reason, team=team)
        case FreeAction(action=action, reason=reason):
            return DecisionView(reason=reason, action=action or "")
        case TempoChoice(action=action):
            return DecisionView(action=action)
        case LooseQuaffle(zones=zones) | BeatenBludger(zones=zones):
            return DecisionView(zones=list(zones))
        case DiceTokenPlacement(token=token, colour=colour, left=left):
            return DecisionView(token=token, colour=colour, left=left, team=None)
        case RaceTokenPlacement(token=token, colour=colour, left=left):
            return DecisionView(token=token, colour=colour, left=left)
        case DodgeChoice(successes=successes):
            seat = top.must[0] if top.must else 0
            landing = race.landing(engine.race_of(state), seat, successes)
            return DecisionView(successes=successes, landing=landing)
        case BludgerMove(bludgers=bludgers):
            return DecisionView(bludgers=list(bludgers))
        case BludgerTarget(bludger=bludger):
            return DecisionView(bludgers=[bludger])
        case SpectatorWindow(moment=moment):
            return DecisionView(reason=moment)
        case RollWindow(must=must, may=may) if state.exchange is not None and [*must, *may]:
            return DecisionView(roll_side=engine.own_side(state.exchange, [*must, *may][0]))
    return DecisionView()


def player_views(engine: SnitchEngine, state: SnitchState) -> list[PlayerView]:
    """Every Pitch Player where it is, with its tokens (none until both Teams are formed)."""
    layout = state.layout
    disadvantages = {z.id: pitch.zone_disadvantage(layout, z.id) for z in engine.pitch.zones}
    players = []
    for team in (0, 1) if state.players[0].lineup else ():
        lineup = engine.lineup(state, team)
        for ref in layout.team_players(team):
            tokens = state.players[team].team[ref.index]
            players.append(
                PlayerView(
                    team=team,
                    index=ref.index,
                    position=ref.position,
                    name=lineup[ref.index].name,
                    zone=layout.zone_of(ref),
                    stunned=tokens.stunned,
                    bonus=list(tokens.bonus),
                    penalty=list(tokens.penalty),
                    has_quaffle=layout.holder == ref,
                    disadvantage=disadvantages[layout.zone_of(ref)][team],
                    label=player_name(ref.index),
                    code=player_code(ref.index),
                )
            )
    return players


def zone_views(engine: SnitchEngine, state: SnitchState) -> list[ZoneView]:
    """Every Zone of the Pitch, with the balls in it and whose area it is."""
    layout, the_pitch = state.layout, engine.pitch
    halves = [pitch.own_half(the_pitch, layout, t) for t in (0, 1)]
    return [
        ZoneView(
            id=z.id,
            name=z.name,
            row=z.row,
            column=z.column,
            adjacent=list(z.adjacent),
            bludgers=list(pitch.bludgers_in(layout, z.id)),
            quaffle=layout.quaffle_zone == z.id,
            scoring_area_of=next((t for t in (0, 1) if halves[t].scoring_area == z.id), None),
            deployment_zone_of=next((t for t in (0, 1) if halves[t].deployment_zone == z.id), None),
            orange=z.id in the_pitch.orange_zones,
            bludger_names=[bludger_name(b) for b in pitch.bludgers_in(layout, z.id)],
        )
        for z in the_pitch.zones
    ]


def coach_view(engine: SnitchEngine, state: SnitchState, team: int) -> CoachView:
    """One Coach's public side: Team cards, card counts, played cards, tokens and Spectators."""
    coach = state.players[team]
    started = bool(state.players[0].lineup)
    return CoachView(
        seat=team,
        house=coach.house if started else "",
        cards=[player_card_view(engine, p) for p in coach.lineup],
        hand_size=len(coach.hand),
        deck_size=len(coach.deck),
        discard=list(coach.discard),
        pitch_card=coach.pitch_card if coach.pitch_revealed else None,
        pitch_card_chosen=coach.pitch_card is not None,
        intrepids=list(coach.intrepids),
        declined_intrepid=coach.declined_intrepid,
        tempo=coach.tempo,
        goals=coach.goals,
        celebrated=coach.celebrated,
        has_snitch_card=coach.snitch_in_play is not None,
        aim_chosen=coach.aim is not None,
        next_block=coach.next_block,
        team_confirmed=started or (coach.draft is not None and coach.draft.ready),
        locked=sorted(coach.locked),
        flag=coach.flag,
        spectators=[spectator_card_view(engine, c) for c in coach.spectators],
        spectators_played=list(coach.spectators_played),
    )


def shown_cards(engine: SnitchEngine, state: SnitchState, seat: int | None) -> list[TacticalCardView]:
    """The Tactical cards `seat` may see: Pitch Actions cards revealed (or its own), Intrepid Moves, discards."""
    shown: list[TacticalCardView] = []
    for team, coach in enumerate(state.players):
        seen_card = coach.pitch_card if (coach.pitch_revealed or team == seat) else None
        visible = ([seen_card] if seen_card is not None else []) + list(coach.intrepids) + list(coach.discard)
        shown.extend(tactical_card_view(engine, state, team, c) for c in dict.fromkeys(visible))
    return shown


def race_view(engine: SnitchEngine, state: SnitchState) -> RaceView:
    """The Snitch race as everyone sees it: the pieces, the tokens, the face-up row."""
    current = engine.race_of(state)
    return RaceView(
        spaces=engine.data.track.spaces,
        seekers=list(state.seekers),
        snitch=state.snitch,
        tokens=[RaceTokenView(space=t.space, kind=t.kind, owner=t.owner, colour=t.colour) for t in state.race_tokens],
        held_bonus=[f"{s}:{h.colour}" for s in (0, 1) for h in state.held[s] if h.token == "bonus"],
        held_penalty=[f"{s}:{h.colour}" for s in (0, 1) for h in state.held[s] if h.token == "penalty"],
        row=[snitch_card_view(c) for c in state.snitch_row],
        deck_size=len(state.snitch_deck),
        discard=list(state.snitch_discard),
        ahead=race.ahead(current),
        lagged=race.lagged(current),
    )


def exchange_view(engine: SnitchEngine, state: SnitchState) -> ExchangeView | None:
    """The roll under way, with its modifiers as they stand."""
    ex = state.exchange
    if ex is None:
        return None
    action_mod, reaction_mod = engine.modifiers(state, ex)
    return ExchangeView(
        kind=engine.roll_name(ex),
        seat=ex.seat,
        stage=ex.stage,
        actor=ex.actor,
        target_team=ex.target_team,
        target=ex.target,
        reactor=ex.reactor,
        reaction=ex.reaction,
        action_roll=ex.action_roll,
        reaction_roll=ex.reaction_roll,
        fixed=ex.fixed,
        aim_bonus=ex.aim_bonus,
        action_modifier=action_mod,
        reaction_modifier=reaction_mod,
    )


def build_view(engine: SnitchEngine, state: SnitchState, seat: int | None) -> SnitchView:
    """Exactly what `seat` (None: a spectator) may know."""
    layout = state.layout
    mine = state.players[seat] if seat is not None else None
    view = SnitchView(
        mode=state.mode,
        viewer=seat,
        sequence=state.sequence,
        attacking=state.attacking,
        coaches=[coach_view(engine, state, team) for team in (0, 1)],
        players=player_views(engine, state),
        zones=zone_views(engine, state),
        quaffle_zone=layout.quaffle_zone,
        quaffle_loose=layout.holder is None,
        race=race_view(engine, state),
        hand=[tactical_card_view(engine, state, seat, c) for c in mine.hand] if mine and seat is not None else [],
        my_pitch_card=mine.pitch_card if mine else None,
        my_aim=mine.aim if mine else None,
        my_snitch_card=snitch_card_view(mine.snitch_in_play) if mine and mine.snitch_in_play is not None else None,
        cards=shown_cards(engine, state, seat),
        exchange=exchange_view(engine, state),
        block_seat=state.block_seat,
        block_index=state.block_index,
        block_remaining=list(state.block_remaining),
        prompt=engine.prompt(state),
        decision_detail=engine.text.detail(state, seat),
        decision=decision_view(engine, state),
        outcome=state.outcome,
        funding=state.funding,
        spectators_on=state.spectators_on,
        stand=[StandSpotView(zone=s.zone, seat=s.seat, card=s.card) for s in state.stand],
        draft=draft_view(engine, state, seat) if seat is not None else None,
        my_deck=sorted(mine.deck) if mine else [],
        procedure=procedure(engine, state),
    )
    return view


def evaluation_view(engine: SnitchEngine, state: SnitchState, seat: int) -> SnitchView:
    """The parts of `seat`'s view a position's evaluation reads: the Coaches' cards and tokens, its own cards.

    A search judges thousands of sampled states a second; it reads where the Players are
    from the sampled state itself, so the Pitch's Players and Zones, the cards on show, the
    Coaches' piles and Spectators, the words and the procedure are left out (empty, None), and
    so is the race, which it reads from the state too. Never sent to anyone: `build_view` is the view.
    """
    mine = state.players[seat]
    return SnitchView(
        mode=state.mode,
        viewer=seat,
        sequence=state.sequence,
        attacking=state.attacking,
        coaches=[_evaluation_coach(engine, state, team) for team in (0, 1)],
        players=[],
        zones=[],
        quaffle_zone=state.layout.quaffle_zone,
        quaffle_loose=state.layout.holder is None,
        race=_NO_RACE,
        hand=[],
        my_pitch_card=mine.pitch_card,
        my_aim=mine.aim,
        my_snitch_card=snitch_card_view(mine.snitch_in_play) if mine.snitch_in_play is not None else None,
        cards=[],
        exchange=None,
        block_seat=state.block_seat,
        block_index=state.block_index,
        block_remaining=list(state.block_remaining),
        prompt=_NO_PROMPT,
    )


_NO_PROMPT = Prompt()
_NO_RACE = RaceView(
    spaces=0,
    seekers=[],
    snitch=0,
    tokens=[],
    held_bonus=[],
    held_penalty=[],
    row=[],
    deck_size=0,
    discard=[],
    ahead=None,
    lagged=None,
)
# A lineup's Player card views, built once per lineup (an evaluation reads them twice per sampled state);
# emptied when it holds _LINEUPS_KEPT, as a long-lived bot worker meets many built Teams.
_LINEUPS_KEPT = 256
_LINEUPS: dict[tuple[str, ...], tuple[SnitchEngine, list[PlayerCardView]]] = {}


def _lineup_cards(engine: SnitchEngine, lineup: list[str]) -> list[PlayerCardView]:
    key = tuple(lineup)
    cached = _LINEUPS.get(key)
    if cached is None or cached[0] is not engine:
        if len(_LINEUPS) >= _LINEUPS_KEPT:
            _LINEUPS.clear()
        cached = _LINEUPS[key] = (engine, [player_card_view(engine, p) for p in lineup])
    return cached[1]


def _evaluation_coach(engine: SnitchEngine, state: SnitchState, team: int) -> CoachView:
    """`coach_view` without the piles and Spectators (an evaluation reads the cards, Tempo, Goals and tokens)."""
    coach = state.players[team]
    return CoachView(
        seat=team,
        house=coach.house,
        cards=_lineup_cards(engine, coach.lineup),
        hand_size=len(coach.hand),
        deck_size=len(coach.deck),
        discard=[],
        pitch_card=coach.pitch_card if coach.pitch_revealed else None,
        pitch_card_chosen=coach.pitch_card is not None,
        intrepids=[],
        declined_intrepid=coach.declined_intrepid,
        tempo=coach.tempo,
        goals=coach.goals,
        celebrated=coach.celebrated,
        has_snitch_card=coach.snitch_in_play is not None,
        aim_chosen=coach.aim is not None,
        next_block=coach.next_block,
        team_confirmed=True,
        flag=coach.flag,
    )
