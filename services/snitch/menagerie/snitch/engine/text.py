"""Catch the Golden Snitch in words: action labels, event text, prompts and refusals.

The one home of the game's words: clients and bots print these, never their own. A
Player is named by Position and number within its Team ("Chaser 2"), with its Coach
("your Chaser 2", "Ann's Keeper"); Zones by the pitch data's names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from menagerie.rules.contract import Label
from menagerie.rules.decisions import Decision
from menagerie.rules.text import Narrator, listing, plural
from menagerie.snitch.data import STAND_ZONES
from menagerie.snitch.data.cards import describe_blocks, describe_effect
from menagerie.snitch.engine import pitch, race
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    ActionDeclared,
    AdvantageRolled,
    Aim,
    AimChosen,
    AttackChanged,
    Beat,
    BlockAction,
    BlockEnded,
    BlockStarted,
    BludgerAimed,
    BludgerMoved,
    BludgerPlaced,
    BreakTempo,
    CardsDrawn,
    ChooseFlag,
    ChoosePitchCard,
    ConfirmTeam,
    DeclineBlock,
    DeclineIntrepid,
    Deployment,
    DeployPlayer,
    DiceRerolled,
    DiceRolled,
    DiceTokenPlaced,
    DiceTokenPlacement,
    DodgeChoice,
    DodgeToken,
    DropFromTeam,
    ExchangeResolved,
    FlagChosen,
    FreeAction,
    GoalReroll,
    GoalScored,
    GoalTokenFlipped,
    GoldenSnitchRevealed,
    HandSwapped,
    HoopsAimed,
    IntrepidDeclined,
    IntrepidPlayed,
    IntrepidResolved,
    KeepRoll,
    KickOffStarted,
    LockedRemoved,
    MatchFinished,
    Move,
    MoveBludger,
    NoReaction,
    NoSpectator,
    NoSwift,
    PassQuaffle,
    PickForTeam,
    PitchCardChosen,
    PitchCardsRevealed,
    PlaceBludger,
    PlaceDiceToken,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayerMoved,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    QuaffleCaught,
    QuaffleLoose,
    RaceMoved,
    RaceTokenPlaced,
    RaceTokenPlacement,
    React,
    ReactionDeclared,
    Recover,
    RemoveStunned,
    Reroll,
    SequenceEnded,
    SequenceStarted,
    ShiftPlayer,
    ShiftPlayers,
    Shoot,
    SkipPass,
    SkipRemove,
    SkipShift,
    SnitchCardDrawn,
    SnitchCardKept,
    SnitchCardTaken,
    SnitchCaught,
    SnitchRowRefilled,
    SnitchState,
    SnitchView,
    SpectatorPlayed,
    SpectatorWindow,
    SpendTokens,
    StandCleared,
    Steal,
    Stunned,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
    TeamChanged,
    TeamConfirmed,
    TeamRevealed,
    TempoBroken,
    TempoChoice,
    TempoGained,
    TokensSpent,
    TraitUsed,
    UseTrait,
)

if TYPE_CHECKING:
    from menagerie.snitch.engine.rules import SnitchEngine

REACTION_WORDS = {"steal_reaction": "Steal Reaction", "manoeuvre": "Manoeuvre", "defense": "Defense", "catch": "Catch"}
ROLL_WORDS = {
    "pass": "Pass",
    "shoot": "Shoot",
    "steal": "Steal",
    "beat": "Beat",
    "bludger": "Bludger's hit",
    "accelerate": "Accelerate",
    "dodge": "Dodge",
    "glimpse": "Glimpse",
    "obstruct": "Obstruct",
}
OPTION_WORDS = {
    "rushed": "resolve its Rushed Impulse",
    "keep": "keep it in play (secret)",
    "combine": "combine it with your card in play",
}


def player_name(index: int) -> str:
    """A Pitch Player by Position and number in its Team: "Keeper", "Beater 2", "Chaser 1"."""
    position = pitch.PITCH_LINEUP[index]
    same = [i for i, p in enumerate(pitch.PITCH_LINEUP) if p == position]
    word = position.capitalize()
    return word if len(same) == 1 else f"{word} {same.index(index) + 1}"


def player_code(index: int) -> str:
    """A short code for a Pitch Player: K, B1, B2, C1, C2, C3."""
    name = player_name(index)
    return name[0] + name.split(" ")[1] if " " in name else name[0]


class SnitchText:
    """The game's words, for one engine (it knows the pitch's Zone names and the Houses' cards)."""

    def __init__(self, engine: SnitchEngine) -> None:
        self.engine = engine
        self.zone_names = {z.id: z.name for z in engine.pitch.zones}

    # ------------------------------------------------------------------ pieces

    def zone(self, zone: str) -> str:
        """A Zone's name."""
        return self.zone_names.get(zone, zone)

    def who(self, team: int, index: int, n: Narrator) -> str:
        """ "your Chaser 2" / "Ann's Keeper"."""
        return f"{n.whose(team)} {player_name(index)}"

    def _card_name(self, view: SnitchView, seat: int, card: int) -> str:
        for shown in (*view.hand, *view.cards):
            if shown.seat == seat and shown.id == card:
                return f"{shown.name} ({' · '.join(shown.blocks)})"
        return f"card {card}"

    # ------------------------------------------------------------------ labels

    def action(self, view: SnitchView, action: Any, n: Narrator) -> Label:
        """How one of the reader's legal actions reads, and a short code to type."""
        me = view.viewer if view.viewer is not None else 0
        text, code = self._label(view, me, action, n)
        return Label(text=text, code=code)

    def _label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str]:
        match a:
            case PlaceBludger(zone=zone):
                return f"Put the Bludger in {self.zone(zone)}", f"bludger {zone}"
            case DeployPlayer(player=p, zone=zone):
                return f"Deploy {player_name(p)} to {self.zone(zone)}", f"deploy {player_code(p)} {zone}"
            case ChoosePitchCard(card=card):
                return f"Play {self._card_name(view, me, card)} as your Pitch Actions card", f"card {card}"
            case PlayIntrepid(card=card):
                text = next((c.intrepid for c in view.hand if c.id == card), "")
                return f"Play {self._card_name(view, me, card)} for its Intrepid Move: {text}", f"intrepid {card}"
            case DeclineIntrepid():
                return "Play no more Intrepid Moves this Game Sequence", "no-intrepid"
            case Move(player=p, zone=zone):
                return f"Move {player_name(p)} to {self.zone(zone)}", f"move {player_code(p)} {zone}"
            case PassQuaffle(player=p, target=t):
                return (
                    f"{player_name(p)} passes the Quaffle to {player_name(t)}",
                    f"pass {player_code(p)} {player_code(t)}",
                )
            case Shoot(player=p):
                return f"{player_name(p)} shoots at the Hoops", f"shoot {player_code(p)}"
            case Steal(player=p):
                return f"{player_name(p)} tries to steal the Quaffle", f"steal {player_code(p)}"
            case Beat(player=p, bludger=b, target=t):
                return (
                    f"{player_name(p)} beats Bludger {b + 1} at {n.whose(1 - me)} {player_name(t)}",
                    f"beat {player_code(p)} {b + 1} {player_code(t)}",
                )
            case Recover(player=p):
                return f"{player_name(p)} recovers (removes a Stunned token)", f"recover {player_code(p)}"
            case DeclineBlock():
                return "Do not play this Action Block", "decline"
            case React(player=p, reaction=r):
                return f"{player_name(p)} reacts: {REACTION_WORDS[r]}", f"react {player_code(p)} {r}"
            case NoReaction():
                return "No Reaction", "no-reaction"
            case Aim(number=number):
                return f"Goal Hoop card {number}", f"hoop {number}"
            case SpendTokens(bonus=bonus, penalty=penalty):
                if not bonus and not penalty:
                    return "Spend no Dice tokens", "tokens none"
                parts = [f"{c} Bonus" for c in bonus] + [f"{c} Penalty" for c in penalty]
                return f"Spend Dice tokens: {listing(parts)}", "tokens " + ",".join(
                    [*bonus, *(f"-{c}" for c in penalty)]
                )
            case Reroll(side=side, dice=dice):
                return (
                    f"Re-roll {side} dice {', '.join(str(d + 1) for d in dice)}",
                    f"reroll {side} {','.join(str(d + 1) for d in dice)}",
                )
            case GoalReroll(die=die):
                return f"Flip a Goal token to re-roll die {die + 1}", f"goal {die + 1}"
            case PlaySwift(card=card):
                text = next((c.intrepid for c in view.hand if c.id == card), "")
                return f"Play the Swift Intrepid Move of {self._card_name(view, me, card)}: {text}", f"swift {card}"
            case KeepRoll():
                return "Let the dice stand", "keep"
            case PlaceQuaffle(zone=zone):
                return f"Put the Loose Quaffle in {self.zone(zone)}", f"quaffle {zone}"
            case ShiftPlayer(team=team, player=p, zone=zone):
                return (
                    f"Shift {self.who(team, p, n)} to {self.zone(zone)}",
                    f"shift {'' if team == me else 'r'}{player_code(p)} {zone}",
                )
            case SkipShift():
                return "Do not Shift", "no-shift"
            case SkipPass():
                return "Do not pass", "no-pass"
            case TakeTempo():
                return "Take the Tempo Point", "tempo"
            case BreakTempo(option=option):
                what = "a free Pass" if option == "free_pass" else "Shift one of your Players"
                return f"Break the Tempo: {what} instead of the point", f"break {option}"
            case MoveBludger(bludger=b, zone=zone):
                return f"Move Bludger {b + 1} to {self.zone(zone)}", f"bludger{b + 1} {zone}"
            case TargetPlayer(team=team, player=p):
                return (
                    f"The Bludger flies at {self.who(team, p, n)}",
                    f"hit {'' if team == me else 'r'}{player_code(p)}",
                )
            case PlaceDiceToken(team=team, player=p):
                return (
                    f"Put the Dice token on {self.who(team, p, n)}",
                    f"token {'' if team == me else 'r'}{player_code(p)}",
                )
            case RemoveStunned(player=p):
                return f"Remove a Stunned token from {player_name(p)}", f"unstun {player_code(p)}"
            case SkipRemove():
                return "Keep the Stunned tokens", "no-unstun"
            case TakeSnitchCard(card=card, option=option):
                name = race.card(card)
                title = getattr(name, "name", "Slipstreaming")
                return f"Take {title} and {OPTION_WORDS[option]}", f"snitch {card} {option}"
            case PlaceRaceToken(space=space):
                return f"Place the token on space {space}", f"space {space}"
            case DodgeToken(ignore=ignore):
                return ("Ignore the token where your Seeker ends", "ignore") if ignore else ("Spend the token", "spend")
            case NoSwift():
                return "Play no Swift Intrepid Move", "no-swift"
            case NoSpectator():
                return "Place no Spectator now", "no-spectator"
            case PickForTeam(part=part, card=card):
                if part == "house":
                    return f"Coach {card.title()}", f"house {card}"
                return f"Add {self.team_card(view, part, card)}", f"{part} {card}"
            case DropFromTeam(part=part, card=card):
                if part == "house":
                    return f"Take back the {card.title()} House", "undo"
                return f"Take back {self.team_card(view, part, card)}", "undo"
            case ConfirmTeam():
                return "Confirm the Team: it is formed", "confirm"
            case ChooseFlag(colour=colour):
                return f"Fly the {colour} Flag", f"flag {colour}"
            case UseTrait(dice=dice):
                if not dice:
                    return "Use the roller's Locked Trait on this roll", "trait"
                return f"Use the roller's Locked Trait: re-roll dice {', '.join(str(d) for d in dice)}", (
                    "trait " + ",".join(str(d) for d in dice)
                )
            case PlaySpectator(card=card, zone=zone):
                spot = next((s for s in view.stand if s.zone == zone), None)
                rival = spot is not None and spot.seat is not None and spot.seat != me
                spectator = self.engine.spectator_cards[card]
                effect = spectator_text(spectator, second=rival)
                how = " (removing the rival's Spectator)" if rival else ""
                return f"Place {spectator.name} in the {zone.title()} Zone{how}: {effect}", f"spectator {card} {zone}"
        return type(a).__name__, type(a).__name__.lower()

    def picked(self, part: str, card: str) -> str:
        """A pick named for its Coach's event text: the House, a Player's or Spectator's name, a card number."""
        if part == "house":
            return f"the {card.title()} House"
        if part == "player" and card in self.engine.players_by_id:
            return self.engine.players_by_id[card].name
        if part == "spectator" and card in self.engine.spectator_cards:
            return f"Spectator {self.engine.spectator_cards[card].name}"
        return f"Tactical card {card}"

    def team_card(self, view: SnitchView, part: str, card: str) -> str:
        """A card on the team-building screen: name, Position or blocks, and cost."""
        engine = self.engine
        if part == "player" and card in engine.players_by_id:
            player = engine.players_by_id[card]
            return f"{player.name} ({player.position.capitalize()}, {plural(player.cost, 'Galleon')})"
        if part == "spectator" and card in engine.spectator_cards:
            spectator = engine.spectator_cards[card]
            return f"Spectator {spectator.name} ({plural(spectator.cost, 'Galleon')})"
        house = view.draft.house if view.draft is not None else None
        library = engine.catalogue.library[house] if house is not None else {}  # type: ignore[index]
        if part == "tactic" and card.isdigit() and int(card) in library:
            tactic = engine.decks.card(house, int(card))  # type: ignore[arg-type]
            blocks = " · ".join(describe_blocks(tactic))
            return f"Tactical card {card}: {tactic.name} ({blocks}; {plural(tactic.cost, 'Galleon')})"
        return f"{part} {card}"

    # ------------------------------------------------------------------ events

    def event(self, e: Any, n: Narrator) -> str | None:
        """One sentence for an event as the reader sees it."""
        match e:
            case AdvantageRolled(attacking=seat, chaser=chaser):
                holder = f"{n.whose(seat)} {player_name(chaser)}"
                return f"{n.does(seat, 'win', 'wins')} the advantage roll: {holder} has the Quaffle."
            case CardsDrawn(seat=seat, count=count, cards=cards, hand_swap=swap):
                what = plural(count, "Tactical card")
                return f"{n.does(seat, 'draw')} {what}{' (Hand Swap)' if swap else ''}."
            case BludgerPlaced(seat=seat, bludger=b, zone=zone):
                return f"{n.does(seat, 'put')} Bludger {b + 1} in {self.zone(zone)}."
            case PlayerMoved(team=team, player=p, zone=zone, how=how, picked_up=picked):
                verb = {"move": "moves", "shift": "shifts", "deploy": "deploys"}.get(how, "goes")
                tail = " and picks up the Quaffle" if picked else ""
                return f"{_cap(self.who(team, p, n))} {verb} to {self.zone(zone)}{tail}."
            case PitchCardChosen(seat=seat, card=card):
                return f"{n.does(seat, 'choose')} a Pitch Actions card{f' (card {card})' if card is not None else ''}."
            case PitchCardsRevealed(cards=cards):
                return (
                    f"Pitch Actions cards revealed: {listing([f'{n.whose(s)} card {c}' for s, c in enumerate(cards)])}."
                )
            case IntrepidPlayed(seat=seat, card=card, swift=swift):
                return f"{n.does(seat, 'play')} card {card} for its {'Swift ' if swift else ''}Intrepid Move."
            case IntrepidDeclined(seat=seat):
                return f"{n.does(seat, 'play')} no more Intrepid Moves."
            case IntrepidResolved(seat=seat, card=card):
                return f"{_cap(n.whose(seat))} Intrepid Move (card {card}) takes effect."
            case BlockStarted(seat=seat, index=index, actions=actions):
                return f"{_cap(n.whose(seat))} Action Block {index + 1}: {' + '.join(a.capitalize() for a in actions)}."
            case BlockEnded(seat=seat, index=index, skipped=skipped, declined=declined):
                if declined:
                    return f"{n.does(seat, 'decline')} Action Block {index + 1}."
                tail = f" ({listing([s.capitalize() for s in skipped])} not performed)" if skipped else ""
                return f"{_cap(n.whose(seat))} Action Block {index + 1} ends{tail}."
            case ActionDeclared(seat=seat, action=action, player=p, target_team=tt, target=t, free=free):
                at = f" at {self.who(tt, t, n)}" if tt is not None and t is not None and action == "beat" else ""
                to = f" to {self.who(tt, t, n)}" if tt is not None and t is not None and action == "pass" else ""
                return f"{_cap(self.who(seat, p, n))}: {'free ' if free else ''}{action.capitalize()}{to}{at}."
            case ReactionDeclared(seat=seat, reaction=r, player=p):
                if not r or p is None:
                    return f"{n.does(seat, 'make')} no Reaction."
                return f"{_cap(self.who(seat, p, n))} reacts: {REACTION_WORDS.get(r, r)}."
            case AimChosen(seat=seat):
                return f"{n.does(seat, 'choose')} a Goal Hoop card."
            case HoopsAimed(shooter=a, keeper=b, bonus=bonus):
                verdict = " — different: +1 Success to the Shoot" if bonus else " — the same"
                return f"Goal Hoop cards: {a} and {b}{verdict}."
            case TokensSpent(seat=seat, bonus=bonus, penalty=penalty):
                parts = [f"{c} Bonus" for c in bonus] + [f"{c} Penalty" for c in penalty]
                return f"{n.does(seat, 'spend')} Dice tokens: {listing(parts)}."
            case DiceRolled(roll=kind, action=action, reaction=reaction, successes=s, opportunities=o):
                faces = f" [{_faces(action)}]" if action else ""
                answer = (
                    f", Reaction {plural(o, 'Opportunity', 'Opportunities')} [{_faces(reaction)}]" if reaction else ""
                )
                return f"{ROLL_WORDS.get(kind, kind)} roll: {plural(s, 'Success', 'Successes')}{faces}{answer}."
            case DiceRerolled(seat=seat, side=side, dice=dice, roll=roll, goal_token=goal):
                how = " (Goal token)" if goal else ""
                return f"{n.does(seat, 're-roll')} {side} {plural(len(dice), 'die')}{how}: [{_faces(roll)}]."
            case ExchangeResolved(
                roll=kind, successes=s, action_modifier=am, opportunities=o, reaction_modifier=rm, net=net, success=ok
            ):
                sums = f"{s}{am:+d}" + (f" − {max(0, o + rm)}" if o or rm else "")
                return f"{ROLL_WORDS.get(kind, kind)}: {sums} = {net} → {'success' if ok else 'failure'}."
            case QuaffleCaught(team=team, player=p, how=how):
                verb = {
                    "pass": "catches the Pass",
                    "steal": "steals the Quaffle",
                    "pick_up": "picks up the Quaffle",
                    "save": "saves the shot and holds the Quaffle",
                    "goal": "takes the Quaffle after the Goal",
                    "kick_off_pass": "receives the Kick-Off Pass",
                }.get(how, "has the Quaffle")
                return f"{_cap(self.who(team, p, n))} {verb}."
            case QuaffleLoose(zone=zone, attacking=a):
                return f"The Quaffle is Loose in {self.zone(zone)}; {n.who(a, start=False)} now attack."
            case Stunned(team=team, player=p, tokens=tokens, delta=delta):
                if delta < 0:
                    return f"{_cap(self.who(team, p, n))} recovers ({plural(tokens, 'Stunned token')} left)."
                return f"{_cap(self.who(team, p, n))} is Stunned ({plural(tokens, 'Stunned token')})."
            case GoalScored(seat=seat, player=p, goals=goals):
                return f"GOAL! {_cap(self.who(seat, p, n))} scores ({plural(goals, 'Goal')})."
            case GoalTokenFlipped(seat=seat, left=left):
                return f"{n.does(seat, 'flip')} a Goal token ({left} Uncelebrated left)."
            case KickOffStarted(team=team):
                return f"Keeper's Kick-Off for {n.who(team, start=False)}."
            case TempoGained(seat=seat, points=points, spent=spent):
                if spent:
                    return f"{n.does(seat, 'pass')} 3 Tempo Points: all are discarded for a Snitch card."
                return f"{n.does(seat, 'gain')} a Tempo Point ({points})."
            case TempoBroken(seat=seat, option=option):
                return f"{n.does(seat, 'break')} the Tempo for {'a free Pass' if option == 'free_pass' else 'a Shift'}."
            case AttackChanged(attacking=a):
                return f"{n.who(a)} {'are' if a == n.viewer else 'is'} now the Attacking Team."
            case HandSwapped(seats=seats):
                return f"Hand Swap: {n.seats(seats)} had no cards and draw 5."
            case DiceTokenPlaced(team=team, player=p, token=token, colour=colour):
                return f"A {colour} {token.capitalize()} Dice token goes on {self.who(team, p, n)}."
            case BludgerMoved(seat=seat, bludger=b, zone=zone):
                return f"{n.does(seat, 'move')} Bludger {b + 1} to {self.zone(zone)}."
            case BludgerAimed(bludger=b, team=team, player=p):
                return f"Bludger {b + 1} flies at {self.who(team, p, n)}."
            case SnitchCardDrawn(card=card, reshuffled=reshuffled):
                title = getattr(race.card(card), "name", "Slipstreaming")
                return f"{'The Snitch deck is reshuffled. ' if reshuffled else ''}{title} is turned face up."
            case SnitchRowRefilled(row=row):
                names = [getattr(race.card(c), "name", "Slipstreaming") for c in row]
                return f"Snitch row: {listing(names)}."
            case GoldenSnitchRevealed(seat=seat):
                return f"A Golden Snitch card! {_cap(n.whose(seat))} Seeker Glimpses."
            case SnitchCardKept(seat=seat, card=card):
                what = getattr(race.card(card), "name", "Slipstreaming") if card is not None else "a Snitch card"
                return f"{n.does(seat, 'keep')} {what} in play, face down."
            case SnitchCardTaken(seat=seat, card=card, option=option, level=level):
                title = getattr(race.card(card), "name", "Slipstreaming")
                if option == "keep":
                    return f"{n.does(seat, 'take')} {title} and keep it in play, face down."
                if option == "rushed":
                    return f"{n.does(seat, 'take')} {title} for its Rushed Impulse."
                return f"{n.does(seat, 'take')} {title} and combine it: {level} Impulse."
            case RaceMoved(seat=seat, step=step, successes=s, seekers=seekers, snitch=snitch, skipped=skipped):
                if skipped:
                    return f"{_cap(n.whose(seat))} Obstruct cannot be performed (the rival Seeker is Lagged)."
                where = f"Seekers on {seekers[0]} and {seekers[1]}, the Snitch on {snitch}"
                return f"{_cap(n.whose(seat))} Seeker: {ROLL_WORDS.get(step, step)} {s}. {where}."
            case RaceTokenPlaced(seat=seat, token=token, space=space, colour=colour):
                what = "an Upwind flag" if token == "upwind" else f"a {colour} {token} Dice token"
                return f"{n.does(seat, 'place')} {what} on space {space}."
            case SnitchCaught(seat=seat):
                return f"{_cap(n.whose(seat))} Seeker catches the Golden Snitch!"
            case SequenceStarted(sequence=number):
                return f"Game Sequence {number} begins."
            case SequenceEnded(sequence=number):
                return f"Game Sequence {number} ends."
            case MatchFinished(outcome=outcome):
                return f"The match is over: {outcome.reason}."
            case TeamChanged(seat=seat, part=part, card=card, dropped=dropped):
                if card is None or part is None:
                    return None  # the rival's Team is formed in secret
                what = self.picked(part, card)
                return f"{n.does(seat, 'take out' if dropped else 'add', 'takes out' if dropped else 'adds')} {what}."
            case TeamConfirmed(seat=seat):
                return f"{n.does(seat, 'have', 'has')} formed the Team."
            case TeamRevealed(seat=seat, house=house, players=players, spectators=spectators):
                names = [self.engine.players_by_id[p].name for p in players]
                fans = [self.engine.spectator_cards[c].name for c in spectators]
                tail = f"; Spectators: {listing(fans)}" if fans else ""
                return f"{_cap(n.whose(seat))} Team ({house.title()}): {listing(names)}{tail}."
            case FlagChosen(seat=seat, colour=colour):
                return f"{n.does(seat, 'fly', 'flies')} the {colour} Flag."
            case TraitUsed(seat=seat, player=p):
                name = "Seeker" if p == 6 else player_name(p)
                return f"{_cap(n.whose(seat))} {name} uses its Locked Trait; a Locked token goes on the card."
            case LockedRemoved(seat=seat):
                return f"{n.does(seat, 'remove')} all Locked tokens (the rival's Hand Swap)."
            case SpectatorPlayed(seat=seat, card=card, zone=zone, displaced=displaced, later=later):
                name = self.engine.spectator_cards[card].name
                removed = self.engine.spectator_cards[displaced].name if displaced else ""
                tail = f", removing {n.whose(1 - seat)} {removed}" if displaced else ""
                when = "; the effect follows once the Action is resolved" if later else ""
                return f"{n.does(seat, 'place')} {name} in the {zone.title()} Zone{tail}{when}."
            case StandCleared():
                return "The Hand Swap clears the Spectator Stand."
        return None

    # ------------------------------------------------------------------ prompts

    PROMPTS: ClassVar[dict[str, str]] = {
        "kick_off_bludger": "place a Bludger in the rival half",
        "deployment": "deploy Players out of the Deployment Zone",
        "pitch_cards": "choose a Pitch Actions card in secret",
        "intrepid_offer": "decide on an Intrepid Move",
        "block_action": "perform the next Action of the Action Block",
        "free_action": "perform a free Action",
        "reaction": "decide on a Reaction",
        "aim_at_hoop": "choose a Goal Hoop card in secret",
        "dice_tokens": "decide whether to spend Dice tokens",
        "roll_window": "re-roll or let the dice stand",
        "loose_quaffle": "put the Loose Quaffle in a Zone",
        "beaten_bludger": "place the beaten Bludger",
        "shift_players": "Shift Players",
        "kick_off_pass": "make the Keeper's Kick-Off Pass",
        "tempo_choice": "take the Tempo Point or Break the Tempo",
        "bludger_move": "move a Bludger",
        "bludger_target": "choose whom the Bludger hits",
        "dice_token_placement": "place Dice tokens",
        "hand_swap_recovery": "remove a Stunned token (Hand Swap)",
        "snitch_card_choice": "take a Snitch card",
        "race_token_placement": "place a Snitch Race token",
        "dodge_choice": "spend or ignore the token",
        "swift_window": "decide on a Swift Intrepid Move",
        "team_building": "build their Team in secret",
        "flag_choice": "choose a Flag colour",
        "spectator_window": "decide whether to place a Spectator",
    }

    def prompt(self, view: SnitchView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if prompt.kind == "finished" and view.outcome is not None:
            return f"The match is over: {view.outcome.reason}."
        what = self.PROMPTS.get(prompt.kind)
        if what is None:
            return ""
        seats = prompt.must or prompt.may
        verb = "must" if prompt.must else "may"
        detail = f" ({view.decision_detail})" if view.decision_detail else ""
        return f"{_cap(n.seats(seats))} {verb} {what}{detail}."

    def detail(self, state: SnitchState, seat: int | None) -> str:
        """More words on the pending decision, the same for every viewer (public facts only)."""
        top = self.engine.top(state)
        match top:
            case Deployment(left=left):
                return plural(left, "Player") + " left to deploy"
            case ShiftPlayers(left=left, reason=reason):
                return f"{plural(left, 'Player')}, {reason.replace('_', ' ')}"
            case TempoChoice(action=action):
                return f"after a successful {action.capitalize()}"
            case FreeAction(action=action, reason=reason):
                return f"{(action or 'any Action').capitalize()}, {reason.replace('_', ' ')}"
            case DiceTokenPlacement(token=token, colour=colour, left=left):
                return f"{left} {colour} {token.capitalize()}"
            case RaceTokenPlacement(token=token, colour=colour, left=left):
                what = "Upwind flag" if token == "upwind" else f"{colour} {token.capitalize()} Dice token"
                return f"{plural(left, what)} to place"
            case DodgeChoice(successes=successes, must=must):
                current = self.engine.race_of(state)
                landing = race.landing(current, must[0], successes) if must else 0
                lying = race.token_at(current, landing)
                what = "a token"
                if lying is not None:
                    what = "an Upwind flag" if lying.kind == "upwind" else f"a {lying.kind} Dice token"
                return f"Dodge {successes}: the Seeker would end on space {landing}, on {what}"
            case BlockAction():
                return "remaining: " + ", ".join(a.capitalize() for a in state.block_remaining)
            case SpectatorWindow(moment=moment):
                return SPECTATOR_MOMENTS.get(moment, moment)
        return ""

    def refusal(self, state: SnitchState, seat: int, action: Any) -> str:
        """Why an action of a kind the pending decision accepts is refused (the rule's name comes from the engine)."""
        reason = self._pitch_refusal(state, seat, action) or self._other_refusal(state, seat, action)
        return reason or f"{type(action).__name__} {msgspec_repr(action)} is not one of the legal choices now"

    def _player(self, index: Any) -> str | None:
        """A refusal for a Player index that names no Pitch Player, or None."""
        if not isinstance(index, int) or not 0 <= index < len(pitch.PITCH_LINEUP):
            return f"there is no Player {index!r}: Players are 0 (Keeper), 1–2 (Beaters), 3–5 (Chasers)"
        return None

    def _zone_known(self, zone: Any) -> str | None:
        if zone not in self.zone_names:
            return f"there is no Zone {zone!r}; Zones: {', '.join(self.zone_names)}"
        return None

    def _pitch_refusal(self, state: SnitchState, seat: int, action: Any) -> str | None:
        """Why a Move, Pass, Shoot, Steal, Beat or Recover is refused (l.342–388, l.418)."""
        kinds: dict[type, str] = {
            Move: "move",
            PassQuaffle: "pass",
            Shoot: "shoot",
            Steal: "steal",
            Beat: "beat",
            Recover: "recover",
        }
        kind = kinds.get(type(action))
        if kind is None:
            return None
        engine, layout = self.engine, state.layout
        top = engine.top(state)
        if isinstance(top, BlockAction) and kind not in state.block_remaining:
            left = ", ".join(a.capitalize() for a in state.block_remaining) or "nothing"
            return f"this Action Block has no {kind.capitalize()} left (remaining: {left})"
        if isinstance(top, FreeAction) and top.action is not None and top.action != kind:
            return f"this free Action is a {top.action.capitalize()}"
        if problem := self._player(action.player):
            return problem
        player = pitch.PlayerRef(seat, action.player)
        name = player_name(action.player)
        if isinstance(action, Move):
            if problem := self._zone_known(action.zone):
                return problem
            if action.zone not in pitch.adjacent(engine.pitch, layout.zone_of(player)):
                return f"{self.zone(action.zone)} is not next to {name}'s Zone, {self.zone(layout.zone_of(player))}"
            if pitch.disadvantage(layout, player):
                return f"{name} is at a Disadvantage and cannot Move out of its Zone (l.418)"
            return (
                f"{name} may not enter {self.zone(action.zone)}: only the defending Keeper and one attacking Chaser"
                " with the Quaffle (l.123)"
            )
        if isinstance(action, PassQuaffle | Shoot) and layout.holder != player:
            return f"{name} does not have the Quaffle"
        if isinstance(action, PassQuaffle):
            if problem := self._player(action.target):
                return problem
            return f"{player_name(action.target)} is not a friendly Player up to 2 Zones away (l.356)"
        if isinstance(action, Shoot):
            return "only a Chaser with the Quaffle in the rival's Scoring Area may Shoot (l.364)"
        if isinstance(action, Steal):
            if state.attacking == seat:
                return "only a Player of the Defending Team may Steal (l.374)"
            return f"{name} is not in the Zone of the Player with the Quaffle (l.374)"
        if isinstance(action, Beat):
            if player.position != "beater":
                return f"{name} is not a Beater (l.380)"
            if action.bludger not in pitch.bludgers_in(layout, layout.zone_of(player)):
                which = action.bludger + 1 if isinstance(action.bludger, int) else action.bludger
                return f"Bludger {which} is not in {name}'s Zone (l.380)"
            return "the target is not a rival Player up to 2 Zones away (l.380)"
        return f"{name} has no Stunned token to remove (l.388)"

    def _other_refusal(self, state: SnitchState, seat: int, action: Any) -> str | None:
        """Why a card, a Zone or a race choice is refused, where there is more to say than "not a choice"."""
        coach = state.players[seat]
        match action:
            case ChoosePitchCard(card=card) | PlayIntrepid(card=card) | PlaySwift(card=card):
                if coach.pitch_card is not None and isinstance(action, ChoosePitchCard):
                    return "your Pitch Actions card is chosen for this Game Sequence"
                if card not in coach.hand:
                    return f"card {card!r} is not in your hand"
                if isinstance(action, PlayIntrepid):
                    return f"card {card} has no Intrepid Move to play now (Swift ones wait for their moment, l.440)"
                return (
                    f"card {card} has no Swift Intrepid Move for this moment, or you may not play one now (l.442–446)"
                )
            case PlaceBludger(zone=zone) | PlaceQuaffle(zone=zone) | MoveBludger(zone=zone):
                if problem := self._zone_known(zone):
                    return problem
                return f"{self.zone(zone)} is not one of the Zones allowed now"
            case Aim(number=number):
                return f"Goal Hoop cards are numbered 1, 2 and 3, not {number!r}"
            case ChooseFlag(colour=colour):
                taken = state.players[1 - seat].flag
                if colour == taken:
                    return f"the {colour} Flag is the rival's; the two Coaches' colours differ"
                return f"there is no {colour!r} Flag; colours: {listing(list(FLAG_COLOURS.values()))}"
            case UseTrait():
                return (
                    "the Player whose roll this is has no Locked Trait to use on it (or its Locked token is on, l.229)"
                )
            case PlaySpectator(card=card, zone=zone):
                if card not in coach.spectators:
                    return f"{card!r} is not one of your Spectator cards"
                if coach.spectators_played.count(card) >= coach.spectators.count(card):
                    return "that Spectator has been played; it comes back after a Hand Swap clears the Stand (l.721)"
                if zone not in STAND_ZONES:
                    return f"the Stand's Zones are the Magic Zone and the Encouragement Zone, not {zone!r} (l.715)"
                return (
                    "a Spectator goes into a Zone its card allows, empty or held by a rival Spectator, never one "
                    "holding a friendly Spectator (l.719)"
                )
            case PlaceRaceToken(space=space):
                return f"space {space!r} is not a free space between the leading Seeker and the Snitch (l.616)"
        return None

    def waiting(self, state: SnitchState, seat: int, decision: Decision) -> str:
        """Why `seat` may not act: who the match waits for."""
        return f"seat {seat} has nothing to decide now; waiting for {listing([f'seat {s}' for s in decision.seats()])}"


# The moment a Spectator window comes before (SpectatorWindow.moment).
SPECTATOR_MOMENTS = {
    "block": "before the rival's next Action",
    "free_action": "before the rival's free Action",
    "bludger": "before the rival moves a Bludger",
}


def spectator_text(card: Any, second: bool = False) -> str:
    """A Spectator card's effect in words: the first (an empty Zone) or the second (displacing a rival)."""
    return describe_effect(card.second if second else card.first)


def msgspec_repr(action: Any) -> str:
    """An action's fields, for a refusal."""
    import msgspec

    fields = msgspec.structs.asdict(action)
    return "(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")" if fields else ""


def _faces(roll: Any) -> str:
    if roll is None:
        return ""
    short = {"success": "S", "double_success": "SS", "opportunity": "O", "double_opportunity": "OO", "blank": "-"}
    return " ".join(f"{d.colour[0]}:{short.get(d.face, d.face)}" for d in roll.dice)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
