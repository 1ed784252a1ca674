"""The base of every engine: the contract derived from a decision stack, a procedure and rules.

A game subclasses `RulesEngine`, keeps its pending decisions in `state.decisions`
(top last) and, when it has automatic steps or chance nodes, its flow in `state.flow`
(both kept by the contract: menagerie.rules.procedure), its seats in `state.players`, its
result in `state.outcome` and its Rng in `state.rng`, lists one `Rule` per action type in
`rulebook()` (and one handler per step in `procedure()`) and keeps its words in
`self.text` (a `GameText`). Everything the service and the bots call is then derived
here, in one place:

    refusal(state, seat, action):
        the match is over            -> "End of the game"
        no such seat                 -> "Seats"
        the seat has no decision     -> out_of_turn(...)   (the game's words)
        the decision does not accept -> the rule's not_now (or a generic sentence)
        the rule's own problem       -> the rule's refusal
    legal_actions = the rule's options for each accepted type, without a problem
                    (a rule whose options are exact by its own helper skips the re-check)
    check         = raise the refusal, if any
    apply         = check, then perform
    perform       = the rule's perform, unchecked (search, simulation, replays)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from menagerie.rules.contract import GameInfo, Label, Outcome, Prompt, ToAct
from menagerie.rules.decisions import ACTIONS, END_OF_THE_GAME, SEATS, TURN_ORDER, Decision, Refusal, Rule, no_problem
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import GameEvent
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.procedure import Procedure
from menagerie.rules.rng import Rng
from menagerie.rules.text import Narrator, listing, seat_name

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")
E = TypeVar("E", bound=GameEvent)
V_in = TypeVar("V_in", contravariant=True)
A_in = TypeVar("A_in", contravariant=True)
E_in = TypeVar("E_in", contravariant=True)


class GameText(Protocol[V_in, A_in, E_in]):
    """A game's words: the labels of its actions, the text of its events and prompts."""

    def action(self, view: V_in, action: A_in, narrator: Narrator) -> Label:
        """How one of the reader's legal actions reads, and its code."""
        ...

    def event(self, event: E_in, narrator: Narrator) -> str | None:
        """One sentence for an event as the reader sees it (None: nothing to read)."""
        ...

    def prompt(self, view: V_in, narrator: Narrator) -> str:
        """What the match waits for, for the reader."""
        ...


