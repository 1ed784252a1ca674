// Fantastic Beasts: the map of spaces joined by its streets (each space's `neighbours`), the blue
// circles (Apparate points), the tokens and the players' standees. The layout is deterministic:
// rings by distance (breadth-first) from the start space, spaces spread evenly round each ring in id
// order, then relaxed by a fixed number of force-directed steps (streets pull, spaces push apart). A space is clickable when a legal action names it (move, step, portkey, revelio, accio).
import { useMemo } from "react";
import { Beasts } from "../../gen/menagerie/beasts/v1/beasts_pb";
import type { Action, ResourceCounts, Space, View } from "../../gen/menagerie/beasts/v1/beasts_pb";
import { Colour, TokenState } from "../../gen/menagerie/beasts/v1/beasts_pb";
import { enumWord, seatName, targetProps, type BoardProps, type GameUI } from "../types";

type Props = BoardProps<View, Action>;

function target(action: Action): string | undefined {
  const k = action.kind;
  switch (k.case) {
    case "move":
    case "step":
      return `space:${k.value.to}`;
    case "portkey":
    case "revelio":
    case "accio":
      return `space:${k.value.space}`;
    default:
      return undefined;
  }
}

const SIZE = 640;
const SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const RESOURCE_COLOURS: Record<number, string> = {
  [Colour.RED]: "#d62728",
  [Colour.BLUE]: "#1f77b4",
  [Colour.YELLOW]: "#e6b800",
  [Colour.GREEN]: "#2ca02c",
  [Colour.WILD]: "#888",
};

/** Space id -> (x, y): rings by breadth-first distance from the start space. */
function layout(spaces: Space[], start: number): Map<number, [number, number]> {
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const depth = new Map<number, number>();
  const first = byId.has(start) ? start : spaces[0]?.id;
  const queue = first === undefined ? [] : [first];
  if (first !== undefined) depth.set(first, 0);
  while (queue.length) {
    const id = queue.shift()!;
    for (const n of byId.get(id)?.neighbours ?? []) {
      if (!depth.has(n) && byId.has(n)) {
        depth.set(n, depth.get(id)! + 1);
        queue.push(n);
      }
    }
  }
  const maxDepth = Math.max(0, ...depth.values());
  for (const s of spaces) if (!depth.has(s.id)) depth.set(s.id, maxDepth + 1); // unreachable: outer ring
  const rings = new Map<number, number[]>();
  for (const [id, d] of depth) rings.set(d, [...(rings.get(d) ?? []), id].sort((a, b) => a - b));
  const outer = Math.max(...rings.keys(), 1);
  const positions = new Map<number, [number, number]>();
  for (const [d, ids] of rings) {
    const radius = (d / outer) * (SIZE / 2 - 40);
    ids.forEach((id, i) => {
      const angle = (2 * Math.PI * i) / ids.length + d * 0.35;
      positions.set(id, [SIZE / 2 + radius * Math.cos(angle), SIZE / 2 + radius * Math.sin(angle)]);
    });
  }
  return relax(positions, spaces);
}

/** Fruchterman–Reingold steps from the ring layout: same input, same map, every time. */
function relax(start: Map<number, [number, number]>, spaces: Space[], steps = 300): Map<number, [number, number]> {
  const ids = [...start.keys()];
  const pos = new Map(ids.map((id) => [id, [...start.get(id)!] as [number, number]]));
  const area = (SIZE - 80) * (SIZE - 80);
  const k = 0.6 * Math.sqrt(area / Math.max(ids.length, 1));
  for (let step = 0; step < steps; step++) {
    const heat = (SIZE / 10) * (1 - step / steps) + 1;
    const move = new Map(ids.map((id) => [id, [0, 0] as [number, number]]));
    for (const a of ids) {
      const [ax, ay] = pos.get(a)!;
      for (const b of ids) {
        if (a === b) continue;
        const [bx, by] = pos.get(b)!;
        const dx = ax - bx || 0.01;
        const dy = ay - by || 0.01;
        const d = Math.hypot(dx, dy);
        const push = (k * k) / d;
        move.get(a)![0] += (dx / d) * push;
        move.get(a)![1] += (dy / d) * push;
      }
    }
    for (const s of spaces) {
      for (const n of s.neighbours) {
        if (!pos.has(n) || s.id > n) continue;
        const [ax, ay] = pos.get(s.id)!;
        const [bx, by] = pos.get(n)!;
        const dx = ax - bx;
        const dy = ay - by;
        const d = Math.hypot(dx, dy) || 0.01;
        const pull = (d * d) / k;
        move.get(s.id)![0] -= (dx / d) * pull;
        move.get(s.id)![1] -= (dy / d) * pull;
        move.get(n)![0] += (dx / d) * pull;
        move.get(n)![1] += (dy / d) * pull;
      }
    }
    for (const id of ids) {
      // A little gravity keeps the map off the edges.
      const c = pos.get(id)!;
      move.get(id)![0] -= (c[0] - SIZE / 2) * 0.05 * k / 10;
      move.get(id)![1] -= (c[1] - SIZE / 2) * 0.05 * k / 10;
      const [mx, my] = move.get(id)!;
      const d = Math.hypot(mx, my) || 1;
      const p = pos.get(id)!;
      p[0] = Math.min(SIZE - 30, Math.max(30, p[0] + (mx / d) * Math.min(d, heat)));
      p[1] = Math.min(SIZE - 30, Math.max(30, p[1] + (my / d) * Math.min(d, heat)));
    }
  }
  return pos;
}

