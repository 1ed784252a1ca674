// Dice tokens to spend before a roll (SpendTokens: your roller's Bonus tokens, the rival roller's Penalty
// tokens). The tokens the legal actions take are drawn as tokens to toggle, as many of each colour as the
// largest spend names; the bar confirms the one action that spends exactly the tokens picked (../sets.ts).
// Nothing here works out who holds which token: only the server's list of actions is read.
import type { Action, View } from "../../gen/menagerie/snitch/v1/snitch_pb";
import { Colour } from "../../gen/menagerie/snitch/v1/snitch_pb";
import type { SetChoice, SetPart } from "../sets";
import { enumWord, partProps, type BoardProps, type LegalAction } from "../types";

type Kind = "bonus" | "penalty";

const KINDS: { kind: Kind; title: string }[] = [
  { kind: "bonus", title: "Your roller's Bonus tokens" },
  { kind: "penalty", title: "The rival roller's Penalty tokens" },
];

function colourWord(colour: Colour): string {
  return enumWord(Colour[colour], "");
}

/** What a token counts as in an action (tokens of one kind and colour are interchangeable). */
function counts(kind: Kind, colour: Colour): string {
  return `${kind}:${colourWord(colour)}`;
}

/** The tokens a SpendTokens action spends, as counted; undefined for any other action. */
function spent(action: Action): string[] | undefined {
  if (action.kind.case !== "spendTokens") return undefined;
  const { bonus, penalty } = action.kind.value;
  return [...bonus.map((c) => counts("bonus", c)), ...penalty.map((c) => counts("penalty", c))];
}

/** The board key of the `n`-th token (0-based) of a kind and colour. */
function tokenKey(counted: string, n: number): string {
  return `token:${counted}:${n}`;
}

/** Every token some spend takes: of each kind and colour, as many as the largest spend takes. */
function tokenParts(options: { takes: string[] }[]): SetPart[] {
  const most = new Map<string, number>();
  for (const { takes } of options) {
    const here = new Map<string, number>();
    for (const counted of takes) here.set(counted, (here.get(counted) ?? 0) + 1);
    for (const [counted, n] of here) most.set(counted, Math.max(n, most.get(counted) ?? 0));
  }
  return [...most].flatMap(([counted, n]) => {
    const [kind, colour] = counted.split(":");
    const name = `${kind === "bonus" ? "Bonus" : "Penalty"} token (${colour})`;
    return Array.from({ length: n }, (_, i) => ({ key: tokenKey(counted, i), counts: counted, name }));
  });
}

/** The choice of Dice tokens to spend, when the seat has several ways (spending none among them). */
export function tokenSets(actions: LegalAction<Action>[]): SetChoice[] {
  const options = actions.flatMap((a) => {
    const takes = spent(a.action);
    return takes ? [{ index: a.index, takes }] : [];
  });
  return options.length >= 2 ? [{ title: "Dice tokens to spend", parts: tokenParts(options), options }] : [];
}

/** The Dice tokens the seat may spend on the coming roll, each a toggle, while it chooses. */
export function TokenTray(props: BoardProps<View, Action>) {
  const parts = tokenSets(props.actions).flatMap((choice) => choice.parts);
  if (parts.length === 0) return null;
  return (
    <section className="snitch-tokens" data-testid="snitch-tokens">
      <h4>Dice tokens for the coming roll</h4>
      {KINDS.map(({ kind, title }) => {
        const own = parts.filter((part) => part.counts.startsWith(`${kind}:`));
        return (
          own.length > 0 && (
            <div key={kind} className="token-row">
              <span className="small">{title}:</span>{" "}
              {own.map((part) => {
                const toggle = partProps(props, part.key);
                const colour = part.counts.split(":")[1];
                return (
                  <span
                    key={part.key}
                    {...toggle}
                    className={`token colour-${colour} ${toggle.className}`}
                    title={part.name}
                    data-token={part.key}
                  >
                    {colour}
                  </span>
                );
              })}
            </div>
          )
        );
      })}
    </section>
  );
}