class RulesEngine(Procedure[S, E], Generic[S, A, V, E]):
    """An engine whose to_act, legal actions and refusals come from its decision stack."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[Any]
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]
    event_type: ClassVar[Any]
    # The game's words (set by the game before calling __init__ here).
    text: GameText[V, A, E]
    # The short title of each decision kind, and of "finished" (the prompt's `title`): words of the
    # game's text module, named here because the prompt is built from the state, for every viewer.
    titles: ClassVar[Mapping[str, str]] = {}
    # The action types that let a chance to act go by (their labels say `passes`).
    passes: ClassVar[tuple[type, ...]] = ()

    def __init__(self) -> None:
        self.rules: dict[type, Rule[S, A, E]] = self.rulebook()
        self._rules_by_decision: dict[type[Decision], list[Rule[S, A, E]]] = {}

    # ------------------------------------------------------------ the game's part

    def rulebook(self) -> dict[type, Rule[S, A, E]]:
        """One rule per action type."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else None."""
        return state.outcome  # type: ignore[attr-defined, no-any-return]

    def out_of_turn(self, state: S, seat: int, decision: Decision) -> Refusal:
        """Why `seat` may not act while `decision` is pending (it is not among its deciders)."""
        waiting = listing([seat_name(s) for s in decision.seats()])
        return Refusal(TURN_ORDER, f"{seat_name(seat)} has nothing to decide now; waiting for {waiting}")

    def state_from_view(self, view: V, seat: int | None) -> S:
        """A state consistent with `view`: what `seat` (None: a spectator) cannot see filled in any way that fits."""
        raise NotImplementedError

    # ---------------------------------------------------------------- derived

    def top(self, state: Any) -> Decision | None:
        """The decision the match waits for (None once it is over)."""
        stack: list[Decision] = state.decisions
        # An engine empties the stack when the match ends; the outcome check guards one that did not.
        return stack[-1] if stack and state.outcome is None else None

    def to_act(self, state: S) -> ToAct:
        """The seats of the top decision."""
        top = self.top(state)
        if top is None:
            return ToAct()
        if not top.may:  # the common case, a decision of one or more seats that must act
            return ToAct(must=tuple(top.must) if len(top.must) == 1 else tuple(sorted(top.must)))
        return ToAct(must=tuple(sorted(top.must)), may=tuple(sorted(set(top.may) - set(top.must))))

    def prompt(self, state: S) -> Prompt:
        """The top decision as every view shows it (its text is written per viewer by describe_prompt)."""
        top = self.top(state)
        if top is None:
            kind = "finished" if self.outcome(state) is not None else ""
            return Prompt(kind=kind, title=self.titles.get(kind, ""))
        to_act = self.to_act(state)
        below = [d.kind() for d in state.decisions[:-1]]  # type: ignore[attr-defined]
        kind = top.kind()
        return Prompt(
            kind=kind,
            must=list(to_act.must),
            may=list(to_act.may),
            actor=top.actor,
            stack=below,
            title=self.titles.get(kind, ""),  # every kind has one: the property runs check it
        )

    def refusal(self, state: S, seat: int, action: A) -> Refusal | None:
        """Why `apply` would refuse the action, or None when it is legal."""
        return self._judge(state, seat, action)[0]

    def _judge(self, state: S, seat: int, action: A) -> tuple[Refusal | None, A]:
        """The refusal (None when legal) and the action as the legal list spells it."""
        top = self.top(state)
        if top is None:
            if self.outcome(state) is not None:
                return Refusal(END_OF_THE_GAME, "the match is over"), action
            return Refusal(END_OF_THE_GAME, "nothing is left to decide"), action
        if not 0 <= seat < len(state.players):  # type: ignore[attr-defined]
            return Refusal(SEATS, f"there is no {seat_name(seat)}"), action
        if seat not in top.must and seat not in top.may:
            return self.out_of_turn(state, seat, top), action
        rule = self.rules.get(type(action))
        if rule is None:
            return Refusal(ACTIONS, f"{type(action).__name__} is not an action of this game"), action
        if type(action) not in top.accepts:
            detail = rule.not_now(state, seat, top) if rule.not_now else "that is not possible now"
            return (detail if isinstance(detail, Refusal) else Refusal(rule.name, detail)), action
        if rule.canonical is not None:
            action = rule.canonical(state, seat, action)
        problem = rule.problem(state, seat, action)
        if problem is None or isinstance(problem, Refusal):
            return problem, action
        return Refusal(rule.name, problem), action

    def canonical(self, state: S, seat: int, action: A) -> A:
        """The action as the legal list spells it."""
        rule = self.rules.get(type(action))
        return rule.canonical(state, seat, action) if rule is not None and rule.canonical else action

    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every action `seat` may take now: its rules' options that have no problem."""
        top = self.top(state)
        if top is None or (seat not in top.must and seat not in top.may):
            return []
        actions: list[A] = []
        accepts = top.accepts
        rules = self._rules_by_decision.get(type(top)) or self._rules_of(type(top))
        for rule in rules:
            if rule.exact or rule.problem is no_problem:
                actions += rule.options(state, seat)
                continue
            problem = rule.problem
            actions += [a for a in rule.options(state, seat) if type(a) in accepts and problem(state, seat, a) is None]
        return actions

    def _rules_of(self, decision: type[Decision]) -> list[Rule[S, A, E]]:
        """The rules of the action types a kind of decision accepts, each once (one rule may serve several types)."""
        rules = self._rules_by_decision.get(decision)
        if rules is None:
            unique = {id(rule): rule for rule in (self.rules[t] for t in decision.accepts)}
            rules = self._rules_by_decision[decision] = list(unique.values())
        return rules

    def check(self, state: S, seat: int, action: A) -> None:
        """Raises IllegalAction, naming the rule, unless `action` is legal for `seat` now."""
        refusal = self.refusal(state, seat, action)
        if refusal is not None:
            raise IllegalAction(refusal.rule, refusal.detail)

    def apply(self, state: S, seat: int, action: A) -> list[E]:
        """Checks the action, then performs it in place; returns the events."""
        refusal, action = self._judge(state, seat, action)
        if refusal is not None:
            raise IllegalAction(refusal.rule, refusal.detail)
        return list(self.rules[type(action)].perform(state, seat, action))

    def perform(self, state: S, seat: int, action: A) -> list[E]:
        """Performs an action known to be legal, unchecked (search, simulation, replays)."""
        rule = self.rules[type(action)]
        if rule.canonical is not None:
            action = rule.canonical(state, seat, action)
        return list(rule.perform(state, seat, action))

    def describe_action(self, view: V, action: A, narrator: Narrator) -> Label:
        """The label of one of the viewer's legal actions, from its view (marked when it passes)."""
        label = self.text.action(view, action, narrator)
        return msgspec.structs.replace(label, passes=True) if isinstance(action, self.passes) else label

    def describe_event(self, event: E, narrator: Narrator) -> str | None:
        """One sentence for an event as the reader sees it (None: nothing to read)."""
        return self.text.event(event, narrator)

    def describe_prompt(self, view: V, narrator: Narrator) -> str:
        """What the match waits for, in words, for the reader."""
        return self.text.prompt(view, narrator)

    def determinize(self, view: V, seat: int, seed: int) -> S:
        """A random full state consistent with `view`: its hidden zones shuffled, a fresh Rng."""
        return permute_hidden(self.state_from_view(view, seat), seat, Rng(seed))
