// The roll under way (the exchange's Action and Reaction dice) and the choices that are sets of its dice:
// an Intrepid Move's re-roll (Reroll: a side and its dice) and a Locked Trait's (UseTrait: dice of the
// side the view's decision names, roll_side). Each die is toggled on the board; the bar confirms the one
// action the server lists with exactly those dice (../sets.ts). A Goal token's re-roll of one die is
// narrowed to by clicking that die (dieTarget).
import type { Action, Roll, View } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { Colour, RollSide, Symbol } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { enumWord, partProps, targetProps, type BoardProps, type LegalAction } from "../types";
import type { SetChoice, SetPart } from "../sets";

type Side = "action" | "reaction";

const SIDES: Record<number, Side | undefined> = { [RollSide.ACTION]: "action", [RollSide.REACTION]: "reaction" };

/** The board key of die `index` (0-based, as the actions name it) of a side of the roll. */
export function dieKey(side: Side, index: number): string {
  return `die:${side}:${index}`;
}

function rollOf(view: View, side: Side): Roll | undefined {
  return side === "action" ? view.exchange?.actionRoll : view.exchange?.reactionRoll;
}

function dieName(roll: Roll, side: Side, index: number): string {
  const die = roll.dice[index];
  return `${side} die ${index + 1} (${enumWord(Colour[die.colour], "")} ${enumWord(Symbol[die.face], "")})`;
}

/** Every die of the roll under way, each a part a set choice may take. */
function rollParts(view: View): SetPart[] {
  return (["action", "reaction"] as const).flatMap((side) => {
    const roll = rollOf(view, side);
    return (roll?.dice ?? []).map((_, i) => ({ key: dieKey(side, i), counts: dieKey(side, i), name: dieName(roll!, side, i) }));
  });
}

/** The side of the roll whose dice a Locked Trait or a Goal token re-rolls (the view's decision says). */
function ownSide(view: View): Side | undefined {
  return SIDES[view.decision?.rollSide ?? RollSide.UNSPECIFIED];
}

/** The side and dice an action re-rolls, from its own fields (and the decision's side for a Locked Trait). */
function rerolled(action: Action, view: View): { side: Side; dice: number[] } | undefined {
  const kind = action.kind;
  const side = kind.case === "reroll" ? SIDES[kind.value.side] : kind.case === "useTrait" ? ownSide(view) : undefined;
  if (!side || (kind.case !== "reroll" && kind.case !== "useTrait") || kind.value.dice.length === 0) return undefined;
  return { side, dice: kind.value.dice };
}

const TITLES: Record<string, string> = { reroll: "Dice to re-roll", useTrait: "Dice the Locked Trait re-rolls" };

/** Re-rolling dice of the roll: the Rerolls, and the Locked Trait's re-rolls, each by the dice it names. */
export function sets(actions: LegalAction<Action>[], view: View): SetChoice[] {
  return Object.entries(TITLES).flatMap(([kind, title]) => {
    const options = actions.flatMap((a) => {
      const taken = a.action.kind.case === kind ? rerolled(a.action, view) : undefined;
      return taken ? [{ index: a.index, takes: taken.dice.map((d) => dieKey(taken.side, d)) }] : [];
    });
    return options.length >= 2 ? [{ title, parts: rollParts(view), options }] : [];
  });
}

/** The die a Goal token's re-roll names (a die of the deciding Coach's own side). */
export function dieTarget(action: Action, view: View | undefined): string | undefined {
  const side = view && ownSide(view);
  return action.kind.case === "goalReroll" && side ? dieKey(side, action.kind.value.die) : undefined;
}

function RollDice({ roll, side, props }: { roll: Roll; side: Side; props: BoardProps<View, Action> }) {
  return (
    <div className="roll-side" data-testid={`roll-${side}`}>
      <span className="small">{side}:</span>{" "}
      {roll.dice.map((die, i) => {
        // A die is a toggle while a set choice takes it, else a target when an action names it.
        const part = partProps(props, dieKey(side, i));
        const toggle = part.className ? part : targetProps(props, dieKey(side, i));
        return (
          <span
            key={i}
            {...toggle}
            className={`die colour-${enumWord(Colour[die.colour], "")} ${toggle.className}`}
            title={dieName(roll, side, i)}
            data-die={dieKey(side, i)}
            data-face={enumWord(Symbol[die.face], "")}
          >
            <small>{i + 1}</small> {enumWord(Symbol[die.face], "")}
          </span>
        );
      })}
    </div>
  );
}

/** The exchange's dice, when a roll is under way. */
export function RollSection(props: BoardProps<View, Action>) {
  const rolls = (["action", "reaction"] as const)
    .map((side) => [side, rollOf(props.view, side)] as const)
    .filter(([, roll]) => (roll?.dice.length ?? 0) > 0);
  if (rolls.length === 0) return null;
  return (
    <section className="snitch-roll" data-testid="snitch-roll">
      <h4>The roll ({props.view.exchange?.kind})</h4>
      {rolls.map(([side, roll]) => (
        <RollDice key={side} roll={roll!} side={side} props={props} />
      ))}
    </section>
  );
}
