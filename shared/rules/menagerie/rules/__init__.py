"""The rules contract every Menagerie game engine builds on.

Pure: no I/O, no clock, no global randomness, and no dependency but msgspec, so an
engine installs and runs (arena, notebooks, tests) without the service stack.

- `contract`: the engine surface (setup, to_act, legal_actions, check, apply, perform,
  view, outcome, determinize, and the engine's own words for actions and events).
- `decisions`: pending decisions and the rules that list, refuse and perform actions.
- `procedure`: what happens between decisions (automatic steps, chance nodes with their
  outcomes, interrupts), the two stacks kept by the contract alone.
- `engine`: the `RulesEngine` base that derives to_act, legal_actions, check and refusals
  from the top decision and the rules.
- `events`: typed events whose private fields are declared in the type.
- `hidden`: hidden zones declared in the state; one helper permutes them.
- `text`: narration (who, verbs, plurals) for labels and event text.
- `chance`: outcome distributions of dice, so bots need not re-derive them.
- `fitted`: a fitted logistic regression's chance (fitted evaluations, bench/evaluation.py).
- `rng`, `errors`, `registry`.
"""