function counts(r?: ResourceCounts): string {
  if (!r) return "";
  return `red ${r.red} · blue ${r.blue} · yellow ${r.yellow} · green ${r.green} · wild ${r.wild}`;
}

function BeastsBoard(props: Props) {
  const { view } = props;
  const spaces = view.board?.spaces ?? [];
  const pos = useMemo(() => layout(spaces, view.board?.startSpace ?? 0), [spaces, view.board?.startSpace]);
  const tokens = new Map(view.tokens.map((t) => [t.space, t]));
  const creatures = new Map(view.creatures.map((c) => [c.id, c]));
  const edges: [number, number][] = [];
  for (const s of spaces) for (const n of s.neighbours) if (s.id < n) edges.push([s.id, n]);
  return (
    <div className="beasts-board">
      <p className="small">
        Turn {view.turn} of {view.turnCap} · {seatName(props.names, view.currentSeat)} to play
        {view.roll ? ` · rolled ${view.roll} (${view.steps} steps)` : ""} · supply {view.supplySize}
      </p>
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} className="map" data-testid="beasts-map">
        {edges.map(([a, b]) => {
          const [x1, y1] = pos.get(a) ?? [0, 0];
          const [x2, y2] = pos.get(b) ?? [0, 0];
          return <line key={`${a}-${b}`} x1={x1} y1={y1} x2={x2} y2={y2} className="street" />;
        })}
        {spaces.map((s) => {
          const [x, y] = pos.get(s.id) ?? [0, 0];
          const t = targetProps(props, `space:${s.id}`);
          const token = tokens.get(s.id);
          let fill = "#fff";
          if (token?.state === TokenState.HIDDEN) fill = "#bbb";
          if (token?.state === TokenState.RESOURCE) fill = RESOURCE_COLOURS[token.colour] ?? "#fff";
          if (token?.state === TokenState.CREATURE) fill = "#f7d774";
          const here = view.players.filter((p) => p.position === s.id);
          return (
            <g key={s.id} className={`space ${t.className}`} onClick={t.onClick} data-target={t["data-target"]}>
              <title>
                {s.name}
                {token?.creature ? ` · ${creatures.get(token.creature)?.name ?? token.creature}` : ""}
              </title>
              <circle cx={x} cy={y} r={13} fill={fill} className={s.blueCircle ? "blue-circle" : "plain"} />
              <text x={x} y={y + 4} textAnchor="middle" className="space-id">
                {s.id}
              </text>
              <text x={x} y={y + 24} textAnchor="middle" className="space-name">
                {s.name.length > 16 ? `${s.name.slice(0, 15)}…` : s.name}
              </text>
              {here.map((p, i) => (
                <circle key={p.seat} cx={x + 12 + i * 7} cy={y - 12} r={5} fill={SEAT_COLOURS[p.seat % 6]} stroke="#000" />
              ))}
            </g>
          );
        })}
      </svg>
      <table className="players">
        <tbody>
          {view.players.map((p) => (
            <tr key={p.seat}>
              <td>
                <span className="dot" style={{ background: SEAT_COLOURS[p.seat % 6] }} /> {seatName(props.names, p.seat)}
              </td>
              <td>space {p.position}</td>
              <td>{counts(p.resources)}</td>
              <td>captured: {p.captured.map((id) => creatures.get(id)?.name ?? id).join(", ") || "–"}</td>
              <td>{p.character && `${p.character} (${p.actions} actions)`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small">
        Creatures:{" "}
        {view.creatures
          .filter((c) => c.faceUpOn !== undefined)
          .map((c) => `${c.name} on ${c.faceUpOn} (${counts(c.cost)})`)
          .join(" · ") || "none face up"}
      </p>
      {view.mode === 3 && (
        <p className="small">
          Salem track {view.track}/{view.lossAt} · Salemers on {view.salemers.join(", ") || "–"} · bar:{" "}
          {view.barColours.map((c) => enumWord(Colour[c], "")).join(", ")} · team captured {view.teamCaptured}/
          {view.creaturesToWin}
        </p>
      )}
    </div>
  );
}

export const beasts: GameUI<View, Action> = { id: "beasts", service: Beasts, Board: BeastsBoard, target };
