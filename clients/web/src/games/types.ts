// The small interface each game's UI implements (src/games/<game>/); the match page does the rest.
import type { ComponentType, KeyboardEvent, MouseEvent } from "react";
import type { DescService } from "@bufbuild/protobuf";
import type { ActionLabel } from "../gen/menagerie/common/v1/common_pb";
import type { SetChoice } from "./sets";

/** One legal action of the viewer's seat, as the server listed it, with the engine's label. */
export interface LegalAction<A> {
  index: number;
  action: A;
  label: ActionLabel;
  /** The board element the action is about (see GameUI.target); undefined: only in the action list. */
  target?: string;
}

export interface BoardProps<V, A> {
  view: V;
  /** The viewer's seat; undefined for a spectator. */
  viewer?: number;
  /** Seat -> display name (from the match's summary). */
  names: Map<number, string>;
  actions: LegalAction<A>[];
  /** The board element picked to filter the actions (null: all). */
  selected: string | null;
  onSelect(target: string | null): void;
  /** Takes the legal action at this index (the match page's submission path), for choices drawn on the board. */
  onAct?(index: number): void;
  /** True while an action is being submitted: board choices wait. */
  busy?: boolean;
  /** The board parts a set choice lets the player toggle (see GameUI.sets), and those toggled on. */
  pickable?: ReadonlySet<string>;
  picked?: readonly string[];
  onPick?(key: string): void;
}

export interface GameUI<V = any, A = any> {
  id: string;
  /** The game's own gRPC service (generated, src/gen): GetView, ListLegalActions, SubmitAction, Watch. */
  service: DescService;
  Board: ComponentType<BoardProps<V, A>>;
  /**
   * The board element an action is about, named by the action's own fields (a card id, a space id), so
   * the board can make that element clickable. It reads the server's action; it never decides legality.
   */
  target?(action: A, view: V, viewer?: number): string | undefined;
  /**
   * True for an action the board draws as a clickable element of its own (Snitch's team-building cards):
   * the action list leaves it out and says how many are on the board.
   */
  onBoard?(action: A, view: V): boolean;
  /**
   * The choices that are sets of board parts (dice to keep, dice to re-roll): the parts each legal
   * action takes, read from the action's own fields. The board draws the parts as toggles and the match
   * page confirms the one action that takes exactly the parts toggled (sets.ts); these actions leave the list.
   */
  sets?(actions: LegalAction<A>[], view: V, viewer?: number): SetChoice[];
  /** The service's name is the same for every game (the generic one): it is called under /games/<game>. */
  perGame?: boolean;
}

/** Props of a clickable board element: selectable when some legal action is about it. */
export function targetProps<V, A>(props: BoardProps<V, A>, key: string): {
  className: string;
  onClick?: () => void;
  "data-target"?: string;
} {
  const active = props.actions.some((a) => a.target === key);
  if (!active) return { className: "" };
  const chosen = props.selected === key;
  return {
    className: chosen ? "target chosen" : "target",
    onClick: () => props.onSelect(chosen ? null : key),
    "data-target": key,
  };
}

/** Props of a board part a set choice can take: a toggle (click, Space or Enter) showing whether it is picked. */
export function partProps<V, A>(props: BoardProps<V, A>, key: string): {
  className: string;
  role?: "checkbox";
  tabIndex?: number;
  "aria-checked"?: boolean;
  "data-part"?: string;
  onClick?: (event: MouseEvent) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
} {
  const { pickable, picked, onPick } = props;
  if (!pickable?.has(key) || !onPick) return { className: "" };
  const on = picked?.includes(key) ?? false;
  return {
    className: on ? "part picked" : "part",
    role: "checkbox",
    tabIndex: 0,
    "aria-checked": on,
    "data-part": key,
    // The part lies inside elements that narrow the list when clicked: a toggle is not also a narrowing.
    onClick: (event) => {
      event.stopPropagation();
      onPick(key);
    },
    onKeyDown: (event) => {
      if (event.key !== " " && event.key !== "Enter") return;
      event.preventDefault();
      event.stopPropagation();
      onPick(key);
    },
  };
}

/** "Seat 2" for index 1: seats are counted from 1 wherever a person reads them, as the server's words do. */
export function seatNumber(seat: number): string {
  return `Seat ${seat + 1}`;
}

/** The seat's name as the server sends it ("Ann", "Bot 2 (greedy)"); "Seat 2" until the names arrive. */
export function seatName(names: Map<number, string>, seat: number): string {
  return names.get(seat) ?? seatNumber(seat);
}

/** SOME_ENUM_NAME -> "some enum name" without its prefix (e.g. HABITAT_FOREST -> "forest"). */
export function enumWord(name: string | undefined, prefix: string): string {
  return (name ?? "").replace(prefix, "").toLowerCase().replace(/_/g, " ");
}
