// The bar of a choice that is a set of board parts: what is picked on the board, and Confirm, enabled only
// when exactly one legal action takes exactly those parts (games/sets.ts); it submits that action.
import type { LegalAction } from "../games/types";
import { chosenIndex, type SetChoice } from "../games/sets";

interface Props {
  choices: SetChoice[];
  actions: LegalAction<unknown>[];
  picked: readonly string[];
  busy: boolean;
  onAct(index: number): void;
  onClear(): void;
}

/** The picked parts of this choice, in words, in the board's order. */
function pickedNames(choice: SetChoice, picked: readonly string[]): string {
  const names = choice.parts.filter((p) => picked.includes(p.key)).map((p) => p.name);
  return names.length ? names.join(", ") : "nothing yet";
}

function OneChoice({ choice, actions, picked, busy, onAct }: Omit<Props, "choices" | "onClear"> & { choice: SetChoice }) {
  const index = chosenIndex(choice, picked);
  const label = actions.find((a) => a.index === index)?.label;
  return (
    <div className="set-choice" data-testid="set-choice">
      <b>{choice.title}</b> <span className="small">(pick on the board, then confirm; {choice.options.length} ways)</span>
      <p className="small" data-testid="set-picked">
        Picked: {pickedNames(choice, picked)}
      </p>
      <button
        data-testid="set-confirm"
        data-code={label?.code}
        disabled={busy || index === undefined}
        title={label?.code}
        onClick={() => index !== undefined && onAct(index)}
      >
        {label ? `Confirm: ${label.text}` : "Confirm"}
      </button>
      {index === undefined && (
        <p className="small" data-testid="set-why">
          No legal choice takes exactly these: change the picks.
        </p>
      )}
    </div>
  );
}

export function SetChoiceBar({ choices, actions, picked, busy, onAct, onClear }: Props) {
  if (choices.length === 0) return null;
  return (
    <div className="set-choices" data-testid="set-choices">
      {choices.map((choice) => (
        <OneChoice key={choice.title} choice={choice} actions={actions} picked={picked} busy={busy} onAct={onAct} />
      ))}
      {picked.length > 0 && (
        <button className="link" data-testid="set-clear" onClick={onClear}>
          clear the picks
        </button>
      )}
    </div>
  );
}
