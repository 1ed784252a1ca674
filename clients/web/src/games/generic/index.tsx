// The board of any game that ships none of its own: drawn from the generic service (menagerie.generic.v1.Game),
// whose view carries the prompt and outcome typed and the engine's other view fields as JSON. It shows whose
// turn it is and every public field as a readable tree; the choices are the engine's labels (the match page's
// action list), so nothing here knows a rule.
import { Game } from "../../gen/menagerie/generic/v1/generic_pb";
import type { Action, View } from "../../gen/menagerie/generic/v1/generic_pb";
import { seatName, type BoardProps, type GameUI } from "../types";

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

function Board({ view, names }: BoardProps<View, Action>) {
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
      <Tree value={fields} />
    </div>
  );
}

/** The generic board: used for every game whose folder here gives no board of its own. */
export const generic: GameUI<View, Action> = { id: "generic", service: Game, Board, perGame: true };
