// A finished match's results, per seat, in the engine's words.
import type { Outcome } from "../gen/menagerie/common/v1/common_pb";
import { Result } from "../gen/menagerie/common/v1/common_pb";
import { seatName } from "../games/types";

const RESULT: Record<number, string> = { [Result.WIN]: "win", [Result.LOSS]: "loss", [Result.DRAW]: "draw" };

export function OutcomeTable({ outcome, names, viewer }: { outcome: Outcome; names: Map<number, string>; viewer?: number }) {
  const rows = [...outcome.seats].sort((a, b) => a.rank - b.rank);
  return (
    <section className="outcome" data-testid="outcome">
      <h2>Match over</h2>
      <p>{outcome.reason}</p>
      <table>
        <thead>
          <tr>
            <th>Rank</th>
            <th>Seat</th>
            <th>Result</th>
            <th>Score</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.seat} className={s.seat === viewer ? "me" : ""}>
              <td>{s.rank}</td>
              <td>{seatName(names, s.seat)}</td>
              <td>{RESULT[s.result] ?? "–"}</td>
              <td>{s.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
