// Every game's UI, by game id: each lives in its own folder behind GameUI (types.ts).
import type { GameUI } from "./types";
import { beasts } from "./beasts";
import { pursuit } from "./pursuit";
import { snitch } from "./snitch";
import { zoo } from "./zoo";

const GAMES: Record<string, GameUI> = { beasts, pursuit, snitch, zoo };

export function gameUI(game: string): GameUI | undefined {
  return GAMES[game];
}
