// The games that ship a board of their own, by game id: each lives in its own folder behind GameUI
// (types.ts). A board is optional: the lobby's ListGames lists the games, and any game without one here
// is drawn by the generic board (generic/), from the generic service every game service serves.
// Every board, the generic one too, is drawn inside ZoomPan (zoom and pan on any screen: issue 30, item 8).
import { zoomable } from "../components/ZoomPan";
import type { GameUI } from "./types";
import { beasts } from "./beasts";
import { generic } from "./generic";
import { pursuit } from "./pursuit";
import { snitch } from "./snitch";
import { zoo } from "./zoo";

/** The game's UI with its board inside the zoom and pan window. */
function withZoom(ui: GameUI): GameUI {
  return { ...ui, Board: zoomable(ui.Board) };
}

const GAMES: Record<string, GameUI> = Object.fromEntries(
  Object.entries({ beasts, pursuit, snitch, zoo }).map(([id, ui]) => [id, withZoom(ui)]),
);
const GENERIC = withZoom(generic);

/** The game's own board, or the generic one (for a game without its own, or when the page asks: ?board=generic). */
export function gameUI(game: string, board?: string): GameUI {
  return (board === "generic" ? undefined : GAMES[game]) ?? GENERIC;
}
