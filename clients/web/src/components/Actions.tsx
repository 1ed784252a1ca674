// The viewer's legal actions, each a button with the engine's own label (never re-worded here).
import type { LegalAction } from "../games/types";

interface Props {
  actions: LegalAction<unknown>[];
  selected: string | null;
  busy: boolean;
  onAct(index: number): void;
  onClear(): void;
}

export function Actions({ actions, selected, busy, onAct, onClear }: Props) {
  if (actions.length === 0) return null;
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
      <div className="action-list">
        {shown.map((a) => (
          <button
            key={a.index}
            data-testid="action"
            data-code={a.label.code}
            data-passes={a.label.passes ? "yes" : "no"}
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
