// The viewer's legal actions, each a button with the engine's own label (never re-worded here).
import type { ReactNode } from "react";
import type { LegalAction } from "../games/types";

interface Props {
  actions: LegalAction<unknown>[];
  selected: string | null;
  busy: boolean;
  onAct(index: number): void;
  onClear(): void;
  /** How many more legal actions the board draws as its own clickable cards. */
  onBoard?: number;
  /** Shown above the buttons (the set choices' bar): part of "Your move", the bar a phone holds at the bottom. */
  children?: ReactNode;
}

export function Actions({ actions, selected, busy, onAct, onClear, onBoard = 0, children }: Props) {
  if (actions.length === 0 && onBoard === 0 && !children) return null;
  const shown = selected ? actions.filter((a) => a.target === selected) : actions;
  return (
    <section className="actions" data-testid="actions">
      <h3>
        Your move{" "}
        {selected && (
          <button className="link" onClick={onClear}>
            show all {actions.length}
          </button>
        )}
      </h3>
      {children}
      {onBoard > 0 && (
        <p className="small" data-testid="on-board">
          {onBoard === 1 ? "1 choice is" : `${onBoard} choices are`} on the board: click one there.
        </p>
      )}
      <div className="action-list">
        {shown.map((a) => (
          <button
            key={a.index}
            data-testid="action"
            data-code={a.label.code}
            data-passes={a.label.passes ? "yes" : "no"}
            data-target={a.target}
            disabled={busy}
            title={a.label.code}
            onClick={() => onAct(a.index)}
          >
            {a.label.text}
          </button>
        ))}
      </div>
    </section>
  );
}
