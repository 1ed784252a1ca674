"""What happened, in words: one sentence per Snitch event as its reader sees it, by concern."""

from __future__ import annotations

from typing import Any

from menagerie.rules.text import Narrator, listing, plural
from menagerie.snitch.engine import race
from menagerie.snitch.engine.model import (
    ActionDeclared,
    AdvantageRolled,
    AimChosen,
    AttackChanged,
    BlockEnded,
    BlockStarted,
    BludgerAimed,
    BludgerMoved,
    BludgerPlaced,
    CardsDrawn,
    DiceRerolled,
    DiceRolled,
    DiceTokenPlaced,
    ExchangeResolved,
    FlagChosen,
    GoalScored,
    GoalTokenFlipped,
    GoldenSnitchRevealed,
    HandSwapped,
    HoopsAimed,
    IntrepidDeclined,
    IntrepidPlayed,
    IntrepidResolved,
    KickOffStarted,
    LockedRemoved,
    MatchFinished,
    PitchCardChosen,
    PitchCardsRevealed,
    PlayerMoved,
    QuaffleCaught,
    QuaffleLoose,
    RaceMoved,
    RaceTokenPlaced,
    ReactionDeclared,
    SequenceEnded,
    SequenceStarted,
    SnitchCardDrawn,
    SnitchCardKept,
    SnitchCardTaken,
    SnitchCaught,
    SnitchRowRefilled,
    SpectatorPlayed,
    StandCleared,
    Stunned,
    TeamChanged,
    TeamConfirmed,
    TeamRevealed,
    TempoBroken,
    TempoGained,
    TokensSpent,
    TraitUsed,
)
from menagerie.snitch.engine.wording import REACTION_WORDS, ROLL_WORDS, Words, bludger_name, cap, faces, player_name


