// The games that ship a board of their own, by game id: each lives in its own folder behind GameUI
// (types.ts). A board is optional: the lobby's ListGames lists the games, and any game without one here
// is drawn by the generic board (generic/), from the generic service every game service serves.
import type { GameUI } from "./types";
import { beasts } from "./beasts";
import { generic } from "./generic";
import { pursuit } from "./pursuit";
import { snitch } from "./snitch";
import { zoo } from "./zoo";

const GAMES: Record<string, GameUI> = { beasts, pursuit, snitch, zoo };

/** The game's own board, or the generic one (for a game without its own, or when the page asks: ?board=generic). */
export function gameUI(game: string, board?: string): GameUI {
  return (board === "generic" ? undefined : GAMES[game]) ?? generic;
}
