// Each seat's chance to win at each step of a replay, as the bots estimated it: a line per seat (plain
// SVG), the chosen step as a vertical rule, and the biggest swings marked; a click picks a step.
import { seatName } from "../games/types";

/** One step's estimate: each seat's chance in [0, 1], by seat; empty where the bots have none. */
export interface ChartStep {
  version: bigint;
  chances: number[];
}

/** A step where some seat's chance moved a lot since the step before it that has an estimate. */
export interface Swing {
  index: number;
  seat: number;
  from: number;
  to: number;
}

const SEAT_COLOURS = ["#2a5db0", "#c0392b", "#27ae60", "#8e44ad", "#e67e22", "#16a085"];
const WIDTH = 800;
const HEIGHT = 180;
const PAD = 24;
// Swings smaller than this are no swing at all; at most this many are marked.
const MIN_SWING = 0.1;
const MOST_SWINGS = 3;

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** The biggest swings, by step order: each the seat whose chance moved most at that step. */
export function biggestSwings(steps: ChartStep[]): Swing[] {
  const swings: Swing[] = [];
  let before: number[] | undefined;
  steps.forEach((step, index) => {
    if (step.chances.length === 0) return;
    if (before) {
      const last = before;
      let best: Swing | undefined;
      step.chances.forEach((to, seat) => {
        const from = last[seat] ?? to;
        if (!best || Math.abs(to - from) > Math.abs(best.to - best.from)) best = { index, seat, from, to };
      });
      if (best && Math.abs(best.to - best.from) >= MIN_SWING) swings.push(best);
    }
    before = step.chances;
  });
  return swings
    .sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from))
    .slice(0, MOST_SWINGS)
    .sort((a, b) => a.index - b.index);
}

interface Props {
  steps: ChartStep[];
  seats: number;
  names: Map<number, string>;
  current: number;
  swings: Swing[];
  onPick(index: number): void;
}

export function WinChart({ steps, seats, names, current, swings, onPick }: Props) {
  const last = Math.max(steps.length - 1, 1);
  const x = (index: number) => PAD + (index / last) * (WIDTH - 2 * PAD);
  const y = (chance: number) => HEIGHT - PAD - chance * (HEIGHT - 2 * PAD);
  const lines = Array.from({ length: seats }, (_, seat) =>
    steps
      .map((step, index) => (step.chances.length > seat ? `${x(index).toFixed(1)},${y(step.chances[seat]).toFixed(1)}` : ""))
      .filter(Boolean)
      .join(" "),
  );
  const pick = (event: React.MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * WIDTH;
    onPick(Math.min(steps.length - 1, Math.max(0, Math.round(((at - PAD) / (WIDTH - 2 * PAD)) * last))));
  };
  return (
    <figure className="win-chart" data-testid="win-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Each seat's chance to win, step by step" onClick={pick}>
        {[0, 0.5, 1].map((level) => (
          <g key={level}>
            <line className="grid" x1={PAD} x2={WIDTH - PAD} y1={y(level)} y2={y(level)} />
            <text className="axis" x={2} y={y(level) + 4}>
              {Math.round(level * 100)}%
            </text>
          </g>
        ))}
        {lines.map((points, seat) =>
          points ? (
            <polyline key={seat} data-testid="win-line" points={points} fill="none" stroke={seatColour(seat)} strokeWidth={2} />
          ) : null,
        )}
        <line className="now" x1={x(current)} x2={x(current)} y1={PAD / 2} y2={HEIGHT - PAD / 2} />
        {swings.map((swing) => (
          <circle
            key={swing.index}
            data-testid="swing-mark"
            className="swing"
            cx={x(swing.index)}
            cy={y(swing.to)}
            r={6}
            stroke={seatColour(swing.seat)}
            onClick={(event) => {
              event.stopPropagation();
              onPick(swing.index);
            }}
          >
            <title>{`${seatName(names, swing.seat)}: ${percent(swing.from)} → ${percent(swing.to)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {Array.from({ length: seats }, (_, seat) => (
          <span key={seat} className="legend" style={{ color: seatColour(seat) }}>
            ■ {seatName(names, seat)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export function percent(chance: number): string {
  return `${Math.round(chance * 100)}%`;
}