class EventNarration(Words):
    """Event text (a part of SnitchText)."""

    def event(self, e: Any, n: Narrator) -> str | None:
        """One sentence for an event as the reader sees it."""
        for words in (
            self._setup_event,
            self._card_event,
            self._team_event,
            self._block_event,
            self._pitch_event,
            self._roll_event,
            self._race_event,
        ):
            text = words(e, n)
            if text is not None:
                return text
        return None

    def _setup_event(self, e: Any, n: Narrator) -> str | None:
        """Set-up and the Game Sequence."""
        match e:
            case AdvantageRolled(attacking=seat, chaser=chaser):
                holder = f"{n.whose(seat)} {player_name(chaser)}"
                return f"{n.does(seat, 'win', 'wins')} the advantage roll: {holder} has the Quaffle."
            case CardsDrawn(seat=seat, count=count, hand_swap=swap):
                what = plural(count, "Tactical card")
                return f"{n.does(seat, 'draw')} {what}{' (Hand Swap)' if swap else ''}."
            case BludgerPlaced(seat=seat, bludger=b, zone=zone):
                return f"{n.does(seat, 'put')} {bludger_name(b)} in {self.zone(zone)}."
            case HandSwapped(seats=seats):
                return f"Hand Swap: {n.seats(seats)} had no cards and draw 5."
            case SequenceStarted(sequence=number):
                return f"Game Sequence {number} begins."
            case SequenceEnded(sequence=number):
                return f"Game Sequence {number} ends."
            case MatchFinished(outcome=outcome):
                return f"The match is over: {n.named(outcome.reason)}."
            case LockedRemoved(seat=seat):
                return f"{n.does(seat, 'remove')} all Locked tokens (the rival's Hand Swap)."
        return None

    def _card_event(self, e: Any, n: Narrator) -> str | None:
        """Tactical cards."""
        match e:
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
                return f"{cap(n.whose(seat))} Intrepid Move (card {card}) takes effect."
        return None

    def _team_event(self, e: Any, n: Narrator) -> str | None:
        """Team building and Spectators."""
        match e:
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
                return f"{cap(n.whose(seat))} Team ({house.title()}): {listing(names)}{tail}."
            case FlagChosen(seat=seat, colour=colour):
                return f"{n.does(seat, 'fly', 'flies')} the {colour} Flag."
            case SpectatorPlayed(seat=seat, card=card, zone=zone, displaced=displaced, later=later):
                name = self.engine.spectator_cards[card].name
                removed = self.engine.spectator_cards[displaced].name if displaced else ""
                tail = f", removing {n.whose(1 - seat)} {removed}" if displaced else ""
                when = "; the effect follows once the Action is resolved" if later else ""
                return f"{n.does(seat, 'place')} {name} in the {zone.title()} Zone{tail}{when}."
            case StandCleared():
                return "The Hand Swap clears the Spectator Stand."
        return None

    def _block_event(self, e: Any, n: Narrator) -> str | None:
        """Action Blocks, their Actions, Goals and Tempo."""
        match e:
            case BlockStarted(seat=seat, index=index, actions=actions):
                return f"{cap(n.whose(seat))} Action Block {index + 1}: {' + '.join(a.capitalize() for a in actions)}."
            case BlockEnded(seat=seat, index=index, skipped=skipped, declined=declined):
                if declined:
                    return f"{n.does(seat, 'decline')} Action Block {index + 1}."
                tail = f" ({listing([s.capitalize() for s in skipped])} not performed)" if skipped else ""
                return f"{cap(n.whose(seat))} Action Block {index + 1} ends{tail}."
            case ActionDeclared(seat=seat, action=action, player=p, target_team=tt, target=t, free=free):
                at = f" at {self.who(tt, t, n)}" if tt is not None and t is not None and action == "beat" else ""
                to = f" to {self.who(tt, t, n)}" if tt is not None and t is not None and action == "pass" else ""
                return f"{cap(self.who(seat, p, n))}: {'free ' if free else ''}{action.capitalize()}{to}{at}."
            case GoalScored(seat=seat, player=p, goals=goals):
                return f"GOAL! {cap(self.who(seat, p, n))} scores ({plural(goals, 'Goal')})."
            case TempoGained(seat=seat, points=points, spent=spent):
                if spent:
                    return f"{n.does(seat, 'pass')} 3 Tempo Points: all are discarded for a Snitch card."
                return f"{n.does(seat, 'gain')} a Tempo Point ({points})."
            case TempoBroken(seat=seat, option=option):
                return f"{n.does(seat, 'break')} the Tempo for {'a free Pass' if option == 'free_pass' else 'a Shift'}."
        return None

    def _pitch_event(self, e: Any, n: Narrator) -> str | None:
        """Players, the Quaffle and the Bludgers on the Pitch."""
        match e:
            case PlayerMoved(team=team, player=p, zone=zone, how=how, picked_up=picked):
                verb = {"move": "moves", "shift": "shifts", "deploy": "deploys"}.get(how, "goes")
                tail = " and picks up the Quaffle" if picked else ""
                return f"{cap(self.who(team, p, n))} {verb} to {self.zone(zone)}{tail}."
            case QuaffleCaught(team=team, player=p, how=how):
                verb = {
                    "pass": "catches the Pass",
                    "steal": "steals the Quaffle",
                    "pick_up": "picks up the Quaffle",
                    "save": "saves the shot and holds the Quaffle",
                    "goal": "takes the Quaffle after the Goal",
                    "kick_off_pass": "receives the Kick-Off Pass",
                }.get(how, "has the Quaffle")
                return f"{cap(self.who(team, p, n))} {verb}."
            case QuaffleLoose(zone=zone, attacking=a):
                return f"The Quaffle is Loose in {self.zone(zone)}; {n.who(a, start=False)} now attack."
            case Stunned(team=team, player=p, tokens=tokens, delta=delta):
                if delta < 0:
                    return f"{cap(self.who(team, p, n))} recovers ({plural(tokens, 'Stunned token')} left)."
                return f"{cap(self.who(team, p, n))} is Stunned ({plural(tokens, 'Stunned token')})."
            case KickOffStarted(team=team):
                return f"Keeper's Kick-Off for {n.who(team, start=False)}."
            case AttackChanged(attacking=a):
                return f"{n.who(a)} {'are' if a == n.viewer else 'is'} now the Attacking Team."
            case DiceTokenPlaced(team=team, player=p, token=token, colour=colour):
                return f"A {colour} {token.capitalize()} Dice token goes on {self.who(team, p, n)}."
            case BludgerMoved(seat=seat, bludger=b, zone=zone):
                return f"{n.does(seat, 'move')} {bludger_name(b)} to {self.zone(zone)}."
            case BludgerAimed(bludger=b, team=team, player=p):
                return f"{bludger_name(b)} flies at {self.who(team, p, n)}."
        return None

    def _roll_event(self, e: Any, n: Narrator) -> str | None:
        """Reactions and rolls."""
        match e:
            case ReactionDeclared(seat=seat, reaction=r, player=p):
                if not r or p is None:
                    return f"{n.does(seat, 'make')} no Reaction."
                return f"{cap(self.who(seat, p, n))} reacts: {REACTION_WORDS.get(r, r)}."
            case AimChosen(seat=seat):
                return f"{n.does(seat, 'choose')} a Goal Hoop card."
            case HoopsAimed(shooter=a, keeper=b, bonus=bonus):
                verdict = " — different: +1 Success to the Shoot" if bonus else " — the same"
                return f"Goal Hoop cards: {a} and {b}{verdict}."
            case TokensSpent(seat=seat, bonus=bonus, penalty=penalty):
                parts = [f"{c} Bonus" for c in bonus] + [f"{c} Penalty" for c in penalty]
                return f"{n.does(seat, 'spend')} Dice tokens: {listing(parts)}."
            case DiceRolled(roll=kind, action=action, reaction=reaction, successes=s, opportunities=o):
                shown = f" [{faces(action)}]" if action else ""
                answer = (
                    f", Reaction {plural(o, 'Opportunity', 'Opportunities')} [{faces(reaction)}]" if reaction else ""
                )
                return f"{ROLL_WORDS.get(kind, kind)} roll: {plural(s, 'Success', 'Successes')}{shown}{answer}."
            case DiceRerolled(seat=seat, side=side, dice=dice, roll=roll, goal_token=goal):
                how = " (Goal token)" if goal else ""
                return f"{n.does(seat, 're-roll')} {side} {plural(len(dice), 'die')}{how}: [{faces(roll)}]."
            case ExchangeResolved(
                roll=kind, successes=s, action_modifier=am, opportunities=o, reaction_modifier=rm, net=net, success=ok
            ):
                sums = f"{s}{am:+d}" + (f" − {max(0, o + rm)}" if o or rm else "")
                return f"{ROLL_WORDS.get(kind, kind)}: {sums} = {net} → {'success' if ok else 'failure'}."
            case GoalTokenFlipped(seat=seat, left=left):
                return f"{n.does(seat, 'flip')} a Goal token ({left} Uncelebrated left)."
            case TraitUsed(seat=seat, player=p):
                name = "Seeker" if p == 6 else player_name(p)
                return f"{cap(n.whose(seat))} {name} uses its Locked Trait; a Locked token goes on the card."
        return None

    def _race_event(self, e: Any, n: Narrator) -> str | None:
        """The Snitch race."""
        match e:
            case SnitchCardDrawn(card=card, reshuffled=reshuffled):
                title = getattr(race.card(card), "name", "Slipstreaming")
                return f"{'The Snitch deck is reshuffled. ' if reshuffled else ''}{title} is turned face up."
            case SnitchRowRefilled(row=row):
                names = [getattr(race.card(c), "name", "Slipstreaming") for c in row]
                return f"Snitch row: {listing(names)}."
            case GoldenSnitchRevealed(seat=seat):
                return f"A Golden Snitch card! {cap(n.whose(seat))} Seeker Glimpses."
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
                    return f"{cap(n.whose(seat))} Obstruct cannot be performed (the rival Seeker is Lagged)."
                where = f"Seekers on {seekers[0]} and {seekers[1]}, the Snitch on {snitch}"
                return f"{cap(n.whose(seat))} Seeker: {ROLL_WORDS.get(step, step)} {s}. {where}."
            case RaceTokenPlaced(seat=seat, token=token, space=space, colour=colour):
                what = "an Upwind flag" if token == "upwind" else f"a {colour} {token} Dice token"
                return f"{n.does(seat, 'place')} {what} on space {space}."
            case SnitchCaught(seat=seat):
                return f"{cap(n.whose(seat))} Seeker catches the Golden Snitch!"
        return None
