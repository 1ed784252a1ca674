// The board of any game that ships none of its own: drawn from the generic service (menagerie.generic.v1.Game),
// whose view carries the prompt and outcome typed and the engine's other view fields as JSON. It shows whose
// turn it is and every public field as a readable tree; the choices are the engine's labels (the match page's
// action list), so nothing here knows a rule. Choices that are sets are found from the actions' JSON alone
// (setChoices): they are toggled as chips on the board and confirmed, as on a game's own board.
import { Game } from "../../gen/menagerie/generic/v1/generic_pb";
import type { Action, View } from "../../gen/menagerie/generic/v1/generic_pb";
import type { SetChoice, SetPart } from "../sets";
import { partProps, seatName, type BoardProps, type GameUI, type LegalAction } from "../types";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** "my_token" -> "my token": a field's name as a person reads it. */
function words(name: string): string {
  return name.replace(/_/g, " ");
}

function Tree({ value }: { value: Json }) {
  if (value === null) return <span className="empty">–</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="empty">none</span>;
    return (
      <ol className="tree" start={1}>
        {value.map((item, i) => (
          <li key={i}>
            <Tree value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === "object") {
    return (
      <dl className="tree">
        {Object.entries(value).map(([key, item]) => (
          <div key={key} data-field={key}>
            <dt>{words(key)}</dt>
            <dd>
              <Tree value={item} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <span>{String(value)}</span>;
}

type Fields = { [key: string]: Json };
type Scalar = string | number | boolean | null;

const isScalar = (value: Json): value is Scalar => value === null || typeof value !== "object";
/** A field a set choice can vary: a list of plain values (what is taken) or a yes/no (a part taken or not). */
const isSetField = (value: Json): boolean =>
  typeof value === "boolean" || (Array.isArray(value) && value.every(isScalar));

/** What an action takes, as counted parts: each list element as "field=value", a true yes/no as its name. */
function takes(fields: Fields, varying: string[]): string[] {
  return varying.flatMap((name) => {
    const value = fields[name];
    if (Array.isArray(value)) return value.map((item) => `${name}=${JSON.stringify(item)}`);
    return value === true ? [name] : [];
  });
}

/** The parts a group's options take, each as often as the option taking it most (two "keep=capture" chips, ...). */
function partsOf(kind: string, options: string[][]): SetPart[] {
  const most = new Map<string, number>();
  for (const taken of options) {
    const tally = new Map<string, number>();
    for (const counts of taken) tally.set(counts, (tally.get(counts) ?? 0) + 1);
    for (const [counts, n] of tally) most.set(counts, Math.max(most.get(counts) ?? 0, n));
  }
  return [...most].flatMap(([counts, n]) => {
    const [field, value] = counts.split("=", 2);
    const name = value === undefined ? words(field) : `${words(field)}: ${String(JSON.parse(value))}`;
    return Array.from({ length: n }, (_, i) => ({ key: `${kind}:${counts}#${i}`, counts, name }));
  });
}

/** A key for what an option takes as a multiset: two options with the same one cannot be told apart by toggles. */
const tallyKey = (taken: string[]): string => [...taken].sort().join("|");

/**
 * The set choices among the legal actions: actions of one kind with the same fields, differing only in
 * lists of plain values and yes/no fields, become one choice whose parts are those values (a Pursuit
 * reroll: the faces kept and whether the teal die is). Groups where two actions take the same parts stay
 * in the list. Only the server's list is read: the options are its actions.
 */
export function setChoices(actions: LegalAction<Action>[]): SetChoice[] {
  const groups = new Map<string, { index: number; fields: Fields }[]>();
  for (const legal of actions) {
    let fields: Json;
    try {
      fields = JSON.parse(legal.action.json) as Json;
    } catch {
      continue;
    }
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) continue;
    const key = `${String(fields.kind ?? "")}(${Object.keys(fields).sort().join(",")})`;
    groups.set(key, [...(groups.get(key) ?? []), { index: legal.index, fields }]);
  }
  return [...groups.values()].flatMap((group) => {
    if (group.length < 2) return [];
    const names = Object.keys(group[0].fields);
    const varying = names.filter((name) => new Set(group.map((g) => JSON.stringify(g.fields[name]))).size > 1);
    if (!varying.length || !varying.every((name) => group.every((g) => isSetField(g.fields[name])))) return [];
    const options = group.map((g) => ({ index: g.index, takes: takes(g.fields, varying) }));
    if (new Set(options.map((o) => tallyKey(o.takes))).size < options.length) return [];
    const kind = String(group[0].fields.kind ?? "choice");
    return [{ title: `${words(kind)}: ${varying.map(words).join(", ")}`, parts: partsOf(kind, options.map((o) => o.takes)), options }];
  });
}

/** The set choices' parts as chips to toggle (click, Space or Enter). */
function Parts(props: BoardProps<View, Action>) {
  const choices = setChoices(props.actions);
  if (!choices.length || !props.pickable?.size) return null;
  return (
    <div className="generic-parts" data-testid="generic-parts">
      {choices.map((choice) => (
        <p key={choice.title}>
          {choice.title}:{" "}
          {choice.parts.map((part) => {
            const toggle = partProps(props, part.key);
            return (
              <span key={part.key} {...toggle} className={`generic-part ${toggle.className}`}>
                {part.name}
              </span>
            );
          })}
        </p>
      ))}
    </div>
  );
}

function Board(props: BoardProps<View, Action>) {
  const { view, names } = props;
  const prompt = view.prompt;
  const deciding = [...(prompt?.must ?? []), ...(prompt?.may ?? [])];
  let fields: Json = {};
  try {
    fields = JSON.parse(view.fieldsJson || "{}") as Json;
  } catch {
    fields = view.fieldsJson;
  }
  return (
    <div className="generic-board" data-testid="generic-board">
      {deciding.length > 0 && (
        <p className="to-act" data-testid="to-act">
          To decide: {deciding.map((seat) => seatName(names, seat)).join(", ")}
        </p>
      )}
      <Parts {...props} />
      <Tree value={fields} />
    </div>
  );
}

/** The generic board: used for every game whose folder here gives no board of its own. */
export const generic: GameUI<View, Action> = {
  id: "generic",
  service: Game,
  Board,
  sets: (actions) => setChoices(actions),
  perGame: true,
};
